import BodyViewer
import Catalog
import DispatcherCore
import Sessions
import TerminalKit

/// The one place state changes: an action in, the new state and the effects to perform out.
package enum AppReducer {
    /// How often the spinner moves while requests are in flight.
    package static let spinnerInterval: Duration = .milliseconds(80)

    /// Applies `action` to `state` and returns the effects the runtime must perform.
    package static func reduce(_ state: inout AppState, _ action: AppAction) -> [AppEffect] {
        var effects: [AppEffect]
        switch action {
        // Features (Features/): each scoped to its slice in one line.
        case .navigation(let action): effects = navigate(action, state: &state)
        case .finder(let action): effects = scope(FinderFeature.self, \.finder, action, &state)
        case .history(let action): effects = scope(HistoryFeature.self, \.history, action, &state)
        case .auth(let action): effects = scope(AuthFeature.self, \.auth, action, &state)
        case .webSocket(let action): effects = scope(WebSocketFeature.self, \.webSocket, action, &state)
        case .body(let action): effects = scope(BodyFeature.self, \.body, action, &state)
        case .scratch(let action): effects = scope(ScratchFeature.self, \.scratch, action, &state)
        case .drift(let action): effects = scope(DriftFeature.self, \.drift, action, &state)
        case .log(let action): effects = scope(LogFeature.self, \.log, action, &state)
        case .uploads(let action): effects = scope(UploadsFeature.self, \.uploads, action, &state)
        case .downloads(let action): effects = scope(DownloadsFeature.self, \.downloads, action, &state)
        case .overlays(let action): effects = scope(OverlaysFeature.self, \.overlays, action, &state)
        case .messages(let action): effects = scope(MessagesFeature.self, \.messages, action, &state)
        case .tests(let action): effects = scope(TestsFeature.self, \.tests, action, &state)
        case .panes(let action): effects = scope(PanesFeature.self, \.panes, action, &state)
        case .launched:
            // The catalogs first: the first frame waits for them (at most `loadingScreenGrace`). The
            // history waits for the catalogs: the first frame does not show it, so it must not
            // compete with them. The time zone (a file read) is there long before the history, the
            // first thing to show times.
            state.pendingLoads = [.loadTimeZone, .history(.load), .drift(.load), .loadDrafts, .loadValues, .loadCaptured, .panes(.load)]
            effects = (state.isLoadingCatalog ? [.loadCatalog] : [.history(.load)]) + [.loadTimeZone, .panes(.load), .drift(.load), .loadDrafts, .loadValues, .loadCaptured]
            if state.isLoadingCatalog { effects.append(.scheduleLoadingScreen(after: AppState.loadingScreenGrace)) }
            effects += reportConfigProblems(&state)
        case .catalogLoaded(let catalog, let secrets):
            state.secrets = secrets
            effects = catalogLoaded(catalog, state: &state)
        case .catalogPreviewed(let preview):
            effects = []
            catalogPreviewed(preview, state: &state)
        case .catalogLoadProgressed(let read, let total):
            if state.isLoadingCatalog { state.catalogLoadProgress = CatalogLoadCount(read: read, total: total) }
            effects = []
        case .catalogReloaded(let catalog, let secrets, let changed):
            effects = catalogReloaded(catalog, secrets: secrets, changed: changed, state: &state)
        case .downloadChecked(let call, let path, let exists, let problem):
            effects = downloadChecked(call, path: path, exists: exists, problem: problem, state: &state)
        case .catalogTrusted(let catalog, let secrets, let call):
            state.pendingLoads = state.pendingLoads.filter { if case .trustCatalog = $0 { false } else { true } }
            effects = catalogReloaded(catalog, secrets: secrets, changed: [], state: &state)
            if catalog.service(call.endpoint.service)?.isTrusted == true {
                state.notice = "\(call.endpoint.service) is trusted."
                effects += confirmThenDispatch(call, state: &state)
            } else {
                state.notice = "Not sent: \(call.endpoint.service) changed while you were asked; send it again to see what it declares now."
            }
        case .draftsLoaded(let kept):
            state.pendingLoads.remove(.loadDrafts)
            var restored = 0
            for (environment, endpoints) in kept {
                for (endpoint, edits) in endpoints where !edits.isEmpty {
                    let key = DraftKey(endpoint: EndpointKey(service: environment.service, endpoint: endpoint), in: environment)
                    // This run's edits, if any were made already, win.
                    if state.drafts[key] == nil {
                        state.drafts[key] = edits
                        // Other catalogs' drafts are kept (and saved back) but never shown here (the
                        // catalogs may still be loading: then each counts).
                        if (state.catalog.service(environment.service)?.catalogID ?? environment.catalog) == environment.catalog { restored += 1 }
                    }
                }
            }
            if restored > 0 {
                state.notice = "Restored \(restored) draft\(restored == 1 ? "" : "s") from the last run (✎ in the list; Edit tab, R reverts)."
            }
            effects = []
        case .capturedLoaded(let kept):
            state.pendingLoads.remove(.loadCaptured)
            // Values captured in this run are newer.
            for (environment, values) in kept {
                var merged = values
                if let current = state.captured[environment] {
                    merged.stub.merge(current.stub) { _, current in current }
                    merged.live.merge(current.live) { _, current in current }
                }
                state.captured[environment] = merged
            }
            effects = []
        case .valuesLoaded(let kept):
            state.pendingLoads.remove(.loadValues)
            state.runtimeValues.merge(kept) { current, _ in current }
            effects = []
        case .bodyEdited(let key, let text, let message):
            effects = []
            state.pendingLoads = state.pendingLoads.filter { if case .editBodyInEditor(key, _, _) = $0 { false } else { true } }
            if let message { state.notice = message }
            if let text, let endpoint = state.catalog.endpoint(key.endpoint)?.endpoint {
                let current = state.drafts[key] ?? EndpointEdits()
                let request = EditedRequest(endpoint: endpoint, edits: current, inherited: [])
                effects = setBody(text, key: key, request: request, state: &state)
            }
        case .stateNotSaved(let message):
            state.notice = message
            // A trust that could not be kept ends there (the request waiting for it is not sent).
            state.pendingLoads = state.pendingLoads.filter { if case .trustCatalog = $0 { false } else { true } }
            effects = []
        case .draftSavedAsEndpoint(let key, let id, let error):
            effects = draftSavedAsEndpoint(key: key, id: id, error: error, state: &state)
        case .draftWritten(let key, let error):
            effects = draftWritten(key: key, error: error, state: &state)
        case .catalogFileRestored(let key, let error):
            effects = catalogFileRestored(key: key, error: error, state: &state)
        case .terminal(.key(let key)) where state.isLoadingCatalog && state.pendingEvents.isEmpty
            && Keymap.command(for: key, in: state.keyContext, bindings: state.config.bindings) == .quit:
            // Quitting does not wait for the catalogs (keys typed before it would: they may be text).
            effects = quit(&state)
        case .terminal(let event) where state.isLoadingCatalog && event != .key(.ctrl("c")):
            if case .resize(let size) = event { state.size = size } else { state.pendingEvents.append(event) }
            effects = []
        case .terminal(.key(let event)):
            state.notice = nil
            effects = handleKey(event, state: &state)
        case .terminal(.mouse(let event)):
            effects = handleMouse(event, state: &state)
        case .terminal(.resize(let size)):
            state.size = size
            effects = []
        case .exchangeFinished(let ticketID, var exchange, let redactor, let finishedAt):
            effects = scope(UploadsFeature.self, \.uploads, .ended(ticket: ticketID), &state)
            effects += scope(DownloadsFeature.self, \.downloads, .ended(ticket: ticketID), &state)
            if let ticket = state.inFlight[ticketID] {
                if ticket.call.downloadPath != nil { state.notice = downloadEnded(exchange) }
                effects += streamEnded(ticket: ticketID, key: ticket.endpoint, exchange: &exchange, state: &state)
                effects += scope(WebSocketFeature.self, \.webSocket, .ended(ticket: ticketID, endpoint: ticket.endpoint), &state)
            }
            if let ticket = state.inFlight.removeValue(forKey: ticketID) {
                let record = CallOutcome(call: ticket.call, exchange: exchange, redactor: redactor)
                state.responses[ticket.endpoint] = record
                state.receivedAt[ticket.endpoint] = finishedAt
                if state.selectedEndpoint?.key == ticket.endpoint { state.tabScroll = [:] }
                if exchange.error?.kind == .noFixture, let endpoint = state.catalog.endpoint(ticket.endpoint)?.endpoint {
                    // Said where the person looks, with the way out; not kept in the history (nothing answered).
                    state.notice = "No fixture for \(ticket.endpoint): " + endpoint.noFixtureAdvice(live: "s switches to live") + "."
                } else {
                    effects += scope(HistoryFeature.self, \.history, .requestFinished(record, at: finishedAt), &state)
                }
                effects += scope(TestsFeature.self, \.tests, .responseArrived(record), &state)
                effects += scope(BodyFeature.self, \.body, .responseArrived(record), &state)
                let signedOut = AuthFeature.signOutMessage(for: record)
                effects += scope(AuthFeature.self, \.auth, .requestFinished(ticket.call.environmentKey, succeeded: exchange.error == nil, signedOut: signedOut), &state)
                // Values captured from a session that signed out (ids, tokens) belong to it.
                if signedOut != nil { state.captured[ticket.call.environmentKey]?[ticket.call.mode] = [:] }
                let taken = state.capture(from: record, at: finishedAt)
                if !taken.isEmpty {
                    state.notice = "Captured \(taken.joined(separator: ", ")) from \(ticket.endpoint) (Vars tab shows them)."
                    effects.append(.saveCaptured(state.captured))
                }
            }
        case .activityChanged(let count):
            state.activity = max(0, count)
            effects = []
        case .loadingScreenDue:
            state.loadingScreenDue = true
            effects = []
        case .spinnerTick(let generation):
            guard generation == state.spinnerGeneration else { return [] }
            state.spinnerScheduled = false
            if state.needsSpinner { state.spinnerFrame += 1 }
            effects = []
        case .terminalClosed:
            effects = quit(&state)
        case .copied(let description):
            state.notice = "Copied \(description) to the clipboard."
            effects = []
        case .timeZoneLoaded(let zone):
            state.timeZone = zone
            state.pendingLoads.remove(.loadTimeZone)
            effects = []
        }
        if state.needsSpinner, !state.spinnerScheduled, !state.isQuitting {
            state.spinnerScheduled = true
            state.spinnerGeneration += 1
            effects.append(.scheduleSpinnerTick(generation: state.spinnerGeneration, after: spinnerInterval))
        }
        state.navigation.refresh(in: state.catalog, history: state.history.items)
        return effects
    }

    /// The catalogs arrived: open where the command line asked, then handle what was typed meanwhile.
    static func catalogLoaded(_ catalog: CatalogSet, state: inout AppState) -> [AppEffect] {
        let firstLoad = state.isLoadingCatalog
        state.catalog = catalog
        state.showsCatalogPreview = false
        state.navigation.resetEnvironmentCursor(in: catalog)
        if let launch = state.launch {
            state.launch = nil
            guard launch.apply(to: &state) else {
                state.failure = "No environment named '\(launch.environment ?? "")' in \(catalog.source). Run `apiexplorer list` to see them."
                return quit(&state)
            }
        }
        let pending = state.pendingEvents
        state.pendingEvents = []
        let watch: [AppEffect] = firstLoad && catalog.source.directory != nil ? [.watchCatalogs] : []
        return (firstLoad ? [.history(.load)] : []) + watch + pending.flatMap { reduce(&state, .terminal($0)) }
    }

    /// The launch index arrived while the catalogs are read: drawn as they will be, with the launch's
    /// options applied (again when the catalogs arrive: an unknown `--env` is reported then). Keys
    /// keep waiting for the full catalogs. Always drawn: the full load waits for this frame.
    static func catalogPreviewed(_ preview: CatalogSet, state: inout AppState) {
        guard let launch = state.launch, !state.showsCatalogPreview else { return }
        state.catalog = preview
        state.navigation.resetEnvironmentCursor(in: preview)
        _ = launch.apply(to: &state)
        state.showsCatalogPreview = true
    }

    /// The config file's problems go to the message log in full; the status bar says the first.
    static func reportConfigProblems(_ state: inout AppState) -> [AppEffect] {
        let problems = state.config.diagnostics.map(\.description)
        guard let first = problems.first else { return [] }
        let effects = scope(MessagesFeature.self, \.messages, .recorded(problems, isError: true), &state)
        state.notice = problems.count == 1 ? first : "\(first) (and \(problems.count - 1) more: M lists them)"
        return effects
    }

    /// A stream's request ended; what arrived of a stream the person closed is the response, not a
    /// "cancelled" error.
    static func streamEnded(ticket: Int, key: EndpointKey, exchange: inout Exchange, state: inout AppState) -> [AppEffect] {
        let partial = exchange.error?.kind == .cancelled ? exchange.error?.response : nil
        let effects = scope(BodyFeature.self, \.body, .streamEnded(ticket: ticket, endpoint: key, cancelled: partial != nil), &state)
        if let partial, let stream = state.body.streams[key], stream.ticket == ticket, stream.closedByUser {
            exchange.result = .success(partial)
            exchange.notes.append(stream.closedNote)
        }
        return effects
    }

    static func quit(_ state: inout AppState) -> [AppEffect] {
        state.isQuitting = true
        let cancels = state.inFlight.keys.sorted().map { AppEffect.cancel(ticket: $0) }
        return cancels + [.quit]
    }
}

extension AppReducer {
    /// The mode the selected endpoint is sent in: a scratch request has no fixtures and always goes live.
    static func sendMode(_ state: AppState) -> RequestMode {
        state.activeService.map { state.scratch.holds($0.id) } == true ? .live : state.mode
    }
}

extension AppState {
    /// Whether anything is in flight, so the spinner should turn.
    package var needsSpinner: Bool { activity > 0 || visibleInFlightCount > 0 }

    /// Requests in flight that show activity (an endpoint with `showsActivity: false` does not).
    var visibleInFlightCount: Int { inFlight.values.count(where: \.showsActivity) }
}
