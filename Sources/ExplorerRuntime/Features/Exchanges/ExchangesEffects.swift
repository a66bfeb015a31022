import Catalog
import DispatcherCore
import ExplorerApp
import FoundationEssentials
import Sessions
import StateStore
import Synchronization
import SystemSupport

/// Sends requests, whatever their kinds: each request's kinds of exchange prepare its options,
/// carry it (a stream may reconnect), and end it before `.finished` is posted; cancels them;
/// checks a download's file; keeps the trust given to a catalog; keeps the captured values.
final class ExchangesEffects: Sendable {
    /// The kinds of exchange every request is offered to, in order.
    private let kinds: [any ExchangeKind]
    /// Requests on their way, by ticket id.
    private let tasks = Mutex<[Int: Task<Void, Never>]>([:])
    /// Times requests and paces delayed fixtures.
    private let clock: DispatchClock
    /// Where `$HOME` and the downloads folder are read.
    private let environment: [String: String]
    /// Where captured values are kept between runs; nil keeps none.
    private let capturedFile: EnvironmentStateFile<CapturedValues>?
    /// Captured values are written in order, the latest winning, off the UI thread.
    let capturedWriter = StateFileKeeper<CapturedValues>()
    /// What remembers the trust given to catalog files and reads the catalogs again; nil when
    /// trust cannot be given from here.
    private let trust: @Sendable () -> (@Sendable ([String]) throws(SystemError) -> (CatalogSet, SecretStore))?
    /// Keeps a finished request (the history file).
    private let keep: @Sendable (Exchange, EndpointCall, Redactor, Date) -> Void
    /// Whether the spinner turns, and how its ticks are scheduled.
    private let animatesSpinner: Bool
    private let schedule: @Sendable (Duration, @escaping @Sendable () -> Void) -> Void

    init(
        kinds: [any ExchangeKind], services: ExplorerServices,
        trust: @escaping @Sendable () -> (@Sendable ([String]) throws(SystemError) -> (CatalogSet, SecretStore))?,
        keep: @escaping @Sendable (Exchange, EndpointCall, Redactor, Date) -> Void
    ) {
        self.kinds = kinds
        clock = services.clock
        environment = services.environment
        capturedFile = services.captured
        self.trust = trust
        self.keep = keep
        animatesSpinner = services.animatesSpinner
        schedule = services.schedule
    }

    /// Requests running.
    var runningCount: Int { tasks.withLock { $0.count } }

    /// The requests running, to cancel and wait for.
    var running: [Task<Void, Never>] { tasks.withLock { Array($0.values) } }

    func perform(_ effect: ExchangesEffect, _ context: EffectContext) {
        switch effect {
        case .send(let ticket):
            send(ticket, context)
        case .cancel(let ticket):
            tasks.withLock { $0[ticket] }?.cancel()
        case .checkDownload(let call):
            let environment = self.environment
            context.load { .exchanges(Self.checkDownload(call, environment: environment)) }
        case .trustCatalog(let contentHashes, let call):
            guard let trust = trust() else {
                context.post(.exchanges(.trustFailed("The catalog cannot be trusted from here: run `apiexplorer trust FOLDER`.")))
                return
            }
            context.load {
                do throws(SystemError) {
                    let (catalog, secrets) = try trust(contentHashes)
                    return .exchanges(.trusted(catalog, secrets, call: call))
                } catch {
                    return .exchanges(.trustFailed("The trust could not be kept: \(error)."))
                }
            }
        case .loadCaptured:
            let (file, keeper) = (capturedFile, capturedWriter)
            context.load { .exchanges(.capturedLoaded(file.map(keeper.load) ?? [:])) }
        case .saveCaptured(let captured):
            guard let capturedFile else { return }
            capturedWriter.keep(captured, in: capturedFile) { error in context.post(.stateNotSaved("Could not keep the captured values: \(error).")) }
        case .scheduleSpinnerTick(let generation, let delay):
            guard animatesSpinner else { return }
            schedule(delay) { context.post(.exchanges(.spinnerTick(generation: generation))) }
        }
    }

