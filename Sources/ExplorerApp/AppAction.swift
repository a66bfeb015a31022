import Catalog
import BodyViewer
import DispatcherCore
import FoundationEssentials
import Sessions
import TerminalKit
import TextSupport

/// Everything that can happen to the app: input, results of effects, time.
package enum AppAction: Sendable {
    // Features (Features/): one case each, scoped by `AppReducer`.
    /// The cursors, the endpoint tree and filter.
    case navigation(NavigationAction)
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
    /// The network log.
    case log(LogAction)
    /// Request bodies being uploaded.
    case uploads(UploadsAction)
    /// Response bodies being downloaded to a file.
    case downloads(DownloadsAction)
    /// The windows over the panes and their questions.
    case overlays(OverlaysAction)
    /// The message log.
    case messages(MessagesAction)
    /// The Tests tab.
    case tests(TestsAction)
    /// The sidebar's width and the zoom.
    case panes(PanesAction)

    /// The explorer started: the first action, before any input.
    case launched
    /// The catalogs were read (at launch), with where their secrets come from.
    case catalogLoaded(CatalogSet, SecretStore)
    /// What the launch index holds of the catalogs, before they are read in full: drawn at once.
    case catalogPreviewed(CatalogSet)
    /// The grace after launch ended with the catalogs still being read: the loading screen may be drawn.
    case loadingScreenDue
    /// How far the launch's catalog load has come: catalog files read of `total`.
    case catalogLoadProgressed(read: Int, total: Int)
    /// Catalog files changed on disk and the catalogs were read again (`changed`: the files, relative to the folder).
    case catalogReloaded(CatalogSet, SecretStore, changed: [String])
    /// The person trusted a catalog: it was read again with its new trust; `call` waits to be sent.
    case catalogTrusted(CatalogSet, SecretStore, call: EndpointCall)
    /// Where a download's file is (`.checkDownload`): absolute, whether a file is there, or why it may not be written.
    case downloadChecked(EndpointCall, path: String, exists: Bool, problem: String?)
    /// Drafts kept from earlier runs, by service and environment and then endpoint id.
    case draftsLoaded([EnvironmentKey: [String: EndpointEdits]])
    /// Values captured from responses in earlier runs.
    case capturedLoaded([EnvironmentKey: CapturedValues])
    /// Run-time values kept from earlier runs.
    case valuesLoaded([EnvironmentKey: [String: String]])
    /// The body of a draft came back from `$EDITOR` (nil: not changed, or the editor failed with `message`).
    case bodyEdited(key: DraftKey, text: String?, message: String?)
    /// The draft's request was added to its catalog as endpoint `id` (`error` nil), or why not.
    case draftSavedAsEndpoint(key: DraftKey, id: String, error: String?)
    /// Drafts or run-time values could not be kept in the state folder: why.
    case stateNotSaved(String)
    /// A draft was written into its catalog file (`error` nil), or why not.
    case draftWritten(key: DraftKey, error: String?)
    /// A catalog file was put back as it was before a draft was written into it (`error` nil), or why not.
    case catalogFileRestored(key: DraftKey, error: String?)
    /// A key, a mouse event or a resize from the terminal.
    case terminal(TerminalEvent)
    /// A request finished (or was cancelled) at `finishedAt`.
    case exchangeFinished(ticket: Int, exchange: Exchange, redactor: Redactor, finishedAt: Date)
    /// The activity plugin's count of requests on the wire changed.
    case activityChanged(Int)
    /// A spinner tick of the given generation.
    case spinnerTick(generation: Int)
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
    /// The Tests tab's (flow runs).
    case tests(TestsEffect)
    /// The panes' (the sidebar's width kept).
    case panes(PanesEffect)

    /// Read the catalogs, reporting `.catalogLoaded`.
    case loadCatalog
    /// Read the time zone times are shown in, reporting `.timeZoneLoaded`.
    case loadTimeZone
    /// Watch the catalog folder and read changed files again, reporting `.catalogReloaded`.
    case watchCatalogs
    /// Read the drafts kept from earlier runs, reporting `.draftsLoaded`.
    case loadDrafts
    /// Read the run-time values kept from earlier runs, reporting `.valuesLoaded`.
    case loadValues
    /// Keep these drafts in the state folder (replacing what was kept).
    case saveDrafts([EnvironmentKey: [String: EndpointEdits]])
    /// Read the values captured in earlier runs, reporting `.capturedLoaded`.
    case loadCaptured
    /// Keep these captured values in the state folder (readable by the owner only).
    case saveCaptured([EnvironmentKey: CapturedValues])
    /// Keep these run-time values in the state folder (never secrets).
    case saveValues([EnvironmentKey: [String: String]])
    /// Open a draft's body in `$EDITOR`, reporting `.bodyEdited`.
    case editBodyInEditor(key: DraftKey, text: String, isJSON: Bool)
    /// Write a draft into its catalog file (only the lines that changed), reload, and report `.draftWritten`.
    case writeDraft(key: DraftKey, edits: EndpointEdits)
    /// Put the draft's catalog file back as it was before `.writeDraft` (kept beside it as `FILE~`),
    /// reload, and report `.catalogFileRestored`.
    case restoreCatalogFile(key: DraftKey)
    /// Add the draft's request to its catalog as a new endpoint `id`, reload, and report `.draftSavedAsEndpoint`.
    case saveDraftAsEndpoint(key: DraftKey, edits: EndpointEdits, id: String)
    /// Send a request.
    case send(RequestTicket)
    /// Cancel a request in flight.
    case cancel(ticket: Int)
    /// Remember that the catalog files with these contents are trusted, read the catalogs again and
    /// report `.catalogTrusted` with the call to send.
    case trustCatalog(contentHashes: [String], then: EndpointCall)
    /// Find where a download's file is (the downloads folder for the catalog's `download:`,
    /// confined to it) and whether one exists, reporting `.downloadChecked`.
    case checkDownload(EndpointCall)
    /// Send a spinner tick after the delay.
    case scheduleSpinnerTick(generation: Int, after: Duration)
    /// Report `.loadingScreenDue` after the delay.
    case scheduleLoadingScreen(after: Duration)
    /// Put text on the clipboard (OSC 52); `description` says what it was.
    case copyToClipboard(text: String, description: String)
    /// Leave the app.
    case quit
}
