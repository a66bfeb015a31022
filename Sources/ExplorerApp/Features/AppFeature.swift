import Catalog
import Sessions
import TerminalKit

/// A slice of the app: its own state, its own actions and a pure reducer over them, in its own
/// folder under `Features/`. The root (`AppState`, `AppAction`, `AppEffect`, `AppReducer`) holds
/// one field, one action case and one effect case per feature, and scopes to it in one line.
///
/// A feature changes only its own state and the `AppShell`; what it reads of the rest of the app
/// comes in as its `Context`, a small value taken before it runs.
protocol AppFeature {
    associatedtype State
    associatedtype Action
    /// What the feature reads of the rest of the app (read-only).
    associatedtype Context = Void

    /// The context, taken from the whole state before the feature runs.
    static func context(of app: AppState) -> Context

    /// Applies `action` to the feature's state and returns the effects the runtime must perform.
    static func reduce(_ state: inout State, _ action: Action, _ shell: inout AppShell, _ context: Context) -> [AppEffect]
}

extension AppFeature where Context == Void {
    static func context(of app: AppState) {}
}

/// The context of a feature that follows requests: which are in flight, by ticket (a report for
/// one that finished already is stale).
struct RequestsInFlight {
    var tickets: [Int: RequestTicket]
}

extension AppFeature where Context == RequestsInFlight {
    static func context(of app: AppState) -> RequestsInFlight { RequestsInFlight(tickets: app.inFlight) }
}

/// What every feature may change of the app around it besides its own state: the status bar's
/// message, the window over the panes, and the loads the app waits for; and what it asks of the
/// rest of the app, done by the root in order once the feature has run.
struct AppShell {
    /// A short message for the status bar.
    var notice: String?
    /// The window over the panes, if any.
    var overlay: Dialog?
    /// Effects whose answer has not arrived yet (see `AppState.pendingLoads`).
    var pendingLoads: Set<AppEffect>
    /// What the feature asks of the rest of the app.
    var requests: [AppRequest] = []
}

/// What a feature may ask of the rest of the app: the few things it needs done in slices not its own.
enum AppRequest {
    /// Lines for the network log.
    case log([String])
    /// Send a request again as it was sent (from the history), showing its endpoint.
    case sendAgain(EndpointCall)
    /// A new kind of answer (a WebSocket conversation) replaces the endpoint's body and stream: their
    /// background work stops and they are dropped.
    case replaceAnswer(EndpointKey)
    /// A scratch request was made: its service joins the catalogs, is shown and sent live, and the
    /// status bar says `notice`.
    case openScratch(EnvironmentKey, notice: String)
    /// A scratch request (by its service id) was saved as `endpoint`: its service leaves the
    /// catalogs, and the endpoint is shown in `near` when it is that service's, else in its first
    /// environment.
    case replaceScratch(String, by: EndpointKey, near: EnvironmentKey?, notice: String)
    /// Show an endpoint of any service: in the active environment when it is its service's, else
    /// in the service's first environment.
    case showEndpoint(EndpointKey)
    /// Run a command of the keymap (the palette).
    case run(Command)
    /// Send a request, asking first what is left to ask.
    case dispatch(EndpointCall, asking: SendQuestions)
    /// Send the endpoint with the example chosen in the examples window (nil: the default), and
    /// keep the choice.
    case sendExample(EndpointKey, String?)
    /// Show a tab of the response pane.
    case showTab(ResponseTab)
    /// Show a response (a flow step's) as its endpoint's last one, in the Body tab.
    case showResponse(CallOutcome)
}

/// What is still asked before a request goes out.
enum SendQuestions {
    /// Trust (an untrusted catalog reaching outside), production (a live change), then whether a
    /// download replaces a file.
    case everything
    /// Only whether a download replaces a file.
    case download
    /// Nothing: it is sent.
    case nothing
}

extension AppReducer {
    /// Runs a feature's reducer on its slice of the state, lending it the shell.
    static func scope<Feature: AppFeature>(
        _ feature: Feature.Type, _ slice: WritableKeyPath<AppState, Feature.State>, _ action: Feature.Action, _ state: inout AppState
    ) -> [AppEffect] {
        let context = Feature.context(of: state)
        var shell = AppShell(notice: state.notice, overlay: state.overlay, pendingLoads: state.pendingLoads)
        let effects = Feature.reduce(&state[keyPath: slice], action, &shell, context)
        state.notice = shell.notice
        state.overlay = shell.overlay
        state.pendingLoads = shell.pendingLoads
        return shell.requests.reduce(into: effects) { effects, request in effects += perform(request, state: &state) }
    }

    /// Does what a feature asked of the rest of the app.
    private static func perform(_ request: AppRequest, state: inout AppState) -> [AppEffect] {
        switch request {
        case .log(let lines):
            return scope(LogFeature.self, \.log, .logged(lines), &state)
        case .sendAgain(let call):
            return sendAgain(call, state: &state)
        case .replaceAnswer(let key):
            return scope(BodyFeature.self, \.body, .dropped(key), &state)
        case .openScratch(let environment, let notice):
            state.catalog = state.catalog.addingScratch(state.scratch.entries)
            state.selectEnvironment(environment)
            state.navigation.resetEndpointCursor(in: state.catalog)
            state.focus = .endpoints
            let effects = send(state: &state, example: nil)
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
        case .run(let command):
            return AppReducer.perform(command, state: &state)
        case .dispatch(let call, .everything):
            return confirmThenDispatch(call, state: &state)
        case .dispatch(let call, .download):
            return dispatchCheckingDownload(call, state: &state)
        case .dispatch(let call, .nothing):
            return dispatch(call, state: &state)
        case .sendExample(let key, let name):
            state.chosenExample[key] = name
            return send(state: &state, example: name)
        case .showTab(let tab):
            state.tab = tab
            return []
        case .showResponse(let record):
            let key = record.call.endpoint
            var effects = perform(.showEndpoint(key), state: &state)
            effects += scope(BodyFeature.self, \.body, .dropped(key), &state)
            state.responses[key] = record
            state.tabScroll = [:]
            state.tab = .body
            state.focus = .response
            return effects + scope(BodyFeature.self, \.body, .responseArrived(record), &state)
        }
    }
}
