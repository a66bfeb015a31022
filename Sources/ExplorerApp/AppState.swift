import FoundationEssentials
import Catalog
import DispatcherCore
import Sessions
import TerminalKit
import TextSupport

/// Everything the explorer shows, in one value. Only the reducer changes it: fields are
/// `internal(set)` (the reducer and its slices in this module write them; a slice's own state
/// narrows its fields to `fileprivate(set)` where only its file writes them), and the three
/// settable ones say why.
package struct AppState: Sendable {
    /// The loaded catalogs (services, diagnostics, where they came from). Settable: tests give a
    /// made-up catalog the folder a write goes to.
    package var catalog: CatalogSet
    /// Terminal size in cells.
    package internal(set) var size: Size
    /// Which pane has the keyboard.
    package internal(set) var focus: Pane = .endpoints
    /// Stub or live per environment, as `s` switched it; an environment not switched starts as its
    /// `fixtures:` say (`never`: live), as `call` does, or live for all with `--live`.
    package internal(set) var chosenModes: [EnvironmentKey: RequestMode] = [:]
    /// `--live`: environments not switched with `s` start live.
    package internal(set) var startsLive = false
    /// The tab shown in the response pane.
    package internal(set) var tab: ResponseTab = .body
    /// Scroll offsets of the text tabs, by tab.
    package internal(set) var tabScroll: [ResponseTab: Int] = [:]
    /// The last result per endpoint.
    package internal(set) var responses: [EndpointKey: CallOutcome] = [:]
    /// Requests sent and not yet answered, by ticket id.
    package internal(set) var inFlight: [Int: RequestTicket] = [:]
    /// The example each endpoint sends; absent means the default.
    package internal(set) var chosenExample: [EndpointKey: String] = [:]
    /// Requests on the wire, as the activity plugin counts them.
    package internal(set) var activity = 0
    /// The spinner's frame.
    package internal(set) var spinnerFrame = 0
    /// Ticks carry this generation; a tick of an older one is stale and ignored.
    package internal(set) var spinnerGeneration = 0
    /// Whether a spinner tick is scheduled.
    package internal(set) var spinnerScheduled = false
    /// Whether secrets are shown in clear on screen.
    package internal(set) var revealsSecrets = false
    /// A short message for the status bar (copied, cancelled …).
    package internal(set) var notice: String? {
        didSet { if let notice, notice != oldValue { MessagesFeature.record(notice, in: &messages) } }
    }
    /// The next request ticket id.
    package internal(set) var nextTicket = 1
    /// Set when the app should exit.
    package internal(set) var isQuitting = false
    // Features (Features/): each owns its slice; `AppReducer` scopes actions to it.
    /// The cursors and the endpoint filter (settable from outside only through its own methods,
    /// which tests use to place a cursor).
    package var navigation = NavigationState()
    /// The finder and the command palette.
    package internal(set) var finder = FinderState()
    /// Requests sent (`H`).
    package internal(set) var history = HistoryState()
    /// Cookies, tokens and sign-ins.
    package internal(set) var auth = AuthState()
    /// WebSocket conversations.
    package internal(set) var webSocket = WebSocketState()
    /// The Body tab of each response, and responses read as they arrive.
    package internal(set) var body = BodyState()
    /// Scratch requests (`C-n`).
    package internal(set) var scratch = ScratchState()
    /// The drift badges.
    package internal(set) var drift = DriftState()
    /// The network log.
    package internal(set) var log = LogState()
    /// Request bodies being uploaded.
    package internal(set) var uploads = UploadsState()
    /// Response bodies being downloaded to a file.
    package internal(set) var downloads = DownloadsState()
    /// Every notice and error of this run (`M`).
    package internal(set) var messages = MessagesState()
    /// The keymap and theme in effect (the config file's, else the defaults).
    package internal(set) var config = ExplorerConfig.defaults
    /// The window over the panes and the keys of its questions.
    package internal(set) var overlays = OverlaysState()
    /// The sidebar's width and the zoom.
    package internal(set) var panes = PanesState()
    /// The time zone times are shown in (the user's; given, so views read no global state).
    package internal(set) var timeZone: LocalTimeZone
    /// Where the explorer opens once the catalogs are loaded; nil once applied (or for a state made
    /// with its catalogs).
    package internal(set) var launch: LaunchOptions?
    /// Where secrets come from (given with the catalogs; values show only when revealed).
    package internal(set) var secrets = SecretStore(processEnvironment: [:])
    /// Edits of endpoints not saved to their catalogs, per endpoint and environment (kept in the
    /// state folder as they are made).
    package internal(set) var drafts: [DraftKey: EndpointEdits] = [:]
    /// Earlier edits of each draft, newest last, for undo (this run only).
    package internal(set) var undoStack: [DraftKey: [EndpointEdits]] = [:]
    /// Undone edits, newest last, for redo.
    package internal(set) var redoStack: [DraftKey: [EndpointEdits]] = [:]
    /// Run-time values per service and environment (kept in the state folder, never secrets).
    package internal(set) var runtimeValues: [EnvironmentKey: [String: String]] = [:]
    /// Values captured from responses per service and environment, stub and live apart (kept in the
    /// state folder). Settable: tests seed what an earlier run captured.
    package var captured: [EnvironmentKey: CapturedValues] = [:]
    /// When each endpoint's latest response arrived (for `{{response.…}}` references).
    package internal(set) var receivedAt: [EndpointKey: Date] = [:]
    /// The Edit tab.
    package internal(set) var editor = EditorState()
    /// The Variables tab.
    package internal(set) var variablesTab = VariablesState()
    /// The Tests tab: assertions checked on each endpoint's last response.
    package internal(set) var tests = TestsState()
    /// Effects whose answer has not arrived yet: what `.launched` asked to read (besides the
    /// catalogs), a body open in $EDITOR.
    package internal(set) var pendingLoads: Set<AppEffect> = []
    /// Keys and clicks that came while the catalogs were loading, handled once they are there.
    package internal(set) var pendingEvents: [TerminalEvent] = []
    /// Why the explorer stopped without being asked to (an unknown `--env`); the command line
    /// prints it and exits with status 2.
    package internal(set) var failure: String?

    /// Makes the state for catalogs already loaded.
    package init(catalog: CatalogSet, size: Size, timeZone: LocalTimeZone = .utc) {
        self.catalog = catalog
        self.size = size
        self.timeZone = timeZone
        navigation.resetEnvironmentCursor(in: catalog)
    }

    /// Makes the state of an explorer that has just started: the catalogs are loaded by an effect
    /// (`.launched` asks for it) and `launch` applies when they arrive.
    package init(launching launch: LaunchOptions, size: Size, timeZone: LocalTimeZone) {
        self.init(catalog: CatalogSet(services: [], diagnostics: [], source: .bundled), size: size, timeZone: timeZone)
        self.launch = launch
        config = launch.config
    }

    /// The window over the panes, if any (kept by the Overlays slice).
    package var overlay: Dialog? {
        get { overlays.window }
        set { overlays.window = newValue }
    }

    /// Whether the catalogs are still being loaded.
    package var isLoadingCatalog: Bool { launch != nil }

    /// Set when the grace after launch (`loadingScreenGrace`) ends before the catalogs are read.
    package internal(set) var loadingScreenDue = false

    /// How many catalog files the launch's load has read, while it reads them.
    package internal(set) var catalogLoadProgress: CatalogLoadCount?

    /// What the panes show while the catalogs load: `Loading 3412/10000 catalog files` (fits the sidebar).
    package var loadingText: String {
        guard let progress = catalogLoadProgress, progress.total > 0 else { return "Loading catalogs…" }
        return "Loading \(progress.read)/\(progress.total) catalog files"
    }

    /// How long the first frame waits for the catalogs: catalogs read sooner are the first thing
    /// drawn, with no loading screen flashing before them (and drawing one would compete with the
    /// reading for the CPU); slower ones show the loading screen after it.
    package static let loadingScreenGrace = Duration.milliseconds(50)

    /// Set while the launch index's catalogs are drawn and the full ones are still being read:
    /// keys wait for them as during any load.
    package internal(set) var showsCatalogPreview = false

    /// Whether frames are held back: the catalogs are being read, none is previewed and the grace has not ended.
    package var holdsFrames: Bool { isLoadingCatalog && !loadingScreenDue && !showsCatalogPreview }

    /// Whether anything asked for at launch (catalogs, history, drift results) has not arrived yet.
    package var isLoading: Bool { isLoadingCatalog || !pendingLoads.isEmpty }
}

