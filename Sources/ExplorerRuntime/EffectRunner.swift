import Catalog
import DispatcherCore
import ExplorerApp
import FoundationEssentials
import Sessions
import Synchronization
import SystemSupport
import TerminalKit

/// Performs the reducer's effects off the UI path and posts their results as actions. It
/// composes: each feature's effects go to its handler (`Features/<Name>/`) in one line; the app's
/// own (reading and watching the catalogs, the clipboard, time) are done here.
final class EffectRunner: Sendable {
    let inbox: ActionInbox
    let device: any TerminalDevice
    let services: ExplorerServices
    /// The catalogs loaded last, their secrets and sessions.
    let catalogs: LoadedCatalogs
    /// The catalog folder's watcher and the task reading it, while watched.
    let watching = Mutex<(watcher: FileWatcher, task: Task<Void, Never>)?>(nil)
    /// Work that must end before the explorer does (loads, requests, history writes), by id.
    private let unfinished = Mutex<[Int: Task<Void, Never>]>([:])
    private let nextWork = Atomic<Int>(0)
    /// The launch's catalog load while it runs: its count is shown, and quitting stops it.
    let catalogLoad = Mutex<CatalogLoadProgress?>(nil)
    /// Frames the runtime has drawn: the full load behind a launch index waits for the index's frame.
    let framesDrawn = Atomic<Int>(0)

    // The features' effect handlers (Features/); `perform` routes each feature's effects to its own.
    private let exchanges: ExchangesEffects
    private let editing: EditingEffects
    private let history: HistoryEffects
    private let auth = AuthEffects()
    private let rpc = RPCEffects()
    private let webSocket: WebSocketEffects
    private let drift: DriftEffects
    private let body: BodyEffects
    private let panes: PanesEffects

    /// The kinds of exchange a request is offered to (`ExchangeKind`): a new protocol is one more here.
    private static func kinds(webSocket: WebSocketEffects) -> [any ExchangeKind] {
        [StreamedBodies(), Downloads(), Uploads(), webSocket]
    }

    init(inbox: ActionInbox, device: any TerminalDevice, services: ExplorerServices) {
        self.inbox = inbox
        self.device = device
        self.services = services
        let secretRegistry = SecretRegistry()
        let activity = NetworkActivityPlugin { _, inFlight in inbox.post(.exchanges(.activityChanged(inFlight))) }
        // Entries are formatted by the reducer, off the request path; the logger knows every secret
        // value the sessions resolve, so the Log tab masks them whatever carries them.
        let logger = NetworkLoggerPlugin(options: .standard, redactor: Redactor.standard.knowing(secretRegistry)) { entry in
            inbox.post(.log(.networkLogged(entry)))
        }
        let catalogs = LoadedCatalogs(services: services, plugins: [activity, logger] + services.extraPlugins, secretRegistry: secretRegistry, post: inbox.post)
        self.catalogs = catalogs
        let history = HistoryEffects(store: services.history)
        self.history = history
        webSocket = WebSocketEffects(clock: services.clock)
        exchanges = ExchangesEffects(
            kinds: Self.kinds(webSocket: webSocket), services: services, trust: { catalogs.trust }, keep: history.keep)
        editing = EditingEffects(
            device: device, services: services, catalog: { catalogs.catalog.withLock { $0 } },
            reload: { file, catalog in catalogs.reloadAfterWriting(file, over: catalog) })
        drift = DriftEffects(store: services.drift)
        body = BodyEffects(device: device, environment: services.environment)
        panes = PanesEffects(file: services.panes)
    }

    /// Requests under way, but open WebSocket conversations that wait with nothing to report.
    var runningCount: Int { exchanges.runningCount - webSocket.waitingCount }

