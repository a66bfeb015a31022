import Catalog
import BodyViewer
import DispatcherCore
import FoundationEssentials
import Sessions
import TerminalKit
import TextSupport

/// The Body tab: building documents off the UI thread, keys, the input line, and the results of the
/// background work (counts, queries, saves). Every operation here touches a screenful of lines at most.
extension BodyFeature {
    /// Columns h/l and ←/→ scroll sideways.
    static let horizontalStep = 8

    // MARK: Building

    /// A response arrived: start formatting its body (cancelling the build of the previous one).
    static func start(for record: CallOutcome, state: inout BodyState, _ context: Context) -> [AppEffect] {
        let key = record.call.endpoint
        let streamed = state.panes[key].flatMap { $0.isStreamed ? $0 : nil }
        let effects = stopWork(key, state: &state)
        guard let response = record.exchange.response else { return effects }
        let generation = state.nextGeneration
        state.nextGeneration += 1
        var pane = BodyPane(generation: generation, byteCount: response.bodySize)
        if let streamed {
            // The stream's last view (cursor, folds) and input line carry over to the whole body.
            pane.main = streamed.main
            pane.prompt = streamed.prompt
        }
        state.panes[key] = pane
        let contentType = response.headers["Content-Type"]
        let masking = masking(for: record, context)
        if let file = response.downloadedFile {
            return effects + [.body(.buildFromFile(key: key, generation: generation, path: file.path, contentType: contentType, masking: masking))]
        }
        return effects + [.body(.build(key: key, generation: generation, data: response.body, contentType: contentType, masking: masking))]
    }

    /// What a body is built with: every secret value its request resolved, typed, answered or
    /// captured is masked (a server may echo a token back) until `v` reveals them; nil when there
    /// is nothing to mask.
    static func masking(for record: CallOutcome, _ context: Context) -> Redactor? {
        guard !context.revealsSecrets, !record.redactor.knownValues.isEmpty else { return nil }
        return record.redactor
    }

    /// `v` changed what bodies show: the bodies whose requests had secrets to mask are built again.
    static func rebuildMasked(state: inout BodyState, _ context: Context) -> [AppEffect] {
        var effects: [AppEffect] = []
        for key in state.panes.keys.sorted(by: { $0.description < $1.description }) {
            guard let record = context.responses[key], state.streams[key]?.isOpen != true, context.conversations[key] == nil,
                !record.redactor.knownValues.isEmpty
            else { continue }
            effects += start(for: record, state: &state, context)
        }
        return effects
    }

    static func buildProgressed(key: EndpointKey, generation: Int, status: BodyBuildStatus, preview: BodyHandle?, state: inout BodyState) {
        guard var pane = state.panes[key], pane.generation == generation, pane.building != nil else { return }
        pane.building = status
        if let preview, pane.main == nil { pane.main = BodyLayer(document: preview.document) }
        state.panes[key] = pane
    }

    static func built(key: EndpointKey, generation: Int, document: BodyDocument, state: inout BodyState) -> [AppEffect] {
        guard var pane = state.panes[key], pane.generation == generation, pane.building != nil else { return [] }
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
        state.panes[key] = pane
        // Bytes that came while this build ran get the next one.
        return state.streams[key]?.isOpen == true ? buildStreamed(key, state: &state) : []
    }

    static func buildStopped(key: EndpointKey, generation: Int, state: inout BodyState) {
        guard var pane = state.panes[key], pane.generation == generation, pane.building != nil else { return }
        pane.building = nil
        pane.failure = "Formatting stopped."
        state.panes[key] = pane
    }

    /// Esc while the selected body is formatting: stop it, keeping the preview if there is one.
    static func cancelBuild(state: inout BodyState, shell: inout AppShell, _ context: Context) -> [AppEffect] {
        guard let key = context.selected, var pane = state.panes[key], pane.building != nil else { return [] }
        pane.building = nil
        if let preview = pane.main {
            pane.failure = "Formatting cancelled: showing the first \(BodyNumberFormat.grouped(preview.document.lineCount)) lines only."
        } else {
            pane.failure = "Formatting cancelled: r resends the request to try again."
        }
        state.panes[key] = pane
        shell.notice = "Formatting cancelled."
        return [.body(.cancel(key: key, work: .build))]
    }

