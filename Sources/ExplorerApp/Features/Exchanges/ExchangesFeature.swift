import Catalog
import DispatcherCore
import FoundationEssentials
import Sessions
import TerminalKit

/// The requests the explorer sends, whatever their protocol: the way a request goes out (its
/// questions, the trust and production confirmations, a download's file checked, a ticket and the
/// send), what is in flight, each endpoint's last answer, the values captured from answers, and
/// stub or live per environment. A finished exchange is handed to the slices that follow its kind
/// (uploads, downloads, streams, conversations: `AppRequest.exchangeEnded`) and to those that show
/// or keep answers (`AppRequest.exchangeAnswered`).
///
/// Its reducer spans the files `ExchangesFeature*.swift`, so its fields are `package internal(set)`:
/// only they set them, by convention.
package struct ExchangesState: Sendable {
    /// The last result per endpoint.
    package internal(set) var responses: [EndpointKey: CallOutcome] = [:]
    /// When each endpoint's latest response arrived (for `{{response.…}}` references).
    package internal(set) var receivedAt: [EndpointKey: Date] = [:]
    /// Requests sent and not yet answered, by ticket id.
    package internal(set) var inFlight: [Int: RequestTicket] = [:]
    /// The next request ticket id.
    package internal(set) var nextTicket = 1
    /// The example each endpoint sends; absent means the default.
    package internal(set) var chosenExample: [EndpointKey: String] = [:]
    /// Values captured from responses per service and environment, stub and live apart (kept in
    /// the state folder).
    package internal(set) var captured: [EnvironmentKey: CapturedValues] = [:]
    /// Stub or live per environment, as `s` switched it; an environment not switched starts as its
    /// `fixtures:` say (`never`: live), as `call` does, or live for all with `--live`.
    package internal(set) var chosenModes: [EnvironmentKey: RequestMode] = [:]
    /// `--live`: environments not switched with `s` start live.
    package internal(set) var startsLive = false
    /// Requests on the wire, as the activity plugin counts them.
    package internal(set) var activity = 0
    /// The spinner that turns while anything is in flight.
    package internal(set) var spinner = SpinnerState()

    /// How often the spinner moves while requests are in flight.
    package static let spinnerInterval: Duration = .milliseconds(80)

    /// Requests in flight that show activity (an endpoint with `showsActivity: false` does not).
    package var visibleInFlightCount: Int { inFlight.values.count(where: \.showsActivity) }

    /// Whether anything is in flight, so the spinner should turn.
    package var needsSpinner: Bool { activity > 0 || visibleInFlightCount > 0 }

    /// Stub or live in an environment: as `s` switched it there, else live with `--live`, else as
    /// the environment's `fixtures:` say (`never`: live), as `call` decides.
    func mode(in key: EnvironmentKey?, _ environment: Environment?) -> RequestMode {
        guard let key, let environment else { return startsLive ? .live : .stub }
        if let chosen = chosenModes[key] { return chosen }
        return startsLive ? .live : EndpointCaller.defaultMode(of: environment)
    }
}

/// The spinner's frame, and its ticks: each carries a generation, and a tick of an older one is stale.
package struct SpinnerState: Sendable, Hashable {
    /// The frame shown.
    package internal(set) var frame = 0
    /// The generation of the tick scheduled last.
    package internal(set) var generation = 0
    /// Whether a tick is scheduled.
    package internal(set) var isScheduled = false
}

/// One request the user sent: a call and the id of this sending.
package struct RequestTicket: Sendable, Hashable {
    /// Unique per app run.
    package var id: Int
    /// What is sent, where and how.
    package var call: EndpointCall
    /// Whether it turns the spinner (its endpoint's `showsActivity`, read once when it is sent).
    package var showsActivity = true

    /// A ticket for one request.
    package init(id: Int, call: EndpointCall) {
        self.id = id
        self.call = call
    }

    /// The endpoint.
    package var endpoint: EndpointKey { call.endpoint }
}