    /// Sends a request through its kinds of exchange and posts `.finished` once they ended it.
    private func send(_ ticket: RequestTicket, _ context: EffectContext) {
        let call = ticket.call
        guard let session = context.session(call.environmentKey, call.mode), let endpoint = session.service.endpoint(call.endpoint.endpoint) else {
            let error = DispatchError.invalidRequest("\(call.endpoint) is not in the catalog for \(call.environment).")
            context.post(.exchanges(.finished(FinishedExchange(ticket: ticket.id, exchange: Self.failed(call, error), redactor: .standard, finishedAt: Date()))))
            return
        }
        let behavior: StubBehavior
        switch call.mode {
        case .live: behavior = .never
        case .stub: behavior = session.environment.fixtures.isStubbed ? session.environment.fixtures : .immediate
        }
        let request = OutgoingRequest(ticket: ticket, endpoint: endpoint, session: session, post: context.post, clock: clock)
        let parts = kinds.compactMap { $0.part(in: request) }
        var options = RequestOptions(stubBehavior: behavior, example: call.example)
        for part in parts { part.prepare(&options) }
        let prepared = options
        // Each kind may carry the request its own way (a stream reconnects); the first is outermost.
        let base: ExchangeTransfer = { edits in await session.send(endpoint, values: call.values, captured: call.captured, edits: edits, options: prepared) }
        let transfer = parts.reversed().reduce(base) { next, part in { edits in await part.transfer(edits: edits, next: next) } }
        let (keep, post) = (self.keep, context.post)
        // Registered under the lock that the task's own removal takes, so a request that finishes
        // at once can never be registered after it removed itself (which would look busy forever).
        tasks.withLock { tasks in
            tasks[ticket.id] = context.run {
                var exchange = await transfer(call.edits)
                for part in parts { part.ended(&exchange) }
                // Knows every secret value the session resolved, typed secrets and secret answers included.
                let redactor = session.redactor
                let finished = Date()
                let signOut = session.signOut(of: exchange)
                _ = self.tasks.withLock { $0.removeValue(forKey: ticket.id) }
                post(.exchanges(.finished(FinishedExchange(ticket: ticket.id, exchange: exchange, redactor: redactor, finishedAt: finished, signOut: signOut))))
                // Kept for `apiexplorer history` and the next run's H list.
                keep(exchange, call, redactor, finished)
            }
        }
    }

    /// The exchange of a request that could not be sent at all.
    static func failed(_ call: EndpointCall, _ error: DispatchError) -> Exchange {
        let request = Request(
            identifier: call.endpoint.description, method: .get, url: URL(string: "about:blank")!,
            settings: TransportSettings(environment: Environment(name: call.environment, baseURL: URL(string: "about:blank")!)),
            attempt: 0)
        return Exchange(
            request: request, result: .failure(error), trace: [], environmentName: call.environment,
            environmentType: .development, stubBehavior: .never, attempts: 0, notes: [])
    }

    /// Where a download's file is: a name in the downloads folder (the catalog's `download:`),
    /// confined to it, or a path relative to where the explorer runs; and whether a file is there.
    static func checkDownload(_ call: EndpointCall, environment: [String: String]) -> ExchangesAction {
        guard let name = call.downloadPath else { return .downloadChecked(call, path: "", exists: false, problem: "no file was given") }
        let path: String
        switch call.downloadPlace {
        case .downloadsFolder:
            switch DownloadsFolder.file(name, in: DownloadsFolder.path(environment: environment)) {
            case .success(let file): path = file
            case .failure(let problem): return .downloadChecked(call, path: "", exists: false, problem: problem.description)
            }
        case .workingDirectory, .checked:
            path = name.hasPrefix("/") ? name : FileManager.default.currentDirectoryPath + "/" + name
        }
        return .downloadChecked(call, path: path, exists: FileStatus.exists(path), problem: nil)
    }
}
