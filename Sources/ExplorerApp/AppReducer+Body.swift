import Catalog
import BodyViewer
import DispatcherCore
import FoundationEssentials
import Sessions
import TerminalKit
import TextSupport

/// The Body tab: building documents off the UI thread, keys, the input line, and the results of the
/// background work (counts, queries, saves). Every operation here touches a screenful of lines at most.
extension AppReducer {
    /// Columns h/l and ←/→ scroll sideways.
    static let horizontalStep = 8

    // MARK: Building

    /// A response arrived: start formatting its body (cancelling the build of the previous one).
    static func startBody(for record: CallOutcome, state: inout AppState) -> [AppEffect] {
        let key = record.call.endpoint
        let streamed = state.bodies[key].flatMap { $0.isStreamed ? $0 : nil }
        let effects = stopBodyWork(key, state: &state)
        guard let response = record.exchange.response else { return effects }
        let generation = state.nextBodyGeneration
        state.nextBodyGeneration += 1
        var pane = BodyPane(generation: generation, byteCount: response.bodySize)
        if let streamed {
            // The stream's last view (cursor, folds) and input line carry over to the whole body.
            pane.main = streamed.main
            pane.prompt = streamed.prompt
        }
        state.bodies[key] = pane
        let contentType = response.headers["Content-Type"]
        let masking = bodyMasking(for: record, state: state)
        if let file = response.downloadedFile {
            return effects + [.buildBodyFromFile(key: key, generation: generation, path: file.path, contentType: contentType, masking: masking)]
        }
        return effects + [.buildBody(key: key, generation: generation, data: response.body, contentType: contentType, masking: masking)]
    }

    /// What a body is built with: every secret value its request resolved, typed, answered or
    /// captured is masked (a server may echo a token back) until `v` reveals them; nil when there
    /// is nothing to mask.
    static func bodyMasking(for record: CallOutcome, state: AppState) -> Redactor? {
        guard !state.revealsSecrets, !record.redactor.knownValues.isEmpty else { return nil }
        return record.redactor
    }

    /// `v` changed what bodies show: the bodies whose requests had secrets to mask are built again.
    static func rebuildMaskedBodies(state: inout AppState) -> [AppEffect] {
        var effects: [AppEffect] = []
        for key in state.bodies.keys.sorted(by: { $0.description < $1.description }) {
            guard let record = state.responses[key], state.streams[key]?.isOpen != true, state.webSocket.panes[key] == nil,
                !record.redactor.knownValues.isEmpty
            else { continue }
            effects += startBody(for: record, state: &state)
        }
        return effects
    }

    static func bodyBuildProgress(key: EndpointKey, generation: Int, status: BodyBuildStatus, preview: BodyHandle?, state: inout AppState) {
        guard var pane = state.bodies[key], pane.generation == generation, pane.building != nil else { return }
        pane.building = status
        if let preview, pane.main == nil { pane.main = BodyLayer(document: preview.document) }
        state.bodies[key] = pane
    }

    static func bodyBuilt(key: EndpointKey, generation: Int, document: BodyDocument, state: inout AppState) -> [AppEffect] {
        guard var pane = state.bodies[key], pane.generation == generation, pane.building != nil else { return [] }
        pane.building = nil
        pane.failure = nil
        // A preview's view carries over (its lines and folds agree with the final document's).
        if var layer = pane.main, layer.document.kind == document.kind {
            // A stream followed at its end keeps following as lines arrive.
            let followed = pane.isStreamed && layer.view.cursorLine >= layer.document.lineCount - 1
            layer.document = document
            if followed { layer.view.moveToEnd(in: document) }
            pane.main = layer
        } else {
            pane.main = BodyLayer(document: document)
        }
        state.bodies[key] = pane
        // Bytes that came while this build ran get the next one.
        return state.streams[key]?.isOpen == true ? buildStreamedBody(key, state: &state) : []
    }

    static func bodyBuildStopped(key: EndpointKey, generation: Int, state: inout AppState) {
        guard var pane = state.bodies[key], pane.generation == generation, pane.building != nil else { return }
        pane.building = nil
        pane.failure = "Formatting stopped."
        state.bodies[key] = pane
    }