/// A request that finished (or was cancelled), as the runtime reports it.
package struct FinishedExchange: Sendable {
    /// The request's ticket id.
    package var ticket: Int
    /// What was sent and what came back.
    package var exchange: Exchange
    /// Masks every secret value the session resolved.
    package var redactor: Redactor
    /// When it finished.
    package var finishedAt: Date
    /// Whether it signed its session out, and why.
    package var signOut: SignOut?

    /// Makes a report.
    package init(ticket: Int, exchange: Exchange, redactor: Redactor, finishedAt: Date, signOut: SignOut? = nil) {
        self.ticket = ticket
        self.exchange = exchange
        self.redactor = redactor
        self.finishedAt = finishedAt
        self.signOut = signOut
    }
}

/// A request that ended, for the slices that followed it while it ran (its kinds of exchange).
struct EndedExchange {
    /// The request's ticket id.
    var ticket: Int
    /// The request, when it was still in flight (a stale report has none).
    var call: EndpointCall?
    /// What came back, as the runtime reported it.
    var exchange: Exchange
}

/// What happens to the requests the explorer sends.
package enum ExchangesAction: Sendable {
    // Keys and what the rest of the app asks.
    /// A key of sending (`cancelOrClose` reaches the slice as `.cancel`, once the root knows what Esc closes).
    case command(ExchangesCommand)
    /// Send the selected endpoint with its chosen example.
    case sendSelected
    /// Send a request again as it was sent (the history, the finder).
    case sendAgain(EndpointCall)
    /// Cancel a request in flight (Esc); `closingStream` when it is a stream the person closes.
    case cancel(RequestTicket, closingStream: Bool)
    /// Cancel everything in flight (the explorer quits).
    case cancelAll
    /// A key or an answer in one of its windows.
    case dialog(ExchangesDialog, WindowInput)
    /// Show a response (a flow step's) as its endpoint's last one.
    case show(CallOutcome)
    /// `--live`: environments not switched start live.
    case startLive

    // Results of its effects.
    /// Where a download's file is (`.checkDownload`): absolute, whether a file is there, or why it may not be written.
    case downloadChecked(EndpointCall, path: String, exists: Bool, problem: String?)
    /// The person trusted a catalog: it was read again with its new trust; `call` waits to be sent.
    case trusted(CatalogSet, SecretStore, call: EndpointCall)
    /// After the catalogs with the new trust are installed: `call` goes on, if its catalog is trusted now.
    case sendTrusted(EndpointCall)
    /// The trust could not be kept: why (the request waiting for it is not sent).
    case trustFailed(String)
    /// A request finished (or was cancelled).
    case finished(FinishedExchange)
    /// The last step of a finished request, once the other slices took it: the values it captures,
    /// or why nothing answered (no fixture); `signedOut` when its session signed out.
    case answered(CallOutcome, at: Date, signedOut: Bool)
    /// Values captured from responses in earlier runs.
    case capturedLoaded([EnvironmentKey: CapturedValues])
    /// The activity plugin's count of requests on the wire changed.
    case activityChanged(Int)
    /// Schedule the spinner's next tick (the root asks once an action left something in flight).
    case armSpinner
    /// A spinner tick of the given generation.
    case spinnerTick(generation: Int)
}

/// Work sending asks of the runtime.
package enum ExchangesEffect: Sendable, Hashable {
    /// Send a request: the runtime picks its kinds of exchange (a body read as it arrives, a
    /// download, a WebSocket conversation …) and reports `.finished`.
    case send(RequestTicket)
    /// Cancel a request in flight.
    case cancel(ticket: Int)
    /// Find where a download's file is (the downloads folder for the catalog's `download:`,
    /// confined to it) and whether one exists, reporting `.downloadChecked`.
    case checkDownload(EndpointCall)
    /// Remember that the catalog files with these contents are trusted, read the catalogs again and
    /// report `.trusted` with the call to send.
    case trustCatalog(contentHashes: [String], then: EndpointCall)
    /// Read the values captured in earlier runs, reporting `.capturedLoaded`.
    case loadCaptured
    /// Keep these captured values in the state folder (readable by the owner only).
    case saveCaptured([EnvironmentKey: CapturedValues])
    /// Send a spinner tick after the delay.
    case scheduleSpinnerTick(generation: Int, after: Duration)
}