    /// Esc in the Body tab peels one layer: a running query, then the query shown, then the search.
    static func closeLayer(state: inout BodyState, shell: inout AppShell, _ context: Context) -> [AppEffect] {
        guard let key = context.selected, var pane = state.panes[key] else { return [] }
        if pane.pendingSelection != nil {
            pane.pendingSelection = nil
            state.panes[key] = pane
            shell.notice = "Cancelled."
            return [.body(.cancel(key: key, work: .selection))]
        }
        if pane.active?.view.search != nil {
            pane.active?.view.clearSearch()
            state.panes[key] = pane
            return [.body(.cancel(key: key, work: .count)), .body(.cancel(key: key, work: .find))]
        }
        if pane.selection != nil {
            pane.selection = nil
            state.panes[key] = pane
        }
        return []
    }

    // MARK: Keys

    /// Moves in the selected body.
    static func move(_ movement: AppReducer.Movement, paging: Bool, wheel: Bool, state: inout BodyState, _ context: Context) {
        updateActiveLayer(&state, context) { layer in
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
    }

    /// Carries out a Body tab command.
    static func perform(_ command: BodyCommand, state: inout BodyState, shell: inout AppShell, _ context: Context) -> [AppEffect] {
        guard let key = context.selected, let pane = state.panes[key] else { return [] }
        guard let layer = pane.active else {
            shell.notice = pane.building != nil ? "The body is still being formatted: Esc cancels." : "No body to act on."
            return []
        }
        let document = layer.document
        switch command {
        case .scrollLeft, .scrollRight:
            guard !layer.view.isWrapping else {
                shell.notice = "Long lines wrap: w turns wrapping off to scroll sideways."
                return []
            }
            let step = command == .scrollLeft ? -horizontalStep : horizontalStep
            updateActiveLayer(&state, context) { $0.view.scrollHorizontally(by: step, in: $0.document) }
        case .toggleFold, .foldAll, .unfoldAll, .matchingBracket:
            guard document.isFoldable else {
                shell.notice = "Only JSON bodies fold."
                return []
            }
            updateActiveLayer(&state, context) { layer in
                switch command {
                case .toggleFold: layer.view.toggleFoldAtCursor(in: layer.document)
                case .foldAll: layer.view.foldAll(in: layer.document)
                case .unfoldAll: layer.view.unfoldAll(in: layer.document)
                default: layer.view.jumpToMatchingBracket(in: layer.document)
                }
            }
        case .toggleWrap:
            updateActiveLayer(&state, context) { $0.view.toggleWrap(in: $0.document) }
            shell.notice = state.panes[key]?.active?.view.isWrapping == true ? "Wrapping long lines." : "Not wrapping: h/l scroll sideways."
        case .toggleLineNumbers:
            updateActiveLayer(&state, context) { $0.view.toggleLineNumbers(in: $0.document) }
        case .search:
            var effects: [AppEffect] = []
            if layer.view.search != nil { effects += [.body(.cancel(key: key, work: .count)), .body(.cancel(key: key, work: .find))] }
            updateActiveLayer(&state, context) { $0.view.clearSearch() }
            openPrompt(.search, key: key, state: &state)
            return effects
        case .nextMatch, .previousMatch:
            guard layer.view.search != nil else {
                shell.notice = "No search: / starts one."
                return []
            }
            var outcome = BodySearchOutcome.notFound
            updateActiveLayer(&state, context) { layer in
                outcome = command == .nextMatch ? layer.view.findNext(in: layer.document) : layer.view.findPrevious(in: layer.document)
            }
            switch outcome {
            case .found(wrapped: true): shell.notice = command == .nextMatch ? "Search wrapped to the top." : "Search wrapped to the end."
            case .found: break
            case .notFound: shell.notice = "No match."
            case .pending: break
            }
        case .query, .jq:
            guard let main = pane.main, pane.building == nil, main.document.isComplete else {
                shell.notice = "Wait until the body is formatted (Esc cancels formatting)."
                return []
            }
            if command == .query, !main.document.isFoldable {
                shell.notice = "JSONPath queries need a JSON body; | pipes it through jq."
                return []
            }
            openPrompt(command == .query ? .query : .jq, key: key, state: &state)
        case .copyValue:
            return [.body(.copyValue(document: BodyHandle(document), line: layer.view.cursorLine))]
        case .save:
            let endpoint = context.responses[key]?.call.endpoint.endpoint ?? "body"
            let suffix = pane.selection == nil ? "" : "-selection"
            openPrompt(.save, key: key, text: "\(endpoint)\(suffix).\(document.fileExtension)", state: &state)
        case .openInPager:
            return [.body(.open(document: BodyHandle(document), program: .pager))]
        case .openInEditor:
            return [.body(.open(document: BodyHandle(document), program: .editor))]
        }
        return []
    }

    static func openPrompt(_ kind: BodyPrompt.Kind, key: EndpointKey, text: String = "", state: inout BodyState) {
        state.panes[key]?.prompt = BodyPrompt(kind: kind, input: InputState(text: text))
    }

    // MARK: The input line

    /// Commands while the Body tab's input line is open (editing, Enter, Esc), or its question.
    static func handlePrompt(
        _ command: Command, prompt: BodyPrompt, key: EndpointKey, state: inout BodyState, shell: inout AppShell, _ context: Context
    ) -> [AppEffect] {
        if case .confirmOverwrite(let path) = prompt.kind {
            switch command {
            case .confirm:
                state.panes[key]?.prompt = nil
                guard let document = state.panes[key]?.active?.document else { return [] }
                return [.body(.save(key: key, document: BodyHandle(document), path: path, overwrite: true))]
            case .decline:
                state.panes[key]?.prompt = nil
                shell.notice = "Not saved: \(path) is left as it was."
            default:
                break
            }
            return []
        }
        var prompt = prompt
        switch command {
        case .cancelInput:
            state.panes[key]?.prompt = nil
            if prompt.kind == .search {
                updateActiveLayer(&state, context) { $0.view.clearSearch() }
                return [.body(.cancel(key: key, work: .count)), .body(.cancel(key: key, work: .find))]
            }
            return []
        case .accept:
            state.panes[key]?.prompt = nil
            return commitPrompt(prompt, key: key, state: &state)
        case .edit(let edit):
            prompt.input.apply(edit)
            state.panes[key]?.prompt = prompt
            return prompt.kind == .search ? searchIncrementally(prompt.input.text, key: key, state: &state, context) : []
        default:
            return []
        }
    }

    /// Searches again from where the search began, as the query is typed, and recounts in the
    /// background; a match past `searchScanBytes` is found in the background too (each key
    /// replaces the previous key's scan).
    static func searchIncrementally(_ text: String, key: EndpointKey, state: inout BodyState, _ context: Context) -> [AppEffect] {
        let query = text.isEmpty ? nil : BodySearchQuery(text)
        var document: BodyDocument?
        var outcome = BodySearchOutcome.notFound
        var origin = 0
        updateActiveLayer(&state, context) { layer in
            outcome = layer.view.search(for: query, in: layer.document, scanning: BodyState.searchScanBytes)
            origin = layer.view.search?.origin ?? 0
            document = layer.document
        }
        guard let query, let document else { return [.body(.cancel(key: key, work: .count)), .body(.cancel(key: key, work: .find))] }
        let handle = BodyHandle(document)
        let find: AppEffect = outcome == .pending
            ? .body(.find(key: key, document: handle, query: query, from: origin)) : .body(.cancel(key: key, work: .find))
        return [find, .body(.countMatches(key: key, document: handle, query: query))]
    }

    static func commitPrompt(_ prompt: BodyPrompt, key: EndpointKey, state: inout BodyState) -> [AppEffect] {
        let text = prompt.input.text
        switch prompt.kind {
        case .search, .confirmOverwrite:
            return []
        case .query, .jq:
            let trimmed = text.trimmedSpaces
            guard !trimmed.isEmpty, let main = state.panes[key]?.main else { return [] }
            let kind: BodySelectionKind = prompt.kind == .query ? .query(trimmed) : .jq(trimmed)
            let id = state.nextGeneration
            state.nextGeneration += 1
            state.panes[key]?.pendingSelection = (id, kind)
            return [.body(.select(key: key, id: id, document: BodyHandle(main.document), kind: kind))]
        case .save:
            let path = text.trimmedSpaces
            guard !path.isEmpty, let document = state.panes[key]?.active?.document else { return [] }
            return [.body(.save(key: key, document: BodyHandle(document), path: path, overwrite: false))]
        }
    }

    // MARK: Results of background work

    static func matchesCounted(key: EndpointKey, document: BodyHandle, query: BodySearchQuery, count: BodyMatchCount, state: inout BodyState) {
        guard var pane = state.panes[key] else { return }
        if pane.main?.document === document.document {
            pane.main?.view.updateMatchCount(count, for: query)
        } else if pane.selection?.layer.document === document.document {
            pane.selection?.layer.view.updateMatchCount(count, for: query)
        } else {
            return
        }
        state.panes[key] = pane
    }

    /// A background scan found where a search's first match lies: the cursor goes there, unless
    /// the search has moved on since (a newer query's scan replaced this one).
    static func matchFound(key: EndpointKey, document: BodyHandle, query: BodySearchQuery, scan: BodyMatchScan, state: inout BodyState) {
        guard var pane = state.panes[key] else { return }
        if pane.main?.document === document.document {
            guard let main = pane.main else { return }
            pane.main?.view.showMatch(scan, for: query, in: main.document)
        } else if let layer = pane.selection?.layer, layer.document === document.document {
            pane.selection?.layer.view.showMatch(scan, for: query, in: layer.document)
        } else {
            return
        }
        state.panes[key] = pane
    }

    static func selectionFinished(
        key: EndpointKey, id: Int, outcome: Result<BodySelectionResult, BodySelectionError>, state: inout BodyState, shell: inout AppShell
    ) {
        guard var pane = state.panes[key], let pending = pane.pendingSelection, pending.id == id else { return }
        pane.pendingSelection = nil
        switch outcome {
        case .success(let result):
            pane.selection = BodySelection(kind: pending.kind, count: result.count, layer: BodyLayer(document: result.document.document))
        case .failure(let error):
            let what = if case .jq = pending.kind { "jq" } else { "Query" }
            // jq writes several lines (the error, then "1 compile error"): the status bar has one.
            let message = error.message.split(whereSeparator: \.isNewline).joined(separator: " ")
            shell.notice = "\(what) failed: \(message)"
        }
        state.panes[key] = pane
    }

    static func saveFinished(
        key: EndpointKey, path: String, byteCount: Int, error: BodySaveError?, state: inout BodyState, shell: inout AppShell
    ) {
        switch error {
        case nil:
            shell.notice = "Saved \(ByteCount.format(byteCount)) to \(path)."
        case .fileExists?:
            state.panes[key]?.prompt = BodyPrompt(kind: .confirmOverwrite(path: path), input: InputState())
        case .couldNotWrite(_, let reason)?:
            shell.notice = "Not saved: could not write \(path): \(reason)."
        }
    }

    // MARK: Helpers

    /// Applies `change` to the layer keys act on, sized to the rows it has on screen.
    static func updateActiveLayer(_ state: inout BodyState, _ context: Context, _ change: (inout BodyLayer) -> Void) {
        guard let key = context.selected, var pane = state.panes.removeValue(forKey: key) else { return }
        if var layer = pane.active {
            layer.fit(BodyPaneLayout(content: context.area, pane: pane).body.size)
            change(&layer)
            pane.active = layer
        }
        state.panes[key] = pane
    }
}

extension BodyState {
    /// Whether the selected body (`key`'s) has a layer to move in.
    func canMove(_ key: EndpointKey?) -> Bool { key.flatMap { panes[$0]?.active } != nil }

    /// Whether `key`'s body is being formatted.
    func isBuilding(_ key: EndpointKey?) -> Bool { key.flatMap { panes[$0]?.building } != nil }

    /// Whether Esc has a layer of `key`'s body to peel: a running query, a search, the query shown.
    func hasLayerToClose(_ key: EndpointKey?) -> Bool {
        guard let pane = key.flatMap({ panes[$0] }) else { return false }
        return pane.pendingSelection != nil || pane.active?.view.search != nil || pane.selection != nil
    }

    /// The input line of `key`'s body, when open.
    func prompt(_ key: EndpointKey?) -> BodyPrompt? { key.flatMap { panes[$0]?.prompt } }
}
