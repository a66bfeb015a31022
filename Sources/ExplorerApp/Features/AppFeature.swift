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
    static func context(of app: AppState) -> RequestsInFlight { RequestsInFlight(tickets: app.exchanges.inFlight) }
}

/// What every feature may change of the app around it besides its own state: the status bar's
/// message and the loads the app waits for; and what it asks of the rest of the app, done by the
/// root in order once the feature has run. The window over the panes is the overlay slice's: a
/// feature reads it here and asks for a change (`present`, `dismiss`).
struct AppShell {
    /// A short message for the status bar.
    var notice: String?
    /// The window over the panes, as it was when the feature started.
    let window: Dialog?
    /// Effects whose answer has not arrived yet (see `AppState.pendingLoads`).
    var pendingLoads: Set<AppEffect>
    /// What the feature asks of the rest of the app.
    var requests: [AppRequest] = []
    /// The keys in effect where the keyboard was, for notices that name one.
    let keys: KeyNames

    /// Asks for a window over the panes (replacing the one shown): its keys, then its answer,
    /// come back to the feature whose window it is.
    mutating func present(_ dialog: Dialog) { requests.append(.present(dialog)) }

    /// Asks for the window over the panes to close.
    mutating func dismiss() { requests.append(.dismiss) }
}

/// What a feature may ask of the rest of the app: the few things it needs done in slices not its own.
enum AppRequest {
    /// Show a window over the panes (the overlay slice's to show).
    case present(Dialog)
    /// Close the window over the panes.
    case dismiss
    /// Lines for the network log.
    case log([String])
    /// Put text on the clipboard; `description` says what it was.
    case copy(text: String, description: String)
    /// Send the selected endpoint (its chosen example) in the active environment and mode.
    case sendSelected
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
    /// Show an endpoint in an environment (it becomes the active one).
    case showEndpointIn(EndpointKey, EnvironmentKey)
    /// Put the endpoint cursor on an endpoint of the active service.
    case selectEndpoint(EndpointKey)
    /// Run a command of the keymap (the palette).
    case run(Command)
    /// Show a tab of the response pane.
    case showTab(ResponseTab)
    /// Give a pane the keyboard.
    case focus(Pane)
    /// Show a response (a flow step's) as its endpoint's last one, in the Body tab.
    case showResponse(CallOutcome)
    /// The catalogs were read again (a trust given): they replace the loaded ones.
    case installCatalog(CatalogSet, SecretStore)
    /// A request ended, answered or not: the kinds of exchange that followed it (uploads,
    /// downloads, streams, conversations) end it too.
    case exchangeEnded(EndedExchange)
    /// A request was answered (or failed): the slices that show or keep answers take it, as
    /// reported and as its endpoint's last result.
    case exchangeAnswered(FinishedExchange, CallOutcome)
    /// An action to send next, after what was asked before it (a feature's own follow-up).
    case action(AppAction)
}

/// What the window over the panes passes to the feature whose window it is.
package enum WindowInput: Sendable, Hashable {
    /// A key while the window is open (moving, typing, choosing, closing).
    case key(Command)
    /// The answer to a question (`y` or `n`).
    case answer(Bool)
}

extension AppReducer {
    /// Runs a feature's reducer on its slice of the state, lending it the shell.
    static func scope<Feature: AppFeature>(
        _ feature: Feature.Type, _ slice: WritableKeyPath<AppState, Feature.State>, _ action: Feature.Action, _ state: inout AppState
    ) -> [AppEffect] {
        let context = Feature.context(of: state)
        var shell = AppShell(notice: state.notice, window: state.overlay, pendingLoads: state.pendingLoads, keys: state.keys)
        let effects = Feature.reduce(&state[keyPath: slice], action, &shell, context)
        state.notice = shell.notice
        state.pendingLoads = shell.pendingLoads
        guard !shell.requests.isEmpty else { return effects }
        return shell.requests.reduce(into: effects) { effects, request in effects += perform(request, state: &state) }
    }
}
