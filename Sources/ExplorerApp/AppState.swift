import FoundationEssentials
import Catalog
import DispatcherCore
import TerminalKit
import TextSupport

/// Everything the explorer shows, in one value. Only the reducer changes it.
public struct AppState: Sendable {
    /// The loaded catalogs (services, diagnostics, where they came from).
    public var catalog: CatalogSet
    /// Terminal size in cells.
    public var size: Size
    /// Which pane has the keyboard.
    public var focus: Pane = .endpoints
    /// Stub or live per environment, as `s` switched it; an environment not switched starts as its
    /// `fixtures:` say (`never`: live), as `call` does, or live for all with `--live`.
    public var chosenModes: [EnvironmentKey: RequestMode] = [:]
    /// `--live`: environments not switched with `s` start live.
    public var startsLive = false
    /// Cursor and scroll of the environments pane (rows of `environmentRows`). The row under the
    /// cursor is the active service and environment.
    public var environmentList = ListState(selected: 0)
    /// Cursor and scroll of the endpoints pane, per service id (rows of `visibleEndpoints`).
    public var endpointLists: [String: ListState] = [:]
    /// The endpoint filter typed after `/`; nil when no filter is open.
    public var filter: FilterState?
    /// The tab shown in the response pane.
    public var tab: ResponseTab = .body
    /// Scroll offsets of the text tabs, by tab.
    public var tabScroll: [ResponseTab: Int] = [:]
    /// The last result per endpoint.
    public var responses: [EndpointKey: CallOutcome] = [:]
    /// The Body tab of each response, by endpoint (as `responses`).
    public var bodies: [EndpointKey: BodyPane] = [:]
    /// Sign-ins waiting for the person (device codes), by service and environment; gone once a
    /// request there finishes.
    public var signInPrompts: [EnvironmentKey: SignInPrompt] = [:]
    /// Uploads under way (streamed request bodies), by ticket: bytes sent and in all.
    public var uploads: [Int: (sent: Int, total: Int)] = [:]
    /// Environments a handler signed out of (`signOut`), with what it said; shown until a request
    /// there succeeds again.
    public var signedOut: [EnvironmentKey: String] = [:]
    /// Responses read as they arrive (event streams, NDJSON), by endpoint: the latest answer's.
    public var streams: [EndpointKey: ResponseStream] = [:]
    /// WebSocket conversations, by endpoint: the latest one's (open or closed).
    public var webSockets: [EndpointKey: WebSocketPane] = [:]
    /// The next id for a body build or query; results carrying an older id are stale.
    public var nextBodyGeneration = 1
    /// Requests sent and not yet answered, by ticket id.
    public var inFlight: [Int: RequestTicket] = [:]
    /// The example each endpoint sends; absent means the default.
    public var chosenExample: [EndpointKey: String] = [:]
    /// Requests on the wire, as the activity plugin counts them.
    public var activity = 0
    /// The spinner's frame.
    public var spinnerFrame = 0
    /// Ticks carry this generation; a tick of an older one is stale and ignored.
    public var spinnerGeneration = 0
    /// Whether a spinner tick is scheduled.
    public var spinnerScheduled = false
    /// The network log, newest last, bounded, secrets masked.
    public var log: [String] = []
    /// The same lines in clear, shown while secrets are revealed (`v`); same length as `log`.
    public var logInClear: [String] = []
    /// An overlay over the panes, if any.
    public var overlay: Dialog?
    /// Whether secrets are shown in clear on screen.
    public var revealsSecrets = false
    /// A short message for the status bar (copied, cancelled …).
    public var notice: String?
    /// The next request ticket id.
    public var nextTicket = 1
    /// Set when the app should exit.
    public var isQuitting = false
    /// Requests sent, newest first: this run's and (loaded at launch) earlier ones.
    public var history: [HistoryItem] = []
    /// The last `apiexplorer check` result per service and environment, by endpoint id, for the drift badge.
    public var driftMarks: [EnvironmentKey: [String: DriftMark]] = [:]
    /// The time zone times are shown in (the user's; given, so views read no global state).
    public var timeZone: LocalTimeZone
    /// Where the explorer opens once the catalogs are loaded; nil once applied (or for a state made
    /// with its catalogs).
    public var launch: LaunchOptions?
    /// Where secrets come from (given with the catalogs; values show only when revealed).
    public var secrets = SecretStore(processEnvironment: [:])
    /// Edits of endpoints not saved to their catalogs, per endpoint and environment (kept in the
    /// state folder as they are made).
    public var drafts: [DraftKey: EndpointEdits] = [:]
    /// Earlier edits of each draft, newest last, for undo (this run only).
    public var undoStack: [DraftKey: [EndpointEdits]] = [:]
    /// Undone edits, newest last, for redo.
    public var redoStack: [DraftKey: [EndpointEdits]] = [:]
    /// Run-time values per service and environment (kept in the state folder, never secrets).
    public var runtimeValues: [EnvironmentKey: [String: String]] = [:]
    /// Values captured from responses per service and environment, stub and live apart (kept in the state folder).
    public var captured: [EnvironmentKey: CapturedValues] = [:]
    /// When each endpoint's latest response arrived (for `{{response.…}}` references).
    public var receivedAt: [EndpointKey: Date] = [:]
    /// The Edit tab.
    public var editor = EditorState()
    /// Scratch requests made while the explorer runs, oldest first (their services follow the catalog's).
    public var scratch: [ScratchEntry] = []
    /// The number of the next scratch request.
    public var nextScratchNumber = 1
    /// The Variables tab.
    public var variablesTab = VariablesState()
    /// Effects whose answer has not arrived yet: what `.launched` asked to read (besides the
    /// catalogs), a body open in $EDITOR.
    public var pendingLoads: Set<AppEffect> = []
    /// Keys and clicks that came while the catalogs were loading, handled once they are there.
    public var pendingEvents: [TerminalEvent] = []
    /// Why the explorer stopped without being asked to (an unknown `--env`); the command line
    /// prints it and exits with status 2.
    public var failure: String?