/// Where the explorer opens: `--env` and `--live`.
package struct LaunchOptions: Sendable, Hashable {
    /// An environment name, or `service/environment`; nil for the first environment.
    package var environment: String?
    /// Start in live mode.
    package var live: Bool
    /// The config file's keys and theme (applied from the first frame).
    package var config: ExplorerConfig

    /// Makes launch options.
    package init(environment: String? = nil, live: Bool = false, config: ExplorerConfig = .defaults) {
        self.environment = environment
        self.live = live
        self.config = config
    }

    /// Applies them to a state whose catalogs are loaded; false when the environment is not there.
    package func apply(to state: inout AppState) -> Bool {
        if live { state.startsLive = true }
        guard let environment else { return true }
        return state.selectEnvironment(named: environment)
    }
}

/// A pane that can have focus, in Tab order.
package enum Pane: Int, Sendable, Hashable, CaseIterable {
    case environments, endpoints, response
}

/// The tabs of the response pane, numbered 1–8.
package enum ResponseTab: Int, Sendable, Hashable, CaseIterable {
    case body = 1, headers, errors, request, log, edit, variables, tests

    /// The tab's title.
    package var title: String {
        switch self {
        case .body: "Body"
        case .headers: "Headers"
        case .errors: "Errors"
        case .request: "Request"
        case .log: "Log"
        case .edit: "Edit"
        case .variables: "Vars"
        case .tests: "Tests"
        }
    }

    /// The title when the pane is narrow.
    package var shortTitle: String {
        switch self {
        case .headers: "Hdrs"
        case .errors: "Errs"
        case .request: "Req"
        case .tests: "✓"
        default: title
        }
    }
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

/// Catalog files read so far of those a load reads.
package struct CatalogLoadCount: Sendable, Equatable {
    package var read: Int
    package var total: Int

    package init(read: Int, total: Int) {
        self.read = read
        self.total = total
    }
}