    /// Scratch requests' handler: it reads and writes the catalogs the runner loaded.
    private var scratch: ScratchEffects {
        let catalogs = self.catalogs
        return ScratchEffects(
            catalog: { catalogs.catalog.withLock { $0 } }, addService: { catalogs.addScratch($0) },
            reload: { file, catalog in catalogs.reloadAfterWriting(file, over: catalog) }, trust: services.trust)
    }

    /// Flow runs' handler: it sends with the catalogs and secrets the runner loaded.
    private var checks: ChecksEffects {
        let catalogs = self.catalogs
        return ChecksEffects(
            loaded: {
                guard let catalog = catalogs.catalog.withLock({ $0 }), let secrets = catalogs.secrets.withLock({ $0 }) else { return nil }
                return (catalog, secrets)
            }, transport: catalogs.transport, clock: services.clock)
    }

    /// What the features' handlers may use of the runner.
    private var context: EffectContext {
        EffectContext(
            post: inbox.post, load: { [self] work in load(work) }, run: { [self] work in run(work) },
            session: { [catalogs] environment, mode in catalogs.session(environment, mode: mode) })
    }

    func perform(_ effect: AppEffect) {
        switch effect {
        // Features (Features/): each to its handler in one line.
        case .exchanges(let effect): exchanges.perform(effect, context)
        case .editing(let effect): editing.perform(effect, context)
        case .history(let effect): history.perform(effect, context)
        case .auth(let effect): auth.perform(effect, context)
        case .webSocket(let effect): webSocket.perform(effect, context)
        case .body(let effect): body.perform(effect, context)
        case .scratch(let effect): scratch.perform(effect, context)
        case .drift(let effect): drift.perform(effect, context)
        case .rpc(let effect): rpc.perform(effect, context)
        case .checks(let effect): checks.perform(effect, context)
        case .panes(let effect): panes.perform(effect, context)
        // The app's own.
        case .loadCatalog:
            loadCatalog()
        case .watchCatalogs:
            watchCatalogs()
        case .loadTimeZone:
            let zone = services.timeZone
            load { .timeZoneLoaded(zone()) }
        case .scheduleLoadingScreen(let delay):
            let inbox = self.inbox
            services.schedule(delay) { inbox.post(.launch(.loadingScreenDue)) }
        case .copyToClipboard(let text, let description):
            OSC52.put(text, description: description, on: device, post: inbox.post)
        case .quit:
            break
        }
    }

    /// Reads the catalogs: the launch index's first when it matches the folder (drawn at once),
    /// then all of them, reporting `.catalogLoaded`.
    private func loadCatalog() {
        let (launchIndex, inbox) = (services.launchIndex, self.inbox)
        let progress = CatalogLoadProgress()
        catalogLoad.withLock { $0 = progress }
        reportProgress(of: progress)
        load(awaitedOnQuit: false) {
            // The folder's state is taken before the load: a file changed during it makes the
            // index written after it a miss.
            let key = launchIndex?.currentKey()
            let preview = key.flatMap { launchIndex?.preview(matching: $0) }
            if let preview {
                // No frame is drawn while the catalogs load without one, so the next is the index's.
                let drawn = self.framesDrawn.load(ordering: .acquiring)
                inbox.post(.catalogPreviewed(preview))
                // Read in full once it is drawn, not competing with it for the CPU (at most a second later).
                let deadline = ContinuousClock.now + .seconds(1)
                while self.framesDrawn.load(ordering: .acquiring) == drawn, ContinuousClock.now < deadline {
                    guard (try? await Task.sleep(for: .microseconds(250))) != nil else { break }
                }
            }
            // On a thread of its own: the load keeps the cores busy, and must not hold the
            // cooperative pool the run loop (keys, `q`, signals) needs meanwhile.
            let services = self.services
            let (catalog, secrets) = await PosixThread.run {
                services.loadCatalogCounting.map { $0(progress) } ?? services.loadCatalog()
            }
            self.catalogLoad.withLock { $0 = nil }
            guard !progress.isCancelled else { return .catalogLoaded(catalog, secrets) }  // quitting: nothing is kept
            if preview == nil, let launchIndex, let key, let index = CatalogLaunchIndex(catalog) { launchIndex.write(index, key: key) }
            self.catalogs.install(catalog, secrets: secrets)
            return .catalogLoaded(catalog, secrets)
        }
    }

