import Catalog
import FoundationEssentials
import TerminalKit
import TextSupport

/// Everything that can happen to the app: input, results of effects, time.
package enum AppAction: Sendable {
    // Features (Features/): one case each, scoped by `AppReducer`.
    /// Where the explorer opens, and what waits for the catalogs.
    case launch(LaunchAction)
    /// The cursors, the endpoint tree and filter.
    case navigation(NavigationAction)
    /// Requests sent, in flight and answered.
    case exchanges(ExchangesAction)
    /// Drafts and run-time values.
    case editing(EditingAction)
    /// The response pane's tabs.
    case response(ResponseAction)
    /// The finder and the command palette.
    case finder(FinderAction)
    /// The request history.
    case history(HistoryAction)
    /// Cookies, tokens and sign-ins.
    case auth(AuthAction)
    /// WebSocket conversations.
    case webSocket(WebSocketAction)
    /// The Body tab and streamed responses.
    case body(BodyAction)
    /// Scratch requests.
    case scratch(ScratchAction)
    /// The drift badges.
    case drift(DriftAction)
    /// gRPC methods' descriptors.
    case rpc(RPCAction)
    /// The network log.
    case log(LogAction)
    /// Request bodies being uploaded.
    case uploads(UploadsAction)
    /// Response bodies being downloaded to a file.
    case downloads(DownloadsAction)
    /// The windows over the panes.
    case overlays(OverlaysAction)
    /// The message log.
    case messages(MessagesAction)
    /// The Tests tab.
    case checks(ChecksAction)
    /// The sidebar's width and the zoom.
    case panes(PanesAction)

    // The app's own.
    /// The explorer started: the first action, before any input.
    case launched
    /// The catalogs were read (at launch), with where their secrets come from.
    case catalogLoaded(CatalogSet, SecretStore)
    /// What the launch index holds of the catalogs, before they are read in full: drawn at once.
    case catalogPreviewed(CatalogSet)
    /// Catalog files changed on disk and the catalogs were read again (`changed`: the files, relative to the folder).
    case catalogReloaded(CatalogSet, SecretStore, changed: [String])
    /// A state file could not be kept, or the catalogs cannot be watched: why.
    case stateNotSaved(String)
    /// A key, a mouse event or a resize from the terminal.
    case terminal(TerminalEvent)
    /// The terminal went away (signal, hang-up): quit at once.
    case terminalClosed
    /// Text reached the clipboard.
    case copied(description: String)
    /// The time zone times are shown in, read at launch.
    case timeZoneLoaded(LocalTimeZone)
}

/// Work the reducer asks the runtime to do; its results come back as actions.
package enum AppEffect: Sendable, Hashable {
    // Features (Features/): one case each, performed by the feature's handler in ExplorerRuntime.
    /// Sending requests, and what they capture.
    case exchanges(ExchangesEffect)
    /// Drafts and run-time values kept, written into catalogs, edited in `$EDITOR`.
    case editing(EditingEffect)
    /// The request history's.
    case history(HistoryEffect)
    /// Cookies' and tokens'.
    case auth(AuthEffect)
    /// WebSocket conversations'.
    case webSocket(WebSocketEffect)
    /// The Body tab's (formatting, searches, queries, saving).
    case body(BodyEffect)
    /// Scratch requests'.
    case scratch(ScratchEffect)
    /// The drift badges'.
    case drift(DriftEffect)
    /// gRPC methods' descriptors'.
    case rpc(RPCEffect)
    /// The Tests tab's (flow runs).
    case checks(ChecksEffect)
    /// The panes' (the sidebar's width kept).
    case panes(PanesEffect)

    // The app's own.
    /// Read the catalogs, reporting `.catalogLoaded`.
    case loadCatalog
    /// Read the time zone times are shown in, reporting `.timeZoneLoaded`.
    case loadTimeZone
    /// Watch the catalog folder and read changed files again, reporting `.catalogReloaded`.
    case watchCatalogs
    /// Report `.launch(.loadingScreenDue)` after the delay.
    case scheduleLoadingScreen(after: Duration)
    /// Put text on the clipboard (OSC 52); `description` says what it was.
    case copyToClipboard(text: String, description: String)
    /// Leave the app.
    case quit
}
