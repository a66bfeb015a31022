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

    /// The explorer started: the first action, before any input.
    case launched
    /// The catalogs were read (at launch), with where their secrets come from.
    case catalogLoaded(CatalogSet, SecretStore)
    /// The grace after launch ended with the catalogs still being read: the loading screen may be drawn.
    case loadingScreenDue
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
    /// More of a streamed response arrived (batched: at most a frame's worth of reports).
    case responseStreamed(ticket: Int, update: StreamUpdate)
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
    /// A body build of `generation` moved on; `preview` is the first lines, offered once for large JSON.
    case bodyBuildProgress(key: EndpointKey, generation: Int, status: BodyBuildStatus, preview: BodyHandle?)
    /// A body build finished.
    case bodyBuilt(key: EndpointKey, generation: Int, document: BodyHandle)
    /// A body build stopped before finishing (cancelled).
    case bodyBuildStopped(key: EndpointKey, generation: Int)
    /// Matches of a search counted so far in `document`.
    case bodyMatchCount(key: EndpointKey, document: BodyHandle, query: BodySearchQuery, count: BodyMatchCount)
    /// Where a search's first match lies past what a frame scans, found in the background.
    case bodyMatchFound(key: EndpointKey, document: BodyHandle, query: BodySearchQuery, scan: BodyMatchScan)
    /// A query or jq filter finished: the selected values, or why not.
    case bodySelectionFinished(key: EndpointKey, id: Int, outcome: Result<BodySelectionResult, BodySelectionError>)
    /// Saving a body finished; `error` is nil when it was saved.
    case bodySaveFinished(key: EndpointKey, path: String, byteCount: Int, error: BodySaveError?)
    /// Something the body's background work wants the person to know (open, copy …).
    case bodyMessage(String)
}

/// What a query or jq filter selected.
package struct BodySelectionResult: Sendable {
    /// The selected values as a document.
    package var document: BodyHandle
    /// How many values a query selected (nil for jq).
    package var count: Int?

    /// Makes a result.
    package init(document: BodyHandle, count: Int?) {
        self.document = document
        self.count = count
    }
}

/// Why a query or jq filter produced nothing to show.
package struct BodySelectionError: Error, Sendable, Hashable {
    /// What went wrong, for the person.
    package var message: String

    /// Makes an error.
    package init(_ message: String) { self.message = message }
}

/// Programs a body can be opened in.
package enum BodyProgram: Sendable, Hashable {
    /// `$PAGER`, default `less`.
    case pager
    /// `$EDITOR`, default `vi`.
    case editor
}

/// Background work on a body that can be cancelled.
package enum BodyWork: String, Sendable, Hashable {
    /// Formatting and indexing.
    case build
    /// Counting search matches.
    case count
    /// A query or jq filter.
    case selection
    /// Looking for a search's first match past what a frame scans.
    case find
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
    /// Scratch requests'.
    case scratch(ScratchEffect)
    /// The drift badges'.
    case drift(DriftEffect)
    /// The Tests tab's (flow runs).
    case tests(TestsEffect)

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
    /// Format and index a response body off the UI thread, reporting `.bodyBuildProgress` and
    /// `.bodyBuilt`; every secret value `masking` knows is masked first (nil: shown as received).
    case buildBody(key: EndpointKey, generation: Int, data: Data, contentType: String?, masking: Redactor? = nil)
    /// Format and index a downloaded body from its file, mapped into memory rather than read into
    /// the heap; reports as `.buildBody` does.
    case buildBodyFromFile(key: EndpointKey, generation: Int, path: String, contentType: String?, masking: Redactor? = nil)
    /// Stop background work on a body.
    case cancelBodyWork(key: EndpointKey, work: BodyWork)
    /// Count the matches of a search in the background, reporting `.bodyMatchCount`.
    case countBodyMatches(key: EndpointKey, document: BodyHandle, query: BodySearchQuery)
    /// Look for the first match of a search at or after `offset` (wrapping) in the background,
    /// reporting `.bodyMatchFound`; a newer one for the same body cancels it.
    case findInBody(key: EndpointKey, document: BodyHandle, query: BodySearchQuery, from: Int)
    /// Run a query or jq filter over a body, reporting `.bodySelectionFinished`.
    case selectInBody(key: EndpointKey, id: Int, document: BodyHandle, kind: BodySelectionKind)
    /// Copy the value on `line` (OSC 52), formatted off the UI thread.
    case copyBodyValue(document: BodyHandle, line: Int)
    /// Save a body to `path`; never replaces a file unless `overwrite`.
    case saveBody(key: EndpointKey, document: BodyHandle, path: String, overwrite: Bool)
    /// Open a body in the pager or editor, leaving the terminal to it meanwhile.
    case openBody(document: BodyHandle, program: BodyProgram)
    /// Leave the app.
    case quit
}
