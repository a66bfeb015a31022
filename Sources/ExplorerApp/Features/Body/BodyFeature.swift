import BodyViewer
import Catalog
import DispatcherCore
import FoundationEssentials
import Sessions
import TerminalKit

/// The Body tab of every endpoint's latest answer: its document, built off the UI thread, with the
/// view of it and what the person does in it; and answers read as they arrive (a stream's text is
/// built by the same builds, so both live here).
package struct BodyState: Sendable {
    /// The Body tab of each response, by endpoint (as `AppState.responses`).
    package internal(set) var panes: [EndpointKey: BodyPane] = [:]
    /// Responses read as they arrive (event streams, NDJSON), by endpoint: the latest answer's.
    package internal(set) var streams: [EndpointKey: ResponseStream] = [:]
    /// The next id for a build or query; results carrying an older id are stale.
    var nextGeneration = 1

    /// Bytes a key's search scans on the UI thread; a match further away is looked for in the
    /// background, so typing into a search of a 1 GB body never waits for a scan.
    package static let searchScanBytes = 256 << 10

    /// Whether a body is being formatted or queried (the runtime is not idle until it is done).
    package var hasWorkInProgress: Bool { panes.values.contains { $0.isBusy } }
}

/// What happens to bodies and streams.
package enum BodyAction: Sendable {
    // Results of its effects.
    /// A build of `generation` moved on; `preview` is the first lines, offered once for large JSON.
    case buildProgressed(key: EndpointKey, generation: Int, status: BodyBuildStatus, preview: BodyHandle?)
    /// A build finished.
    case built(key: EndpointKey, generation: Int, document: BodyHandle)
    /// A build stopped before finishing (cancelled).
    case buildStopped(key: EndpointKey, generation: Int)
    /// Matches of a search counted so far in `document`.
    case matchesCounted(key: EndpointKey, document: BodyHandle, query: BodySearchQuery, count: BodyMatchCount)
    /// Where a search's first match lies past what a frame scans, found in the background.
    case matchFound(key: EndpointKey, document: BodyHandle, query: BodySearchQuery, scan: BodyMatchScan)
    /// A query or jq filter finished: the selected values, or why not.
    case selectionFinished(key: EndpointKey, id: Int, outcome: Result<BodySelectionResult, BodySelectionError>)
    /// Saving a body finished; `error` is nil when it was saved.
    case saveFinished(key: EndpointKey, path: String, byteCount: Int, error: BodySaveError?)
    /// Something the background work wants the person to know (open, copy …).
    case message(String)
    /// More of a streamed response arrived (batched: at most a frame's worth of reports).
    case streamed(ticket: Int, update: StreamUpdate)

    // Keys (the root sends them only where the slice says they apply).
    /// A Body tab command.
    case command(BodyCommand)
    /// A key while the selected body's input line is open (editing, Enter, Esc), or its question.
    case promptKey(Command)
    /// Move in the selected body (`canMove`).
    case move(AppReducer.Movement, paging: Bool, wheel: Bool)
    /// Move the cursor in the selected event stream (`showsEvents`).
    case moveInEvents(AppReducer.Movement, paging: Bool)
    /// Esc while the selected body is formatting (`isBuilding`): stop it, keeping the preview.
    case cancelBuild
    /// Esc in the Body tab (`hasLayerToClose`): peel one layer (a running query, the query shown, the search).
    case closeLayer

    // What the rest of the app tells it.
    /// A response arrived: format its body (cancelling the build of the previous one).
    case responseArrived(CallOutcome)
    /// The endpoint's answer is replaced by another kind (a WebSocket) or shown anew: its body and
    /// stream stop their background work and are dropped.
    case dropped(EndpointKey)
    /// `v` changed whether secrets show: the bodies whose requests had secrets to mask are built again.
    case maskingChanged
    /// The request of a stream ended: the server closed it, it failed, or the person closed it
    /// (`cancelled`, with what arrived: then that is the response, with `ResponseStream.closedNote`).
    case streamEnded(ticket: Int, endpoint: EndpointKey, cancelled: Bool)
}