    /// Posts how far the catalog load has come every `progressInterval` (through `schedule`, so a
    /// test or a headless launch decides whether time passes) until it ends.
    private func reportProgress(of progress: CatalogLoadProgress) {
        let inbox = self.inbox
        services.schedule(Self.progressInterval) { [weak self] in
            guard let self, self.catalogLoad.withLock({ $0 === progress }), !progress.isCancelled else { return }
            inbox.post(.launch(.loadProgressed(read: progress.read, total: progress.total)))
            self.reportProgress(of: progress)
        }
    }

    /// How often the loading screen's count is brought up to date.
    static let progressInterval: Duration = .milliseconds(100)

    /// Opens `url` with `$BROWSER`, else `xdg-open`, when either is there (nothing otherwise: the
    /// explorer shows the URL and puts it on the clipboard).
    static func openInBrowser(_ url: String, environment: [String: String]) {
        let path = environment["PATH"] ?? "/usr/bin:/bin"
        let candidates = [environment["BROWSER"], "xdg-open"].compactMap { $0?.split(separator: " ").first.map(String.init) }
        for name in candidates {
            let program = name.hasPrefix("/") ? name : path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
            guard let program, FileManager.default.isExecutableFile(atPath: program) else { continue }
            guard let child = try? ChildProcess(program, [url], environment: environment, input: .null, output: .null, errors: .null, newSession: true)
            else { continue }
            // Reaped when it exits (xdg-open hands the URL over and ends).
            _ = PosixThread.start { _ = child.wait() }
            return
        }
    }

    /// Runs a load in the background and posts what it read (the reducer knows it is pending).
    /// Unless `awaitedOnQuit`, quitting does not wait for it (a load that only reads).
    func load(awaitedOnQuit: Bool = true, _ work: @escaping @Sendable () async -> AppAction) {
        let inbox = self.inbox
        guard awaitedOnQuit else {
            Task.detached { inbox.post(await work()) }
            return
        }
        _ = run { inbox.post(await work()) }
    }

    /// Runs work in the background that `cancelAll` waits for.
    func run(_ work: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        let id = nextWork.add(1, ordering: .relaxed).newValue
        // Registered under the lock the task's own removal takes, so a task that ends at once can
        // never be registered after it removed itself.
        return unfinished.withLock { unfinished in
            let task = Task.detached {
                await work()
                _ = self.unfinished.withLock { $0.removeValue(forKey: id) }
            }
            unfinished[id] = task
            return task
        }
    }

    /// Cancels every request and body task and waits for them, for loads, history writes and state saves.
    func cancelAll() async {
        // The catalog load stops between two files and is not waited for (it only reads).
        catalogLoad.withLock { $0 }?.cancel()
        let running = exchanges.running + body.running
        for task in running { task.cancel() }
        for task in running + unfinished.withLock({ Array($0.values) }) { await task.value }
        await stopWatching()
        await editing.draftWriter.flush()
        await editing.valueWriter.flush()
        await exchanges.capturedWriter.flush()
        await panes.writer.flush()
    }
}

/// The OSC 52 escape sequence that puts text on the terminal's clipboard (works over SSH and in tmux).
enum OSC52 {
    static func copy(_ text: String) -> String {
        "\u{1B}]52;c;\(Data(text.utf8).base64EncodedString())\u{07}"
    }

    /// Puts `text` on the terminal's clipboard and tells the app what it was (`.copied`).
    static func put(_ text: String, description: String, on device: any TerminalDevice, post: (AppAction) -> Void) {
        device.writeControlSequence(copy(text))
        post(.copied(description: description))
    }
}
