import Catalog
import DispatcherCore
import ExplorerApp
import FoundationEssentials
import Sessions
import StateStore
import Synchronization
import SystemSupport
import TerminalKit

/// Performs the reducer's effects off the UI path and posts their results as actions.
final class EffectRunner: Sendable {
    let inbox: ActionInbox
    let device: any TerminalDevice
    let services: ExplorerServices
    /// Sessions for the catalogs loaded last; nil until they are.
    private let pool = Mutex<SessionPool?>(nil)
    /// The catalogs loaded last (a reload reads only what changed since).
    let loadedCatalog = Mutex<CatalogSet?>(nil)
    /// The secrets read with it (flow runs send with them).
    let loadedSecrets = Mutex<SecretStore?>(nil)
    /// Scratch requests' services, kept across reloads (they are in no file).
    let scratchServices = Mutex<[Service]>([])
    /// The catalog folder's watcher and the task reading it, while watched.
    let watching = Mutex<(watcher: FileWatcher, task: Task<Void, Never>)?>(nil)
    /// The plugins every session gets: activity, logger, then the services' own.
    private let plugins: [any Plugin]
    /// Every secret value the sessions resolve, shared with the logger so the Log tab masks them
    /// by value whatever header, query item or body field carries them.
    private let secretRegistry = SecretRegistry()
    /// Requests on their way, by ticket id.
    private let tasks = Mutex<[Int: Task<Void, Never>]>([:])
    /// Work that must end before the explorer does (loads, history writes), by id.
    private let unfinished = Mutex<[Int: Task<Void, Never>]>([:])
    private let nextWork = Atomic<Int>(0)
    /// The launch's catalog load while it runs: its count is shown, and quitting stops it.
    let catalogLoad = Mutex<CatalogLoadProgress?>(nil)
    /// Frames the runtime has drawn: the full load behind a launch index waits for the index's frame.
    let framesDrawn = Atomic<Int>(0)
    /// Drafts and run-time values are written in order, the latest winning, off the UI thread.
    let draftWriter = StateFileKeeper<[String: EndpointEdits]>()
    let valueWriter = StateFileKeeper<[String: String]>()
    let capturedWriter = StateFileKeeper<CapturedValues>()

    init(inbox: ActionInbox, device: any TerminalDevice, services: ExplorerServices) {
        self.inbox = inbox
        self.device = device
        self.services = services
        history = HistoryEffects(store: services.history)
        drift = DriftEffects(store: services.drift)
        body = BodyEffects(device: device, environment: services.environment)
        panes = PanesEffects(file: services.panes)
        let activity = NetworkActivityPlugin { _, inFlight in inbox.post(.activityChanged(inFlight)) }
        // Entries are formatted by the reducer, off the request path.
        let logger = NetworkLoggerPlugin(options: .standard, redactor: Redactor.standard.knowing(secretRegistry)) { entry in
            inbox.post(.log(.networkLogged(entry)))
        }
        plugins = [activity, logger] + services.extraPlugins
    }

    /// Where `$PAGER` and `$EDITOR` are read.
    var environment: [String: String] { services.environment }

    /// Requests still running.
    /// Requests and loads under way, but open WebSocket conversations that wait with nothing to report.
    var runningCount: Int {
        let waiting = webSocket.waitingCount
        return tasks.withLock { $0.count } - waiting
    }

    /// The features' effect handlers (Features/); `perform` routes each feature's effects to its own.
    private let history: HistoryEffects
    private let auth = AuthEffects()
    private let webSocket = WebSocketEffects()
    private let drift: DriftEffects
    private let body: BodyEffects
    private let panes: PanesEffects

    /// Scratch requests' handler: it reads and writes the catalogs the runner loaded.
    private var scratch: ScratchEffects {
        ScratchEffects(
            catalog: { [self] in loadedCatalog.withLock { $0 } }, addService: { [self] service in addScratch(service) },
            reload: { [self] file, catalog in reloadAfterWriting(file, over: catalog) }, trust: services.trust)
    }

    /// Flow runs' handler: it sends with the catalogs and secrets the runner loaded.
    private var tests: TestsEffects {
        TestsEffects(
            loaded: { [self] in
                guard let catalog = loadedCatalog.withLock({ $0 }), let secrets = loadedSecrets.withLock({ $0 }) else { return nil }
                return (catalog, secrets)
            }, transport: services.transport, clock: services.clock)
    }

    /// What the features' handlers may use of the runner.
    private var context: EffectContext {
        EffectContext(
            post: inbox.post, load: { [self] work in load(work) },
            session: { [self] environment, mode in pool.withLock { $0 }?.session(environment, mode: mode) })
    }