    /// Esc while the selected body is formatting: stop it, keeping the preview if there is one.
    static func cancelBodyBuild(state: inout AppState) -> [AppEffect]? {
        guard let key = state.selectedBodyKey, var pane = state.bodies[key], pane.building != nil else { return nil }
        pane.building = nil
        if let preview = pane.main {
            pane.failure = "Formatting cancelled: showing the first \(BodyNumberFormat.grouped(preview.document.lineCount)) lines only."
        } else {
            pane.failure = "Formatting cancelled: r resends the request to try again."
        }
        state.bodies[key] = pane
        state.notice = "Formatting cancelled."
        return [.cancelBodyWork(key: key, work: .build)]
    }

    /// Esc in the Body tab peels one layer: a running query, then the query shown, then the search.
    static func closeBodyLayer(state: inout AppState) -> [AppEffect]? {
        guard state.isInBody, let key = state.selectedBodyKey, var pane = state.bodies[key] else { return nil }
        if pane.pendingSelection != nil {
            pane.pendingSelection = nil
            state.bodies[key] = pane
            state.notice = "Cancelled."
            return [.cancelBodyWork(key: key, work: .selection)]
        }
        if pane.active?.view.search != nil {
            pane.active?.view.clearSearch()
            state.bodies[key] = pane
            return [.cancelBodyWork(key: key, work: .count), .cancelBodyWork(key: key, work: .find)]
        }
        if pane.selection != nil {
            pane.selection = nil
            state.bodies[key] = pane
            return []
        }
        return nil
    }

    // MARK: Keys

    /// Moves in the body; false when the Body tab has nothing to move in.
    static func moveInBody(_ movement: Movement, paging: Bool = false, wheel: Bool = false, state: inout AppState) -> Bool {
        guard state.tab == .body, state.selectedBodyPane?.active != nil else { return false }
        updateActiveLayer(&state) { layer in
            let document = layer.document
            switch movement {
            case .down(let count) where wheel: layer.view.scroll(by: count, in: document)
            case .up(let count) where wheel: layer.view.scroll(by: -count, in: document)
            case .down where paging: layer.view.pageDown(in: document)
            case .up where paging: layer.view.pageUp(in: document)
            case .down(let count): layer.view.moveDown(count, in: document)
            case .up(let count): layer.view.moveUp(count, in: document)
            case .top: layer.view.moveToTop(in: document)
            case .bottom: layer.view.moveToEnd(in: document)
            }
        }
        return true
    }

    /// Carries out a Body tab command.
    static func perform(_ command: BodyCommand, state: inout AppState) -> [AppEffect] {
        guard let key = state.selectedBodyKey, let pane = state.selectedBodyPane else { return [] }
        guard let layer = pane.active else {
            state.notice = pane.building != nil ? "The body is still being formatted: Esc cancels." : "No body to act on."
            return []
        }
        let document = layer.document
        switch command {
        case .scrollLeft, .scrollRight:
            guard !layer.view.isWrapping else {
                state.notice = "Long lines wrap: w turns wrapping off to scroll sideways."
                return []
            }
            let step = command == .scrollLeft ? -horizontalStep : horizontalStep
            updateActiveLayer(&state) { $0.view.scrollHorizontally(by: step, in: $0.document) }
        case .toggleFold, .foldAll, .unfoldAll, .matchingBracket:
            guard document.isFoldable else {
                state.notice = "Only JSON bodies fold."
                return []
            }
            updateActiveLayer(&state) { layer in
                switch command {
                case .toggleFold: layer.view.toggleFoldAtCursor(in: layer.document)
                case .foldAll: layer.view.foldAll(in: layer.document)
                case .unfoldAll: layer.view.unfoldAll(in: layer.document)
                default: layer.view.jumpToMatchingBracket(in: layer.document)
                }
            }
        case .toggleWrap:
            updateActiveLayer(&state) { $0.view.toggleWrap(in: $0.document) }
            state.notice = state.selectedBodyPane?.active?.view.isWrapping == true ? "Wrapping long lines." : "Not wrapping: h/l scroll sideways."
        case .toggleLineNumbers:
            updateActiveLayer(&state) { $0.view.toggleLineNumbers(in: $0.document) }
        case .search:
            var effects: [AppEffect] = []
            if layer.view.search != nil { effects += [.cancelBodyWork(key: key, work: .count), .cancelBodyWork(key: key, work: .find)] }
            updateActiveLayer(&state) { $0.view.clearSearch() }
            openPrompt(.search, state: &state)
            return effects
        case .nextMatch, .previousMatch:
            guard layer.view.search != nil else {
                state.notice = "No search: / starts one."
                return []
            }
            var outcome = BodySearchOutcome.notFound
            updateActiveLayer(&state) { layer in
                outcome = command == .nextMatch ? layer.view.findNext(in: layer.document) : layer.view.findPrevious(in: layer.document)
            }
            switch outcome {
            case .found(wrapped: true): state.notice = command == .nextMatch ? "Search wrapped to the top." : "Search wrapped to the end."
            case .found: break
            case .notFound: state.notice = "No match."
            case .pending: break
            }
        case .query, .jq:
            guard let main = pane.main, pane.building == nil, main.document.isComplete else {
                state.notice = "Wait until the body is formatted (Esc cancels formatting)."
                return []
            }
            if command == .query, !main.document.isFoldable {
                state.notice = "JSONPath queries need a JSON body; | pipes it through jq."
                return []
            }
            openPrompt(command == .query ? .query : .jq, state: &state)
        case .copyValue:
            return [.copyBodyValue(document: BodyHandle(document), line: layer.view.cursorLine)]
        case .save:
            let endpoint = state.selectedResponse?.call.endpoint.endpoint ?? "body"
            let suffix = pane.selection == nil ? "" : "-selection"
            openPrompt(.save, text: "\(endpoint)\(suffix).\(document.fileExtension)", state: &state)
        case .openInPager:
            return [.openBody(document: BodyHandle(document), program: .pager)]
        case .openInEditor:
            return [.openBody(document: BodyHandle(document), program: .editor)]
        }
        return []
    }

