import FoundationEssentials
import Catalog
import DispatcherCore
import Sessions
import TerminalKit
import TextSupport

/// Everything the explorer shows, in one value. Only the reducer changes it: fields are
/// `internal(set)` (the reducer and its slices in this module write them; a slice's own state
/// narrows its fields to `fileprivate(set)` where only its file writes them), and the settable
/// ones say why. The root keeps what belongs to the whole app; the rest is the features' slices.
package struct AppState: Sendable {
    /// The loaded catalogs (services, diagnostics, where they came from). Settable: tests give a
    /// made-up catalog the folder a write goes to.
    package var catalog: CatalogSet
    /// Where secrets come from (given with the catalogs; values show only when revealed).
    package internal(set) var secrets = SecretStore(processEnvironment: [:])
    /// Terminal size in cells.
    package internal(set) var size: Size
    /// Which pane has the keyboard.
    package internal(set) var focus: Pane = .endpoints
    /// Whether secrets are shown in clear on screen.
    package internal(set) var revealsSecrets = false
    /// A short message for the status bar (copied, cancelled …).
    package internal(set) var notice: String? {
        didSet { if logsNotice, let notice, notice != oldValue { MessagesFeature.record(notice, in: &messages) } }
    }
    /// Whether a new notice goes to the message log (not while `summarize` sets one).
    private var logsNotice = true
    /// The time zone times are shown in (the user's; given, so views read no global state).
    package internal(set) var timeZone: LocalTimeZone
    /// The keymap and theme in effect (the config file's, else the defaults).
    package internal(set) var config = ExplorerConfig.defaults
    /// Effects whose answer has not arrived yet: what `.launched` asked to read (besides the
    /// catalogs), a body open in $EDITOR.
    package internal(set) var pendingLoads: Set<AppEffect> = []
    /// Set when the app should exit.
    package internal(set) var isQuitting = false
    /// Why the explorer stopped without being asked to (an unknown `--env`); the command line
    /// prints it and exits with status 2.
    package internal(set) var failure: String?

    // Features (Features/): each owns its slice; `AppReducer` scopes actions to it.
    /// Where the explorer opens, and what waits for the catalogs.
    package internal(set) var launch = LaunchState()
    /// The cursors and the endpoint filter (settable from outside only through its own methods,
    /// which tests use to place a cursor).
    package var navigation = NavigationState()
    /// Requests sent, in flight and answered; stub or live.
    package internal(set) var exchanges = ExchangesState()
    /// Drafts of the next requests and run-time values (the Edit and Vars tabs).
    package internal(set) var editing = EditingState()
    /// The response pane's tab and scrolling.
    package internal(set) var response = ResponseState()
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
    /// gRPC methods' descriptors (the Edit tab's message checks).
    package internal(set) var rpc = RPCState()
    /// The network log.
    package internal(set) var log = LogState()
    /// Request bodies being uploaded.
    package internal(set) var uploads = UploadsState()
    /// Response bodies being downloaded to a file.
    package internal(set) var downloads = DownloadsState()
    /// Every notice and error of this run (`M`).
    package internal(set) var messages = MessagesState()
    /// The window over the panes.
    package internal(set) var overlays = OverlaysState()
    /// The sidebar's width and the zoom.
    package internal(set) var panes = PanesState()
    /// The Tests tab: assertions checked on each endpoint's last response.
    package internal(set) var checks = ChecksState()

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
        _ = AppReducer.scope(LaunchFeature.self, \.launch, .started(launch), &self)
        config = launch.config
    }

    /// Shows a notice that sums up lines the message log has already, without logging it again.
    mutating func summarize(_ notice: String) {
        logsNotice = false
        self.notice = notice
        logsNotice = true
    }
}

/// A pane that can have focus, in Tab order.
package enum Pane: Int, Sendable, Hashable, CaseIterable {
    case environments, endpoints, response
}