    /// Makes the state for catalogs already loaded.
    public init(catalog: CatalogSet, size: Size, timeZone: LocalTimeZone = .utc) {
        self.catalog = catalog
        self.size = size
        self.timeZone = timeZone
        environmentList = ListState(selected: environmentRows.firstIndex { $0.isEnvironment } ?? 0)
    }

    /// Makes the state of an explorer that has just started: the catalogs are loaded by an effect
    /// (`.launched` asks for it) and `launch` applies when they arrive.
    public init(launching launch: LaunchOptions, size: Size, timeZone: LocalTimeZone) {
        self.init(catalog: CatalogSet(services: [], diagnostics: [], source: .bundled), size: size, timeZone: timeZone)
        self.launch = launch
    }

    /// Whether the catalogs are still being loaded.
    public var isLoadingCatalog: Bool { launch != nil }

    /// Set when the grace after launch (`loadingScreenGrace`) ends before the catalogs are read.
    public var loadingScreenDue = false

    /// How long the first frame waits for the catalogs: catalogs read sooner are the first thing
    /// drawn, with no loading screen flashing before them (and drawing one would compete with the
    /// reading for the CPU); slower ones show the loading screen after it.
    public static let loadingScreenGrace = Duration.milliseconds(50)

    /// Whether frames are held back: the catalogs are being read and the grace has not ended.
    public var holdsFrames: Bool { isLoadingCatalog && !loadingScreenDue }

    /// Whether anything asked for at launch (catalogs, history, drift results) has not arrived yet.
    public var isLoading: Bool { isLoadingCatalog || !pendingLoads.isEmpty }

    /// The most log lines kept.
    public static let logLimit = 2000