    static func openPrompt(_ kind: BodyPrompt.Kind, text: String = "", state: inout AppState) {
        guard let key = state.selectedBodyKey else { return }
        state.bodies[key]?.prompt = BodyPrompt(kind: kind, input: InputState(text: text))
    }

    // MARK: The input line

    /// Commands while the Body tab's input line is open (editing, Enter, Esc), or its question.
    static func handleBodyPrompt(_ command: Command, prompt: BodyPrompt, key: EndpointKey, state: inout AppState) -> [AppEffect] {
        if case .confirmOverwrite(let path) = prompt.kind {
            switch command {
            case .confirm:
                state.bodies[key]?.prompt = nil
                guard let document = state.bodies[key]?.active?.document else { return [] }
                return [.saveBody(key: key, document: BodyHandle(document), path: path, overwrite: true)]
            case .decline:
                state.bodies[key]?.prompt = nil
                state.notice = "Not saved: \(path) is left as it was."
            default:
                break
            }
            return []
        }
        var prompt = prompt
        switch command {
        case .cancelInput:
            state.bodies[key]?.prompt = nil
            if prompt.kind == .search {
                updateActiveLayer(&state) { $0.view.clearSearch() }
                return [.cancelBodyWork(key: key, work: .count), .cancelBodyWork(key: key, work: .find)]
            }
            return []
        case .accept:
            state.bodies[key]?.prompt = nil
            return commitPrompt(prompt, key: key, state: &state)
        case .edit(let edit):
            prompt.input.apply(edit)
            state.bodies[key]?.prompt = prompt
            return prompt.kind == .search ? searchIncrementally(prompt.input.text, key: key, state: &state) : []
        default:
            return []
        }
    }

    /// Bytes a key's search scans on the UI thread; a match further away is looked for in the
    /// background, so typing into a search of a 1 GB body never waits for a scan.
    package static let searchScanBytes = 256 << 10

    /// Searches again from where the search began, as the query is typed, and recounts in the
    /// background; a match past `searchScanBytes` is found in the background too (each key
    /// replaces the previous key's scan).
    static func searchIncrementally(_ text: String, key: EndpointKey, state: inout AppState) -> [AppEffect] {
        let query = text.isEmpty ? nil : BodySearchQuery(text)
        var document: BodyDocument?
        var outcome = BodySearchOutcome.notFound
        var origin = 0
        updateActiveLayer(&state) { layer in
            outcome = layer.view.search(for: query, in: layer.document, scanning: searchScanBytes)
            origin = layer.view.search?.origin ?? 0
            document = layer.document
        }
        guard let query, let document else { return [.cancelBodyWork(key: key, work: .count), .cancelBodyWork(key: key, work: .find)] }
        let handle = BodyHandle(document)
        let find: AppEffect = outcome == .pending
            ? .findInBody(key: key, document: handle, query: query, from: origin) : .cancelBodyWork(key: key, work: .find)
        return [find, .countBodyMatches(key: key, document: handle, query: query)]
    }

