import Catalog
import TerminalKit
import Sessions

/// What a feature asked of the rest of the app (`AppRequest`), done here in the order asked: each
/// request goes to the slice it belongs to. A finished request is handed first to the slices that
/// followed its kind of exchange, then to those that show or keep answers.
extension AppReducer {
    static func perform(_ request: AppRequest, state: inout AppState) -> [AppEffect] {
        switch request {
        case .present(let dialog):
            return scope(OverlaysFeature.self, \.overlays, .present(dialog), &state)
        case .dismiss:
            return scope(OverlaysFeature.self, \.overlays, .dismiss, &state)
        case .log(let lines):
            return scope(LogFeature.self, \.log, .logged(lines), &state)
        case .copy(let text, let description):
            return [.copyToClipboard(text: text, description: description)]
        case .sendSelected:
            return scope(ExchangesFeature.self, \.exchanges, .sendSelected, &state)
        case .sendAgain(let call):
            return scope(ExchangesFeature.self, \.exchanges, .sendAgain(call), &state)
        case .replaceAnswer(let key):
            return scope(BodyFeature.self, \.body, .dropped(key), &state)
        case .openScratch(let environment, let notice):
            state.catalog = state.catalog.addingScratch(state.scratch.entries)
            state.selectEnvironment(environment)
            state.navigation.resetEndpointCursor(in: state.catalog)
            state.focus = .endpoints
            let effects = scope(ExchangesFeature.self, \.exchanges, .sendSelected, &state)
            state.notice = notice
            return effects
        case .replaceScratch(let id, let endpoint, let near, let notice):
            state.catalog.services.removeAll { $0.id == id }
            if let near, near.service == endpoint.service {
                state.selectEnvironment(near)
            } else if let service = state.catalog.service(endpoint.service), let first = service.environments.first {
                state.selectEnvironment(EnvironmentKey(service, environment: first.name))
            }
            state.selectEndpoint(endpoint)
            state.notice = notice
            return []
        case .showEndpoint(let key):
            let active = state.activeEnvironmentKey
            let environment = active?.service == key.service ? active : state.catalog.service(key.service).flatMap { service in
                service.environments.first.map { EnvironmentKey(service, environment: $0.name) }
            }
            guard let environment else { return [] }
            state.focus = .endpoints
            return navigate(.show(key, in: environment), state: &state)
        case .showEndpointIn(let key, let environment):
            return scope(NavigationFeature.self, \.navigation, .show(key, in: environment), &state)
        case .selectEndpoint(let key):
            state.selectEndpoint(key)
            return []
        case .run(let command):
            return perform(command, state: &state)
        case .showTab(let tab):
            return scope(ResponseFeature.self, \.response, .command(.showTab(tab)), &state)
        case .focus(let pane):
            state.focus = pane
            return []
        case .showResponse(let record):
            let key = record.call.endpoint
            var effects = perform(.showEndpoint(key), state: &state)
            effects += scope(BodyFeature.self, \.body, .dropped(key), &state)
            effects += scope(ExchangesFeature.self, \.exchanges, .show(record), &state)
            effects += scope(ResponseFeature.self, \.response, .resetScroll, &state)
            effects += scope(ResponseFeature.self, \.response, .command(.showTab(.body)), &state)
            state.focus = .response
            return effects + scope(BodyFeature.self, \.body, .responseArrived(record), &state)
        case .installCatalog(let catalog, let secrets):
            return catalogReloaded(catalog, secrets: secrets, changed: [], state: &state)
        case .exchangeEnded(let ended):
            return exchangeEnded(ended, state: &state)
        case .exchangeAnswered(let finished, let record):
            return exchangeAnswered(finished, record, state: &state)
        case .action(let action):
            return reduce(&state, action)
        }
    }

    /// A request ended: the slices that followed its kind of exchange while it ran end it too
    /// (a new kind of exchange adds its line here).
    static func exchangeEnded(_ ended: EndedExchange, state: inout AppState) -> [AppEffect] {
        var effects = scope(UploadsFeature.self, \.uploads, .ended(ticket: ended.ticket), &state)
        effects += scope(DownloadsFeature.self, \.downloads, .ended(ticket: ended.ticket, call: ended.call, exchange: ended.exchange), &state)
        guard let call = ended.call else { return effects }
        let cancelled = ended.exchange.error?.kind == .cancelled && ended.exchange.error?.response != nil
        effects += scope(BodyFeature.self, \.body, .streamEnded(ticket: ended.ticket, endpoint: call.endpoint, cancelled: cancelled), &state)
        effects += scope(WebSocketFeature.self, \.webSocket, .ended(ticket: ended.ticket, endpoint: call.endpoint), &state)
        return effects
    }

    /// A request was answered (or failed): the slices that show or keep answers take it, the
    /// exchanges slice last (its captures; a new tab that shows answers adds its line here).
    static func exchangeAnswered(_ finished: FinishedExchange, _ record: CallOutcome, state: inout AppState) -> [AppEffect] {
        var effects: [AppEffect] = []
        if state.selectedEndpoint?.key == record.call.endpoint { effects += scope(ResponseFeature.self, \.response, .resetScroll, &state) }
        effects += scope(HistoryFeature.self, \.history, .requestFinished(record, at: finished.finishedAt), &state)
        effects += scope(ChecksFeature.self, \.checks, .responseArrived(record), &state)
        effects += scope(BodyFeature.self, \.body, .responseArrived(record), &state)
        effects += scope(
            AuthFeature.self, \.auth, .requestFinished(record.call.environmentKey, succeeded: record.exchange.error == nil, signedOut: finished.signOut), &state)
        return effects + scope(ExchangesFeature.self, \.exchanges, .answered(record, at: finished.finishedAt, signedOut: finished.signOut != nil), &state)
    }
}