/// Work bodies ask of the runtime.
package enum BodyEffect: Sendable, Hashable {
    /// Format and index a response body off the UI thread, reporting `.buildProgressed` and
    /// `.built`; every secret value `masking` knows is masked first (nil: shown as received).
    case build(key: EndpointKey, generation: Int, data: Data, contentType: String?, masking: Redactor? = nil)
    /// Format and index a downloaded body from its file, mapped into memory rather than read into
    /// the heap; reports as `.build` does.
    case buildFromFile(key: EndpointKey, generation: Int, path: String, contentType: String?, masking: Redactor? = nil)
    /// Stop background work on a body.
    case cancel(key: EndpointKey, work: BodyWork)
    /// Count the matches of a search in the background, reporting `.matchesCounted`.
    case countMatches(key: EndpointKey, document: BodyHandle, query: BodySearchQuery)
    /// Look for the first match of a search at or after `offset` (wrapping) in the background,
    /// reporting `.matchFound`; a newer one for the same body cancels it.
    case find(key: EndpointKey, document: BodyHandle, query: BodySearchQuery, from: Int)
    /// Run a query or jq filter over a body, reporting `.selectionFinished`.
    case select(key: EndpointKey, id: Int, document: BodyHandle, kind: BodySelectionKind)
    /// Copy the value on `line` (OSC 52), formatted off the UI thread.
    case copyValue(document: BodyHandle, line: Int)
    /// Save a body to `path`; never replaces a file unless `overwrite`.
    case save(key: EndpointKey, document: BodyHandle, path: String, overwrite: Bool)
    /// Open a body in the pager or editor, leaving the terminal to it meanwhile.
    case open(document: BodyHandle, program: BodyProgram)
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

enum BodyFeature: AppFeature {
    /// What the slice reads of the rest of the app.
    struct Context {
        /// The selected endpoint: keys act on its body.
        var selected: EndpointKey?
        /// Requests in flight, by ticket (a stream's report for one that finished is stale).
        var inFlight: [Int: RequestTicket]
        /// The last result per endpoint.
        var responses: [EndpointKey: CallOutcome]
        /// Whether secrets are shown in clear.
        var revealsSecrets: Bool
        /// Endpoints whose answer is a WebSocket conversation (their bodies are not built again).
        var conversations: [EndpointKey: WebSocketPane]
        /// Where the Body tab's content is on screen.
        var area: Rect
        /// How far a page key moves in a list.
        var pageHeight: Int
    }

    static func context(of app: AppState) -> Context {
        let layout = app.layout
        return Context(
            selected: app.selectedBodyKey, inFlight: app.inFlight, responses: app.responses, revealsSecrets: app.revealsSecrets,
            conversations: app.webSocket.panes, area: layout.responseContent, pageHeight: app.pageHeight)
    }

    static func reduce(_ state: inout BodyState, _ action: BodyAction, _ shell: inout AppShell, _ context: Context) -> [AppEffect] {
        switch action {
        case .buildProgressed(let key, let generation, let status, let preview):
            buildProgressed(key: key, generation: generation, status: status, preview: preview, state: &state)
        case .built(let key, let generation, let document):
            return built(key: key, generation: generation, document: document.document, state: &state)
        case .buildStopped(let key, let generation):
            buildStopped(key: key, generation: generation, state: &state)
        case .matchesCounted(let key, let document, let query, let count):
            matchesCounted(key: key, document: document, query: query, count: count, state: &state)
        case .matchFound(let key, let document, let query, let scan):
            matchFound(key: key, document: document, query: query, scan: scan, state: &state)
        case .selectionFinished(let key, let id, let outcome):
            selectionFinished(key: key, id: id, outcome: outcome, state: &state, shell: &shell)
        case .saveFinished(let key, let path, let byteCount, let error):
            saveFinished(key: key, path: path, byteCount: byteCount, error: error, state: &state, shell: &shell)
        case .message(let message):
            shell.notice = message
        case .streamed(let ticket, let update):
            return streamed(ticket: ticket, update: update, state: &state, context)
        case .command(let command):
            return perform(command, state: &state, shell: &shell, context)
        case .promptKey(let command):
            guard let key = context.selected, let prompt = state.panes[key]?.prompt else { return [] }
            return handlePrompt(command, prompt: prompt, key: key, state: &state, shell: &shell, context)
        case .move(let movement, let paging, let wheel):
            move(movement, paging: paging, wheel: wheel, state: &state, context)
        case .moveInEvents(let movement, let paging):
            moveInEvents(movement, paging: paging, state: &state, context)
        case .cancelBuild:
            return cancelBuild(state: &state, shell: &shell, context)
        case .closeLayer:
            return closeLayer(state: &state, shell: &shell, context)
        case .responseArrived(let record):
            return start(for: record, state: &state, context)
        case .dropped(let key):
            let effects = stopWork(key, state: &state)
            state.streams[key] = nil
            return effects
        case .maskingChanged:
            return rebuildMasked(state: &state, context)
        case .streamEnded(let ticket, let key, let cancelled):
            streamEnded(ticket: ticket, key: key, cancelled: cancelled, state: &state)
        }
        return []
    }
}

extension AppState {
    /// The key of the selected endpoint's body pane.
    var selectedBodyKey: EndpointKey? { selectedEndpoint?.key }

    /// The selected endpoint's body pane.
    package var selectedBodyPane: BodyPane? { selectedBodyKey.flatMap { body.panes[$0] } }

    /// The stream shown for the selected endpoint, if its latest answer is (or was) one.
    package var selectedStream: ResponseStream? { selectedBodyKey.flatMap { body.streams[$0] } }

    /// Whether Body tab keys apply: the response pane has focus and shows a body.
    var isInBody: Bool { focus == .response && tab == .body && selectedBodyPane != nil }

    /// Whether a body is being formatted or queried (the runtime is not idle until it is done).
    package var hasBodyWorkInProgress: Bool { body.hasWorkInProgress }

    /// Puts the cursor of the selected body on `line`, unfolding it first (benchmarks place it so).
    package mutating func placeBodyCursor(atLine line: Int) {
        guard let key = selectedBodyKey, var layer = body.panes[key]?.main else { return }
        layer.view.unfoldAll(in: layer.document)
        layer.view.moveCursor(toLine: line, in: layer.document)
        body.panes[key]?.main = layer
    }
}