enum ExchangesFeature: AppFeature {
    /// What sending reads of the rest of the app.
    struct Context {
        /// The catalogs.
        var catalog: CatalogSet
        /// The active environment, and its key.
        var environment: Environment?
        var environmentKey: EnvironmentKey?
        /// The endpoint under the cursor.
        var endpoint: CatalogEndpoint?
        /// Its edits in the active environment (none: empty).
        var edits: EndpointEdits
        /// The run-time values of the active environment.
        var values: [String: String]
        /// Whether the active service is a scratch request's (no fixtures: always live).
        var isScratch: Bool
        /// Streams shown by the Body tab, by endpoint (a stream the person closed ends as a response).
        var streams: [EndpointKey: ResponseStream]
        /// Whether secrets are shown in clear (copies are masked otherwise).
        var revealsSecrets: Bool
        /// Whether the explorer is quitting (no spinner then).
        var isQuitting: Bool

        /// Stub or live in the active environment, as `s` switched it, `--live` or its `fixtures:` say.
        func mode(_ state: ExchangesState) -> RequestMode { state.mode(in: environmentKey, environment) }

        /// The mode the selected endpoint is sent in: a scratch request has no fixtures and always goes live.
        func sendMode(_ state: ExchangesState) -> RequestMode { isScratch ? .live : mode(state) }
    }

    static func context(of app: AppState) -> Context {
        let environment = app.activeEnvironment
        let service = app.activeService
        let environmentKey = service.flatMap { service in environment.map { EnvironmentKey(service, environment: $0.name) } }
        return Context(
            catalog: app.catalog, environment: environment, environmentKey: environmentKey, endpoint: app.selectedEndpoint,
            edits: app.selectedEdits, values: app.activeValues, isScratch: service.map { app.scratch.holds($0.id) } ?? false,
            streams: app.body.streams, revealsSecrets: app.revealsSecrets, isQuitting: app.isQuitting)
    }

    static func reduce(_ state: inout ExchangesState, _ action: ExchangesAction, _ shell: inout AppShell, _ context: Context) -> [AppEffect] {
        switch action {
        case .command(let command):
            return perform(command, &state, &shell, context)
        case .sendSelected:
            return send(example: context.endpoint.flatMap { state.chosenExample[$0.key] }, &state, &shell, context)
        case .sendAgain(let call):
            return sendAgain(call, &state, &shell, context)
        case .cancel(let ticket, let closingStream):
            shell.notice = closingStream ? "Closing the stream of \(ticket.endpoint)…" : "Cancelling \(ticket.endpoint)…"
            return [.exchanges(.cancel(ticket: ticket.id))]
        case .cancelAll:
            return state.inFlight.keys.sorted().map { .exchanges(.cancel(ticket: $0)) }
        case .dialog(let dialog, let input):
            return answer(dialog, input, &state, &shell, context)
        case .show(let record):
            state.responses[record.call.endpoint] = record
        case .startLive:
            state.startsLive = true
        case .downloadChecked(let call, let path, let exists, let problem):
            return downloadChecked(call, path: path, exists: exists, problem: problem, &state, &shell, context)
        case .trusted(let catalog, let secrets, let call):
            shell.pendingLoads = shell.pendingLoads.filter { if case .exchanges(.trustCatalog) = $0 { false } else { true } }
            shell.requests += [.installCatalog(catalog, secrets), .action(.exchanges(.sendTrusted(call)))]
        case .sendTrusted(let call):
            guard context.catalog.service(call.endpoint.service)?.isTrusted == true else {
                shell.notice = "Not sent: \(call.endpoint.service) changed while you were asked; send it again to see what it declares now."
                return []
            }
            shell.notice = "\(call.endpoint.service) is trusted."
            return confirmThenDispatch(call, &state, &shell, context)
        case .trustFailed(let message):
            shell.notice = message
            shell.pendingLoads = shell.pendingLoads.filter { if case .exchanges(.trustCatalog) = $0 { false } else { true } }
        case .finished(let finished):
            return finish(finished, &state, &shell, context)
        case .answered(let record, let date, let signedOut):
            return answered(record, at: date, signedOut: signedOut, &state, &shell, context)
        case .capturedLoaded(let kept):
            shell.pendingLoads.remove(.exchanges(.loadCaptured))
            // Values captured in this run are newer.
            for (environment, values) in kept {
                var merged = values
                if let current = state.captured[environment] {
                    merged.stub.merge(current.stub) { _, current in current }
                    merged.live.merge(current.live) { _, current in current }
                }
                state.captured[environment] = merged
            }
        case .activityChanged(let count):
            state.activity = max(0, count)
        case .armSpinner:
            guard state.needsSpinner, !state.spinner.isScheduled, !context.isQuitting else { return [] }
            state.spinner.isScheduled = true
            state.spinner.generation += 1
            return [.exchanges(.scheduleSpinnerTick(generation: state.spinner.generation, after: ExchangesState.spinnerInterval))]
        case .spinnerTick(let generation):
            guard generation == state.spinner.generation else { return [] }
            state.spinner.isScheduled = false
            if state.needsSpinner { state.spinner.frame += 1 }
        }
        return []
    }