    /// Appends lines to the log, dropping the oldest beyond `logLimit`; `clear` are the same lines
    /// with secrets in clear (the masked ones when they have none).
    mutating func appendLog(_ lines: [String], clear: [String]? = nil) {
        log.append(contentsOf: lines)
        logInClear.append(contentsOf: clear ?? lines)
        if log.count > AppState.logLimit { log.removeFirst(log.count - AppState.logLimit) }
        if logInClear.count > AppState.logLimit { logInClear.removeFirst(logInClear.count - AppState.logLimit) }
    }
}

/// Where the explorer opens: `--env` and `--live`.
public struct LaunchOptions: Sendable, Hashable {
    /// An environment name, or `service/environment`; nil for the first environment.
    public var environment: String?
    /// Start in live mode.
    public var live: Bool

    /// Makes launch options.
    public init(environment: String? = nil, live: Bool = false) {
        self.environment = environment
        self.live = live
    }

    /// Applies them to a state whose catalogs are loaded; false when the environment is not there.
    public func apply(to state: inout AppState) -> Bool {
        if live { state.startsLive = true }
        guard let environment else { return true }
        return state.selectEnvironment(named: environment)
    }
}

/// A pane that can have focus, in Tab order.
public enum Pane: Int, Sendable, Hashable, CaseIterable {
    case environments, endpoints, response
}

/// One request in the history: enough to show it and to send it again.
public struct HistoryItem: Sendable, Hashable {
    /// What was sent, where and how.
    public var call: EndpointCall
    /// The method and URL as sent, secrets masked.
    public var requestLine: String
    /// `200 OK`, or the mapped error kind.
    public var outcome: String
    /// Whether it ended in an error.
    public var failed: Bool
    /// When it was sent.
    public var date: Date

    /// Makes an item.
    public init(call: EndpointCall, requestLine: String, outcome: String, failed: Bool, date: Date) {
        self.call = call
        self.requestLine = requestLine
        self.outcome = outcome
        self.failed = failed
        self.date = date
    }

    /// The most items kept in the app.
    public static let limit = 500
}

/// What the last drift check (`apiexplorer check`) said of an endpoint in an environment.
public enum DriftMark: String, Sendable, Hashable {
    /// The live response matched the stub.
    case matches
    /// The live response differed from the stub.
    case drifted
    /// The live request failed, so nothing could be compared.
    case failed
}

/// The tabs of the response pane, numbered 1–5.
public enum ResponseTab: Int, Sendable, Hashable, CaseIterable {
    case body = 1, headers, errors, request, log, edit, variables

    /// The tab's title.
    public var title: String {
        switch self {
        case .body: "Body"
        case .headers: "Headers"
        case .errors: "Errors"
        case .request: "Request"
        case .log: "Log"
        case .edit: "Edit"
        case .variables: "Vars"
        }
    }

    /// The title when the pane is narrow.
    public var shortTitle: String {
        switch self {
        case .headers: "Hdrs"
        case .errors: "Errs"
        case .request: "Req"
        default: title
        }
    }
}

/// The endpoint filter being typed.
public struct FilterState: Sendable, Hashable {
    /// The text typed so far.
    public var input = InputState()
    /// Whether keys go to the input (false once Enter accepted it; the filter stays applied).
    public var isEditing = true

    /// The query.
    public var query: String { input.text }
}