    static func commitPrompt(_ prompt: BodyPrompt, key: EndpointKey, state: inout AppState) -> [AppEffect] {
        let text = prompt.input.text
        switch prompt.kind {
        case .search, .confirmOverwrite:
            return []
        case .query, .jq:
            let trimmed = text.trimmedSpaces
            guard !trimmed.isEmpty, let main = state.bodies[key]?.main else { return [] }
            let kind: BodySelectionKind = prompt.kind == .query ? .query(trimmed) : .jq(trimmed)
            let id = state.nextBodyGeneration
            state.nextBodyGeneration += 1
            state.bodies[key]?.pendingSelection = (id, kind)
            return [.selectInBody(key: key, id: id, document: BodyHandle(main.document), kind: kind)]
        case .save:
            let path = text.trimmedSpaces
            guard !path.isEmpty, let document = state.bodies[key]?.active?.document else { return [] }
            return [.saveBody(key: key, document: BodyHandle(document), path: path, overwrite: false)]
        }
    }

    // MARK: Results of background work

    static func bodyMatchCount(key: EndpointKey, document: BodyHandle, query: BodySearchQuery, count: BodyMatchCount, state: inout AppState) {
        guard var pane = state.bodies[key] else { return }
        if pane.main?.document === document.document {
            pane.main?.view.updateMatchCount(count, for: query)
        } else if pane.selection?.layer.document === document.document {
            pane.selection?.layer.view.updateMatchCount(count, for: query)
        } else {
            return
        }
        state.bodies[key] = pane
    }

    /// A background scan found where a search's first match lies: the cursor goes there, unless
    /// the search has moved on since (a newer query's scan replaced this one).
    static func bodyMatchFound(key: EndpointKey, document: BodyHandle, query: BodySearchQuery, scan: BodyMatchScan, state: inout AppState) {
        guard var pane = state.bodies[key] else { return }
        if pane.main?.document === document.document {
            guard let main = pane.main else { return }
            pane.main?.view.showMatch(scan, for: query, in: main.document)
        } else if let layer = pane.selection?.layer, layer.document === document.document {
            pane.selection?.layer.view.showMatch(scan, for: query, in: layer.document)
        } else {
            return
        }
        state.bodies[key] = pane
    }

    static func bodySelectionFinished(key: EndpointKey, id: Int, outcome: Result<BodySelectionResult, BodySelectionError>, state: inout AppState) {
        guard var pane = state.bodies[key], let pending = pane.pendingSelection, pending.id == id else { return }
        pane.pendingSelection = nil
        switch outcome {
        case .success(let result):
            pane.selection = BodySelection(kind: pending.kind, count: result.count, layer: BodyLayer(document: result.document.document))
        case .failure(let error):
            let what = if case .jq = pending.kind { "jq" } else { "Query" }
            // jq writes several lines (the error, then "1 compile error"): the status bar has one.
            let message = error.message.split(whereSeparator: \.isNewline).joined(separator: " ")
            state.notice = "\(what) failed: \(message)"
        }
        state.bodies[key] = pane
    }

    static func bodySaveFinished(key: EndpointKey, path: String, byteCount: Int, error: BodySaveError?, state: inout AppState) {
        switch error {
        case nil:
            state.notice = "Saved \(ByteCount.format(byteCount)) to \(path)."
        case .fileExists?:
            state.bodies[key]?.prompt = BodyPrompt(kind: .confirmOverwrite(path: path), input: InputState())
        case .couldNotWrite(_, let reason)?:
            state.notice = "Not saved: could not write \(path): \(reason)."
        }
    }

    // MARK: Helpers

    /// Applies `change` to the layer keys act on, sized to the rows it has on screen.
    static func updateActiveLayer(_ state: inout AppState, _ change: (inout BodyLayer) -> Void) {
        guard let key = state.selectedBodyKey, var pane = state.bodies.removeValue(forKey: key) else { return }
        if var layer = pane.active {
            layer.fit(BodyPaneLayout(content: state.layout.responseContent, pane: pane).body.size)
            change(&layer)
            pane.active = layer
        }
        state.bodies[key] = pane
    }
}

extension AppState {
    /// The key of the selected endpoint's body pane.
    var selectedBodyKey: EndpointKey? { selectedEndpoint?.key }

    /// The selected endpoint's body pane.
    package var selectedBodyPane: BodyPane? { selectedBodyKey.flatMap { bodies[$0] } }

    /// Whether Body tab keys apply: the response pane has focus and shows a body.
    var isInBody: Bool { focus == .response && tab == .body && selectedBodyPane != nil }

    /// Whether a body is being formatted or queried (the runtime is not idle until it is done).
    package var hasBodyWorkInProgress: Bool { bodies.values.contains { $0.isBusy } }
}