    /// A key of sending.
    static func perform(_ command: ExchangesCommand, _ state: inout ExchangesState, _ shell: inout AppShell, _ context: Context) -> [AppEffect] {
        switch command {
        case .send:
            return send(example: context.endpoint.flatMap { state.chosenExample[$0.key] }, &state, &shell, context)
        case .resend:
            guard let last = context.endpoint.flatMap({ state.responses[$0.key] })?.call else {
                shell.notice = "Nothing to resend yet: press \(shell.keys(.exchanges(.send))) to send."
                return []
            }
            return dispatch(last, &state, &shell, context)
        case .cancelOrClose:
            // The root decides what Esc closes and sends `.cancel` when it is a request.
            return []
        case .download:
            guard let endpoint = context.endpoint else {
                shell.notice = "No endpoint to download."
                return []
            }
            shell.present(.exchanges(.download(DownloadDialog(
                endpoint: endpoint.key, example: state.chosenExample[endpoint.key],
                input: InputState(text: endpoint.download ?? suggestedFileName(for: endpoint))))))
        case .toggleMode:
            let mode = context.mode(state).toggled
            if let key = context.environmentKey { state.chosenModes[key] = mode } else { state.startsLive = mode == .live }
            shell.notice = mode == .live
                ? "LIVE: requests go to \(context.environment?.baseURL.absoluteString ?? "the network")."
                : "STUB: requests are answered by the catalog's fixtures."
        case .pickExample:
            guard let endpoint = context.endpoint else { return [] }
            let names = endpoint.exampleNames
            let current = state.chosenExample[endpoint.key].flatMap { names.firstIndex(of: $0) } ?? 0
            shell.present(.exchanges(.examplePicker(endpoint: endpoint.key, list: ListState(selected: current))))
        case .copyCurl:
            guard let record = context.endpoint.flatMap({ state.responses[$0.key] }) else {
                shell.notice = "Send the request first; then c copies it as curl."
                return []
            }
            let redactor: Redactor? = context.revealsSecrets ? nil : record.redactor
            let curl = record.exchange.request.curlCommand(redactor: redactor)
            shell.requests.append(.copy(text: curl, description: context.revealsSecrets ? "the curl command" : "the curl command (secrets masked; v reveals)"))
        case .copyAs:
            guard context.endpoint.flatMap({ state.responses[$0.key] }) != nil else {
                shell.notice = "Send the request first; then C copies it as code."
                return []
            }
            shell.present(.exchanges(.copyAs(list: ListState(selected: 0))))
        }
        return []
    }

    /// The path's last segment when it names a file (`/files/report.pdf` → `report.pdf`), else the
    /// endpoint's id.
    static func suggestedFileName(for endpoint: CatalogEndpoint) -> String {
        let last = endpoint.path.split(separator: "/").last.map(String.init) ?? ""
        let isFileName = last.contains(".") && !last.contains("{{") && !last.hasPrefix(".")
        return isFileName ? last : endpoint.id + ".download"
    }
}