/// A floating window over the panes.
public enum Dialog: Sendable, Hashable {
    /// The keys, generated from the keymap.
    case help(scroll: Int)
    /// The endpoint's examples to pick from.
    case examplePicker(endpoint: EndpointKey, list: ListState)
    /// Asks before a request that changes data in production.
    case confirmSend(EndpointCall)
    /// Shows what an untrusted catalog declares and asks whether to trust it, before its request
    /// reaches outside it (the network, a download).
    case confirmTrust(TrustQuestion)
    /// Asks before a download replaces a file that exists.
    case confirmReplace(EndpointCall)
    /// The catalog diagnostics.
    case diagnostics(scroll: Int)
    /// Requests sent before, to read and send again.
    case history(list: ListState)
    /// Asks the `{{prompt.NAME}}` questions of a request before it is sent.
    case prompt(PromptDialog)
    /// Asks for a scratch request, or where to save one.
    case scratch(ScratchDialog)
    /// The formats the last request can be copied as.
    case copyAs(list: ListState)
    /// Asks where the selected endpoint's body is downloaded to.
    case download(DownloadDialog)
    /// The tokens of an environment and mode, as they were at `shownAt`.
    case tokens(TokensWindow)
    /// The cookies of an environment and mode, as they were when read.
    case cookies(CookiesWindow)
    /// A message being typed for an open WebSocket.
    case message(MessageComposer)
}

/// The cookie jar of an environment in one mode, read when the window opened.
public struct CookiesWindow: Sendable, Hashable {
    /// Whose cookies.
    public var environment: EnvironmentKey
    /// Stub or live.
    public var mode: RequestMode
    /// The cookies, in the order they are sent.
    public var cookies: [Cookie]
    /// When they were read (for expiry).
    public var shownAt: Date
    /// The cookie under the cursor (`d` deletes it).
    public var selected = 0

    /// Makes a window.
    public init(environment: EnvironmentKey, mode: RequestMode, cookies: [Cookie], shownAt: Date) {
        self.environment = environment
        self.mode = mode
        self.cookies = cookies
        self.shownAt = shownAt
    }
}

/// The tokens an environment holds in one mode, read when the window opened.
public struct TokensWindow: Sendable, Hashable {
    /// Whose tokens.
    public var environment: EnvironmentKey
    /// Stub or live.
    public var mode: RequestMode
    /// The tokens.
    public var tokens: [SessionToken]
    /// When they were read (expiry countdowns count from here).
    public var shownAt: Date
    /// The first line shown.
    public var scroll = 0

    /// Makes a window.
    public init(environment: EnvironmentKey, mode: RequestMode, tokens: [SessionToken], shownAt: Date) {
        self.environment = environment
        self.mode = mode
        self.tokens = tokens
        self.shownAt = shownAt
    }
}

/// The file a download goes to, being typed.
public struct DownloadDialog: Sendable, Hashable {
    /// The endpoint sent.
    public var endpoint: EndpointKey
    /// The example it is sent with.
    public var example: String?
    /// The path typed (relative to where the explorer runs).
    public var input: InputState
}

/// The questions of a request being asked, one at a time.
public struct PromptDialog: Sendable, Hashable {
    /// The request, its answers so far among its values.
    public var call: EndpointCall
    /// The questions left, the current one first.
    public var prompts: [Prompt]
    /// The answer being typed.
    public var input: InputState

    /// Starts with the first question, its default typed in.
    public init(call: EndpointCall, prompts: [Prompt]) {
        self.call = call
        self.prompts = prompts
        input = InputState(text: prompts.first?.defaultValue ?? "")
    }
}

/// One request the user sent: a call and the id of this sending.
public struct RequestTicket: Sendable, Hashable {
    /// Unique per app run.
    public var id: Int
    /// What is sent, where and how.
    public var call: EndpointCall
    /// Whether it turns the spinner (its endpoint's `showsActivity`, read once when it is sent).
    public var showsActivity = true

    /// A ticket for one request.
    public init(id: Int, call: EndpointCall) {
        self.id = id
        self.call = call
    }

    /// The endpoint.
    public var endpoint: EndpointKey { call.endpoint }
}

/// The question asked before an untrusted catalog's request reaches outside it.
public struct TrustQuestion: Sendable, Hashable {
    /// The request waiting for the answer.
    public var call: EndpointCall
    /// What the catalog declares.
    public var declaration: TrustDeclaration
    /// The catalog file's content hash: what trusting remembers.
    public var contentHash: String
    /// What the request would do (`send requests over the network`).
    public var reason: String
}
