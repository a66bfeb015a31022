import Catalog
import TerminalKit

/// The one place state changes: an action in, the new state and the effects to perform out. It
/// composes: each feature's actions go to its slice in one line, keys and clicks go to the slice
/// they are for (`AppReducer+Keys`, `+Mouse`), what a feature asks of the others is done in
/// `+Requests`, and the catalogs, which belong to the whole app, are installed in `+Catalog`.
package enum AppReducer {
    /// Applies `action` to `state` and returns the effects the runtime must perform.
    package static func reduce(_ state: inout AppState, _ action: AppAction) -> [AppEffect] {
        var effects: [AppEffect]
        switch action {
        // Features (Features/): each scoped to its slice in one line.
        case .launch(let action): effects = scope(LaunchFeature.self, \.launch, action, &state)
        case .navigation(let action): effects = navigate(action, state: &state)
        case .exchanges(let action): effects = scope(ExchangesFeature.self, \.exchanges, action, &state)
        case .editing(let action): effects = scope(EditingFeature.self, \.editing, action, &state)
        case .response(let action): effects = scope(ResponseFeature.self, \.response, action, &state)
        case .finder(let action): effects = scope(FinderFeature.self, \.finder, action, &state)
        case .history(let action): effects = scope(HistoryFeature.self, \.history, action, &state)
        case .auth(let action): effects = scope(AuthFeature.self, \.auth, action, &state)
        case .webSocket(let action): effects = scope(WebSocketFeature.self, \.webSocket, action, &state)
        case .body(let action): effects = scope(BodyFeature.self, \.body, action, &state)
        case .scratch(let action): effects = scope(ScratchFeature.self, \.scratch, action, &state)
        case .drift(let action): effects = scope(DriftFeature.self, \.drift, action, &state)
        case .rpc(let action): effects = scope(RPCFeature.self, \.rpc, action, &state)
        case .log(let action): effects = scope(LogFeature.self, \.log, action, &state)
        case .uploads(let action): effects = scope(UploadsFeature.self, \.uploads, action, &state)
        case .downloads(let action): effects = scope(DownloadsFeature.self, \.downloads, action, &state)
        case .overlays(let action): effects = scope(OverlaysFeature.self, \.overlays, action, &state)
        case .messages(let action): effects = scope(MessagesFeature.self, \.messages, action, &state)
        case .checks(let action): effects = scope(ChecksFeature.self, \.checks, action, &state)
        case .panes(let action): effects = scope(PanesFeature.self, \.panes, action, &state)
        // The app's own.
        case .launched:
            // The catalogs first: the first frame waits for them (at most `loadingScreenGrace`). The
            // history waits for the catalogs: the first frame does not show it, so it must not
            // compete with them. The time zone (a file read) is there long before the history, the
            // first thing to show times.
            let loads: [AppEffect] = [.panes(.load), .drift(.load), .editing(.loadDrafts), .editing(.loadValues), .exchanges(.loadCaptured)]
            state.pendingLoads = Set([.loadTimeZone, .history(.load)] + loads)
            effects = (state.isLoadingCatalog ? [.loadCatalog] : [.history(.load)]) + [.loadTimeZone] + loads
            if state.isLoadingCatalog { effects.append(.scheduleLoadingScreen(after: AppState.loadingScreenGrace)) }
            effects += reportConfigProblems(&state)
        case .catalogLoaded(let catalog, let secrets):
            state.secrets = secrets
            effects = catalogLoaded(catalog, state: &state)
        case .catalogPreviewed(let preview):
            effects = catalogPreviewed(preview, state: &state)
        case .catalogReloaded(let catalog, let secrets, let changed):
            effects = catalogReloaded(catalog, secrets: secrets, changed: changed, state: &state)
        case .stateNotSaved(let message):
            state.notice = message
            effects = []
        case .terminal(.key(let key)) where state.isLoadingCatalog && state.pendingEvents.isEmpty
            && Keymap.command(for: key, in: state.keyContext, bindings: state.config.bindings) == .quit:
            // Quitting does not wait for the catalogs (keys typed before it would: they may be text).
            effects = quit(&state)
        case .terminal(let event) where state.isLoadingCatalog && event != .key(.ctrl("c")):
            if case .resize(let size) = event {
                state.size = size
                effects = []
            } else {
                effects = scope(LaunchFeature.self, \.launch, .hold(event), &state)
            }
        case .terminal(.key(let event)):
            state.notice = nil
            effects = handleKey(event, state: &state)
        case .terminal(.mouse(let event)):
            effects = handleMouse(event, state: &state)
        case .terminal(.resize(let size)):
            state.size = size
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
        // The spinner turns while anything is in flight, whichever action sent it.
        if state.exchanges.needsSpinner, !state.exchanges.spinner.isScheduled, !state.isQuitting {
            effects += scope(ExchangesFeature.self, \.exchanges, .armSpinner, &state)
        }
        if let service = RPCFeature.needed(state) { effects += scope(RPCFeature.self, \.rpc, .shown(service), &state) }
        state.navigation.refresh(in: state.catalog, history: state.history.items)
        return effects
    }

    /// The config file's problems go to the message log in full; the status bar says the first.
    static func reportConfigProblems(_ state: inout AppState) -> [AppEffect] {
        let problems = state.config.diagnostics.map(\.description)
        guard let first = problems.first else { return [] }
        let effects = scope(MessagesFeature.self, \.messages, .recorded(problems, isError: true), &state)
        // The log has each problem once: the bar's summary of them is not logged again.
        state.summarize(problems.count == 1 ? first : "\(first) (and \(problems.count - 1) more: \(state.keys(.messages(.showMessages))) lists them)")
        return effects
    }

    /// Runs the navigation slice; a change of the active service starts its tabs scrolled to the top.
    static func navigate(_ action: NavigationAction, state: inout AppState) -> [AppEffect] {
        let before = state.activeService?.id
        var effects = scope(NavigationFeature.self, \.navigation, action, &state)
        if state.activeService?.id != before { effects += scope(ResponseFeature.self, \.response, .resetScroll, &state) }
        return effects
    }

    /// The explorer quits: what is in flight is cancelled.
    static func quit(_ state: inout AppState) -> [AppEffect] {
        state.isQuitting = true
        return scope(ExchangesFeature.self, \.exchanges, .cancelAll, &state) + [.quit]
    }
}