    func perform(_ effect: AppEffect) {
        switch effect {
        // Features (Features/): each to its handler in one line.
        case .history(let effect): history.perform(effect, context)
        case .auth(let effect): auth.perform(effect, context)
        case .webSocket(let effect): webSocket.perform(effect, context)
        case .body(let effect): body.perform(effect, context)
        case .scratch(let effect): scratch.perform(effect, context)
        case .drift(let effect): drift.perform(effect, context)
        case .tests(let effect): tests.perform(effect, context)
        case .panes(let effect): panes.perform(effect, context)
        case .loadCatalog:
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
                self.install(catalog, secrets: secrets)
                return .catalogLoaded(catalog, secrets)
            }
        case .watchCatalogs:
            watchCatalogs()
        case .trustCatalog(let contentHashes, let call):
            trustCatalog(contentHashes, then: call)
        case .checkDownload(let call):
            let environment = services.environment
            load { EffectRunner.checkDownload(call, environment: environment) }
        case .loadTimeZone:
            let zone = services.timeZone
            load { .timeZoneLoaded(zone()) }
        case .loadDrafts:
            let (drafts, keeper) = (services.drafts, draftWriter)
            load { .draftsLoaded(drafts.map(keeper.load) ?? [:]) }
        case .loadValues:
            let (values, keeper) = (services.values, valueWriter)
            load { .valuesLoaded(values.map(keeper.load) ?? [:]) }
        case .saveDrafts(let drafts):
            if let file = services.drafts { keep(drafts, in: file, writer: draftWriter, what: "the drafts") }
        case .loadCaptured:
            let (captured, keeper) = (services.captured, capturedWriter)
            load { .capturedLoaded(captured.map(keeper.load) ?? [:]) }
        case .saveCaptured(let captured):
            if let file = services.captured { keep(captured, in: file, writer: capturedWriter, what: "the captured values") }
        case .saveValues(let values):
            if let file = services.values { keep(values, in: file, writer: valueWriter, what: "the run-time values") }
        case .editBodyInEditor(let key, let text, let isJSON):
            editBody(key: key, text: text, isJSON: isJSON)
        case .writeDraft(let key, let edits):
            writeDraft(key: key, edits: edits)
        case .restoreCatalogFile(let key):
            restoreCatalogFile(key: key)
        case .saveDraftAsEndpoint(let key, let edits, let id):
            saveDraftAsEndpoint(key: key, edits: edits, id: id)
        case .send(let ticket):
            send(ticket)
        case .cancel(let ticket):
            tasks.withLock { $0[ticket] }?.cancel()
        case .scheduleSpinnerTick(let generation, let delay):
            guard services.animatesSpinner else { break }
            post(.spinnerTick(generation: generation), after: delay)
        case .scheduleLoadingScreen(let delay):
            post(.loadingScreenDue, after: delay)
        case .copyToClipboard(let text, let description):
            copy(text, description: description)
        case .quit:
            break
        }
    }

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

    /// Makes the sessions for newly read catalogs: ready before the reducer hears of them, so a
    /// send can follow at once (requests on their way keep the sessions they started with).
    func install(_ catalog: CatalogSet, secrets: SecretStore) {
        loadedCatalog.withLock { $0 = catalog }
        loadedSecrets.withLock { $0 = secrets }
        let scratch = scratchServices.withLock { $0 }
        var sessionCatalog = catalog
        sessionCatalog.services += scratch
        pool.withLock {
            $0 = SessionPool(
                catalog: sessionCatalog, secrets: secrets, transport: services.transport, plugins: plugins, clock: services.clock,
                secretRegistry: secretRegistry,
                onSignInPrompt: { [inbox, environment = services.environment] prompt in
                    // A browser sign-in opens the browser when there is one; the URL is shown and copied either way.
                    if prompt.userCode.isEmpty { EffectRunner.openInBrowser(prompt.verificationURL, environment: environment) }
                    inbox.post(.auth(.signInPrompted(prompt)))
                }, tokens: services.tokens, cookies: services.cookies)
        }
    }

    /// Makes sessions for a scratch request's service, now and after every reload.
    func addScratch(_ service: Service) {
        scratchServices.withLock { $0.append(service) }
        pool.withLock { $0 }?.add(service)
    }

    func copy(_ text: String, description: String) {
        OSC52.put(text, description: description, on: device, post: inbox.post)
    }

    /// Where a download's file is: a name in the downloads folder (the catalog's `download:`),
    /// confined to it, or a path relative to where the explorer runs; and whether a file is there.
    static func checkDownload(_ call: EndpointCall, environment: [String: String]) -> AppAction {
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

    /// Posts `action` once `delay` has passed (time reaches the reducer as actions).
    private func post(_ action: AppAction, after delay: Duration) {
        let inbox = self.inbox
        services.schedule(delay) { inbox.post(action) }
    }

    /// Runs a load in the background and posts what it read (the reducer knows it is pending).
    /// Unless `awaitedOnQuit`, quitting does not wait for it (a load that only reads).
    func load(awaitedOnQuit: Bool = true, _ work: @escaping @Sendable () async -> AppAction) {
        let inbox = self.inbox
        guard awaitedOnQuit else {
            Task.detached { inbox.post(await work()) }
            return
        }
        let id = nextWork.add(1, ordering: .relaxed).newValue
        // Registered under the lock the task's own removal takes (see `send`).
        unfinished.withLock { unfinished in
            unfinished[id] = Task.detached {
                inbox.post(await work())
                _ = self.unfinished.withLock { $0.removeValue(forKey: id) }
            }
        }
    }

    /// Posts how far the catalog load has come every `progressInterval` (through `schedule`, so a
    /// test or a headless launch decides whether time passes) until it ends.
    private func reportProgress(of progress: CatalogLoadProgress) {
        let inbox = self.inbox
        services.schedule(Self.progressInterval) { [weak self] in
            guard let self, self.catalogLoad.withLock({ $0 === progress }), !progress.isCancelled else { return }
            inbox.post(.catalogLoadProgressed(read: progress.read, total: progress.total))
            self.reportProgress(of: progress)
        }
    }

    /// How often the loading screen's count is brought up to date.
    static let progressInterval: Duration = .milliseconds(100)

    /// A download answered whole (a stub, a cached response) goes to its file all the same, so
    /// stub and live end alike; a file that cannot be written is the request's error.
    static func saved(_ exchange: Exchange, to download: DownloadDestination) -> Exchange {
        guard exchange.error == nil, var response = exchange.response, response.downloadedFile == nil else { return exchange }
        var exchange = exchange
        do throws(SystemError) {
            try AtomicFile.write(response.body, to: URL(fileURLWithPath: download.path), replacing: download.replaces)
            response.downloadedFile = DownloadedFile(path: download.path, byteCount: response.body.count)
            response.body = Data()
            exchange.result = .success(response)
        } catch {
            exchange.result = .failure(DispatchError(
                kind: .unknown, message: "The body could not be written to \(download.path): \(error)", status: response.status,
                response: response, source: "download"))
        }
        return exchange
    }

    private func send(_ ticket: RequestTicket) {
        let inbox = self.inbox
        let call = ticket.call
        guard let session = pool.withLock({ $0 })?.session(call.environmentKey, mode: call.mode),
            let endpoint = session.service.endpoint(call.endpoint.endpoint)
        else {
            let error = DispatchError.invalidRequest("\(call.endpoint) is not in the catalog for \(call.environment).")
            inbox.post(.exchangeFinished(ticket: ticket.id, exchange: EffectRunner.failed(call, error), redactor: .standard, finishedAt: Date()))
            return
        }
        let behavior: StubBehavior
        switch call.mode {
        case .live: behavior = .never
        case .stub: behavior = session.environment.fixtures.isStubbed ? session.environment.fixtures : .immediate
        }
        // Every request may turn out to be a stream (the head's type tells); its relay shows it as it arrives.
        let relay = StreamRelay(
            ticket: ticket.id, inbox: inbox, endpointStreams: endpoint.stream != nil, clock: services.clock, masking: session.redactor)
        // Checked by `.checkDownload` (absolute, confined, replacing only when asked); otherwise
        // relative to where the explorer runs, as a shell's would be, never replacing a file.
        let replaces = if case .checked(true) = call.downloadPlace { true } else { false }
        let download = call.downloadPath.map {
            DownloadDestination(path: $0.hasPrefix("/") ? $0 : FileManager.default.currentDirectoryPath + "/" + $0, replaces: replaces)
        }
        var requestOptions = RequestOptions(stubBehavior: behavior, example: call.example, onResponsePart: relay.observer, isStream: endpoint.stream != nil)
        requestOptions.download = download
        if download != nil {
            // Bytes so far with the clock's reading: the reducer computes the rate from these.
            let downloadThrottle = ProgressThrottle(interval: ProgressThrottle.reportInterval)
            let clock = services.clock
            requestOptions.progress = { received, expected in
                guard downloadThrottle.shouldReport() else { return }
                inbox.post(.downloads(.progressed(ticket: ticket.id, received: received, expected: expected, at: clock.now())))
            }
        }
        let uploadThrottle = ProgressThrottle(interval: ProgressThrottle.reportInterval)
        requestOptions.uploadProgress = { sent, total in
            // The last report always goes: it says the body is sent.
            guard sent >= total || uploadThrottle.shouldReport() else { return }
            inbox.post(.uploads(.progressed(ticket: ticket.id, sent: sent, total: total)))
        }
        // A WebSocket endpoint: the request is the conversation, in flight until it closes.
        let socketRelay = endpoint.webSocket.map { _ in WebSocketRelay(ticket: ticket.id, inbox: inbox) }
        if let settings = endpoint.webSocket, let relay = socketRelay {
            let conversation = WebSocketConversation(
                subprotocols: settings.subprotocols, pingInterval: settings.pingInterval, clock: services.clock, onEvent: relay.observe)
            requestOptions.webSocket = conversation
            webSocket.register(.init(conversation: conversation, relay: relay, session: session, endpoint: endpoint, call: call), ticket: ticket.id)
        }
        let options = requestOptions
        let work = nextWork.add(1, ordering: .relaxed).newValue
        // Registered under the locks that the task's own removals take, so a request that finishes
        // at once can never be registered after it removed itself (which would look busy forever).
        tasks.withLock { tasks in
            unfinished.withLock { unfinished in
                let task = Task {
                    var exchange = await session.send(endpoint, values: call.values, captured: call.captured, edits: call.edits, options: options)
                    // `stream: { reconnect: true }`: a closed event stream is opened again, as EventSource does;
                    // the connections' events stay one response, however the stream ends.
                    var edits = call.edits
                    var stream = ReconnectingStream(exchange)
                    var last = exchange
                    while stream.shouldReconnect(endpoint, after: last), !Task.isCancelled {
                        let (lastEventID, retry) = relay.resumePoint
                        do {
                            try await Task.sleep(for: StreamReconnection.delay(retry: retry))
                        } catch {
                            stream.exchange.notes.append("The stream was closed by you while it waited to reconnect.")
                            break
                        }
                        edits = StreamReconnection.edits(edits, endpoint: endpoint, lastEventID: lastEventID)
                        last = await session.send(endpoint, values: call.values, captured: call.captured, edits: edits, options: options)
                        stream.add(last, eventsSoFar: relay.eventCount)
                    }
                    stream.noteWhenGivenUp(endpoint, after: last)
                    exchange = stream.exchange
                    if let download { exchange = EffectRunner.saved(exchange, to: download) }
                    // Knows every secret value the session resolved, typed secrets and secret answers included.
                    let redactor = session.redactor
                    let finished = Date()
                    self.tasks.withLock { _ = $0.removeValue(forKey: ticket.id) }
                    self.webSocket.remove(ticket: ticket.id)
                    relay.flush()
                    socketRelay?.flush()
                    inbox.post(.exchangeFinished(ticket: ticket.id, exchange: exchange, redactor: redactor, finishedAt: finished))
                    // Kept for `apiexplorer history` and the next run's H list.
                    self.history.keep(exchange, call: call, redactor: redactor, date: finished)
                    _ = self.unfinished.withLock { $0.removeValue(forKey: work) }
                }
                tasks[ticket.id] = task
                unfinished[work] = task
            }
        }
    }

    static func failed(_ call: EndpointCall, _ error: DispatchError) -> Exchange {
        let request = Request(
            identifier: call.endpoint.description, method: .get, url: URL(string: "about:blank")!,
            settings: TransportSettings(environment: Environment(name: call.environment, baseURL: URL(string: "about:blank")!)),
            attempt: 0)
        return Exchange(
            request: request, result: .failure(error), trace: [], environmentName: call.environment,
            environmentType: .development, stubBehavior: .never, attempts: 0, notes: [])
    }

    /// Cancels every request and body task and waits for them, for loads, history writes and state saves.
    func cancelAll() async {
        // The catalog load stops between two files and is not waited for (it only reads).
        catalogLoad.withLock { $0 }?.cancel()
        let running = tasks.withLock { Array($0.values) } + body.running
        for task in running { task.cancel() }
        for task in running + unfinished.withLock({ Array($0.values) }) { await task.value }
        await stopWatching()
        await draftWriter.flush()
        await valueWriter.flush()
        await capturedWriter.flush()
        await panes.writer.flush()
    }

    /// Keeps a state file up to date in the background; a failed write is said on the status bar.
    private func keep<Value: Codable & Sendable & MergeableState>(
        _ value: [EnvironmentKey: Value], in file: EnvironmentStateFile<Value>, writer: StateFileKeeper<Value>, what: String
    ) {
        let inbox = self.inbox
        writer.keep(value, in: file) { error in inbox.post(.stateNotSaved("Could not keep \(what): \(error).")) }
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
