import Catalog
import DispatcherCore
import JSONSupport
import TerminalKit
import TextSupport

/// The Edit tab: changing the selected endpoint's next requests (a draft per endpoint and
/// environment, kept in the state folder as it is made, with undo and redo), and the Vars tab:
/// the placeholders the request uses, with run-time values.
extension AppReducer {
    // MARK: Edit tab

    /// The runner wrote a draft into its catalog file (or could not: the error).
    static func draftWritten(key: DraftKey, error: String?, state: inout AppState) -> [AppEffect] {
        if let error {
            state.notice = "Not written: \(error)"
            return []
        }
        if let edits = state.drafts[key] { state.editor.lastWrite = EditorState.WrittenDraft(key: key, edits: edits) }
        state.notice = "Wrote \(key.endpoint) into its catalog file; the draft is gone (u in the Edit tab puts the file back)."
        return forgetDraft(key, state: &state)
    }

    /// The runner put a catalog file back as it was before `W` (or could not: the error).
    static func catalogFileRestored(key: DraftKey, error: String?, state: inout AppState) -> [AppEffect] {
        state.pendingLoads.remove(.restoreCatalogFile(key: key))
        if let error {
            state.notice = "Not restored: \(error)"
            return []
        }
        guard let written = state.editor.lastWrite, written.key == key else { return [] }
        state.editor.lastWrite = nil
        state.drafts[key] = written.edits
        state.notice = "The catalog file is back as it was before W; \(key.endpoint)'s edits are a draft again."
        return [.saveDrafts(state.draftsByEnvironment)]
    }

    /// The runner added a draft to its catalog as endpoint `id` (or could not: the error).
    static func draftSavedAsEndpoint(key: DraftKey, id: String, error: String?, state: inout AppState) -> [AppEffect] {
        if let error {
            state.notice = "Not saved: \(error)"
            return []
        }
        // The request lives on as the new endpoint: the original follows its catalog again.
        let newKey = EndpointKey(service: key.endpoint.service, endpoint: id)
        state.selectEndpoint(newKey)
        state.notice = "Saved as \(newKey) in its catalog file; \(key.endpoint) is as the catalog has it."
        return forgetDraft(key, state: &state)
    }

    /// Drops a draft kept in a catalog file now, with its undo history.
    static func forgetDraft(_ key: DraftKey, state: inout AppState) -> [AppEffect] {
        state.drafts[key] = nil
        state.undoStack[key] = nil
        state.redoStack[key] = nil
        return [.saveDrafts(state.draftsByEnvironment)]
    }

    /// Moves the Edit tab's cursor; false when the Edit tab is not shown.
    static func moveInEditor(_ movement: Movement, state: inout AppState) -> Bool {
        guard state.isInEditor, let request = state.editedRequest else { return false }
        state.editor.row = movement.applied(to: state.editor.row, count: request.rows.count)
        return true
    }

    /// Carries out an Edit tab command on the row under the cursor.
    static func perform(_ command: EditorCommand, state: inout AppState) -> [AppEffect] {
        guard let key = state.selectedDraftKey, let request = state.editedRequest else { return [] }
        let rows = request.rows
        let row = rows[min(state.editor.row, rows.count - 1)]
        if let entry = state.scratch.entry(service: key.endpoint.service),
            command == .writeToCatalog || command == .saveAsNewEndpoint
        {
            return scope(ScratchFeature.self, \.scratch, .askWhereToSave(entry), &state)
        }
        switch command {
        case .change:
            guard let text = initialText(for: row, in: request) else {
                state.notice = "A form body's fields are its rows below: Enter changes one, a adds one."
                return []
            }
            if row == .body, text.contains("\n") {
                state.notice = "The body has several lines: O edits it in $EDITOR."
                return []
            }
            state.editor.input = EditorState.RowInput(row: row, input: InputState(text: text))
        case .add:
            let target: EditRow
            switch row {
            case .method, .path, .addQuery, .query: target = .addQuery
            case .addFormField, .formField: target = .addFormField
            case .body:
                if case .form = request.body { target = .addFormField } else { target = .addHeader }
            default: target = .addHeader
            }
            state.editor.input = EditorState.RowInput(row: target, input: InputState())
        case .delete:
            return change(key, state: &state) { edits in remove(row, from: &edits, request: request) }
        case .toggle:
            return change(key, state: &state) { edits in toggle(row, in: &edits, request: request) }
        case .undo:
            guard var earlier = state.undoStack[key], let previous = earlier.popLast() else {
                // With no edit left to undo, `u` undoes the last write of this draft.
                if state.editor.lastWrite?.key == key, state.drafts[key] == nil {
                    let effect = AppEffect.restoreCatalogFile(key: key)
                    state.pendingLoads.insert(effect)
                    state.notice = "Putting the catalog file back as it was before W…"
                    return [effect]
                }
                state.notice = "Nothing to undo."
                return []
            }
            state.undoStack[key] = earlier
            state.redoStack[key, default: []].append(state.drafts[key] ?? EndpointEdits())
            return setDraft(previous, for: key, state: &state)
        case .redo:
            guard var undone = state.redoStack[key], let next = undone.popLast() else {
                state.notice = "Nothing to redo."
                return []
            }
            state.redoStack[key] = undone
            state.undoStack[key, default: []].append(state.drafts[key] ?? EndpointEdits())
            return setDraft(next, for: key, state: &state)
        case .revert:
            guard state.drafts[key] != nil else {
                state.notice = "The request is the catalog's already."
                return []
            }
            let effects = change(key, state: &state) { edits in edits = EndpointEdits() }
            state.notice = "Back to the catalog's request (u undoes it)."
            return effects
        case .editBodyExternally:
            guard case .text(let text, let isJSON) = request.body.orEmptyText else {
                state.notice = "A form body is edited field by field here; R then O to edit text instead."
                return []
            }
            let effect = AppEffect.editBodyInEditor(key: key, text: text, isJSON: isJSON)
            state.pendingLoads.insert(effect)
            return [effect]
        case .formatBody:
            return formatBody(request, key: key, state: &state)
        case .writeToCatalog:
            guard let edits = state.drafts[key] else {
                state.notice = "No edits to write: the request is the catalog's."
                return []
            }
            if state.catalog.source.directory == nil {
                state.notice = "The bundled catalogs cannot be written: copy environments/ to a folder and use --catalog."
                return []
            }
            do throws(EditsError) {
                _ = try request.endpoint.applying(edits)
            } catch {
                state.notice = "Not written: \(error.message)."
                return []
            }
            return write(edits, key: key, as: .intoEndpoint, state: &state)
        case .saveAsNewEndpoint:
            if state.catalog.source.directory == nil {
                state.notice = "The bundled catalogs cannot be written: copy environments/ to a folder and use --catalog."
                return []
            }
            state.editor.input = EditorState.RowInput(row: .newEndpointID, input: InputState(text: key.endpoint.endpoint + "Copy"))
        }
        return []
    }

    /// `F`: a JSON body pretty-printed (two spaces), as an edit `u` undoes; the only change to a
    /// body's bytes that is not typed.
    static func formatBody(_ request: EditedRequest, key: DraftKey, state: inout AppState) -> [AppEffect] {
        guard case .text(let text, true) = request.body.orEmptyText else {
            state.notice = "Only a JSON body is formatted; this one is sent as typed."
            return []
        }
        let value: JSONValue
        do throws(JSONParseError) {
            value = try JSONValue.parse(text)
        } catch {
            state.notice = "The body is not valid JSON (\(error)), so it is left as typed."
            return []
        }
        let pretty = value.prettyText()
        guard pretty != text else {
            state.notice = "The JSON body is formatted already."
            return []
        }
        let effects = change(key, state: &state) { edits in edits.body = .text(pretty, isJSON: true) }
        state.notice = "The JSON body is formatted and is sent as it now reads (u undoes it)."
        return effects
    }

    /// Keys while a row is being typed.
    static func typeInEditor(_ command: Command, input: EditorState.RowInput, state: inout AppState) -> [AppEffect] {
        var input = input
        switch command {
        case .cancelInput:
            state.editor.input = nil
            if state.editor.naming != nil {
                state.editor.naming = nil
                state.notice = "Not written: the edits hold a credential, and a catalog gets none."
            }
        case .accept:
            state.editor.input = nil
            guard let key = state.selectedDraftKey, let request = state.editedRequest else { return [] }
            return accept(input.input.text, for: input.row, key: key, request: request, state: &state)
        case .edit(let edit):
            input.input.apply(edit)
            state.editor.input = input
        default:
            break
        }
        return []
    }

    /// The text a row starts with when it is changed; nil for rows that have none.
    static func initialText(for row: EditRow, in request: EditedRequest) -> String? {
        switch row {
        case .method: return request.method.rawValue
        case .path: return request.path
        case .addQuery, .addHeader, .addFormField, .setQuery, .setHeader: return ""
        case .query(let index): return request.query.indices.contains(index) ? itemText(request.query[index], separator: "=") : ""
        case .header(let index): return request.headers.indices.contains(index) ? itemText(request.headers[index], separator: ": ") : ""
        case .inheritedHeader(let name):
            return request.inherited.first { Headers.sameName($0.name, name) }.map { "\($0.name): \($0.value)" }
        case .body:
            switch request.body {
            case .none: return ""
            case .text(let text, let isJSON):
                // Short JSON is typed on one line; long or multi-line text goes to $EDITOR (O).
                if isJSON, text.contains("\n"), let value = try? JSONValue.parse(text) {
                    let compact = value.compactText
                    if compact.utf8.count <= 200 { return compact }
                }
                return text
            case .form: return nil
            }
        case .formField(let index):
            guard case .form(let fields) = request.body, fields.indices.contains(index) else { return "" }
            return itemText(fields[index], separator: "=")
        case .newEndpointID, .secretName: return ""
        }
    }

    // MARK: Credentials are never written

    /// Writes the edits (`W`, `N`), after asking a secret's name for each credential they write
    /// out: a typed `Authorization`, cookie, API key or token becomes `{{secret.NAME}}` in the file.
    static func write(_ edits: EndpointEdits, key: DraftKey, as write: SecretNaming.Write, state: inout AppState) -> [AppEffect] {
        let credentials = edits.typedCredentials(service: key.endpoint.service)
        guard credentials.isEmpty else {
            state.editor.naming = SecretNaming(key: key, write: write, credentials: credentials)
            askSecretName(state: &state)
            return []
        }
        switch write {
        case .intoEndpoint:
            // Asked first: the file changes (the previous text is kept; `u` in the Edit tab restores it).
            let file = state.catalog.service(key.endpoint.service)?.file ?? key.endpoint.service
            state.overlay = .confirmWrite(WriteQuestion(key: key, edits: edits, file: file, changes: edits.changeSummary))
            return []
        case .asNewEndpoint(let id):
            state.notice = "Saving the request as \(key.endpoint.service)/\(id)…"
            return [.saveDraftAsEndpoint(key: key, edits: edits, id: id)]
        }
    }

    /// Asks the name of the next credential's secret.
    private static func askSecretName(state: inout AppState) {
        guard let naming = state.editor.naming, naming.names.count < naming.credentials.count else { return }
        let credential = naming.credentials[naming.names.count]
        // Asked in the Edit tab, wherever W was pressed.
        state.tab = .edit
        state.focus = .response
        state.editor.input = EditorState.RowInput(row: .secretName, input: InputState(text: credential.suggestedName))
        state.notice = "The \(credential.place) is a credential: the catalog gets {{secret.NAME}} instead. Name it (Enter), Esc writes nothing."
    }

    /// A secret's name was typed: the next is asked, or, all named, the edits are written with the
    /// placeholders and the values kept as run-time secrets (never saved).
    private static func nameSecret(_ text: String, state: inout AppState) -> [AppEffect] {
        guard var naming = state.editor.naming else { return [] }
        let name = text.trimmed
        let valid = !name.isEmpty && !(name.first?.isNumber ?? true) && name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
        }
        guard valid else {
            askSecretName(state: &state)
            state.notice = "'\(name)' is not a secret name: use letters, digits and _ (SHOP_TOKEN)."
            return []
        }
        naming.names.append(name)
        state.editor.naming = naming
        guard naming.names.count == naming.credentials.count else {
            askSecretName(state: &state)
            return []
        }
        state.editor.naming = nil
        let key = naming.key
        let edits = (state.drafts[key] ?? EndpointEdits()).replacingCredentials(service: key.endpoint.service, names: naming.names)
        let environment = key.environmentKey
        for (credential, name) in zip(naming.credentials, naming.names) { state.runtimeValues[environment, default: [:]]["secret.\(name)"] = credential.value }
        let effects = write(edits, key: key, as: naming.write, state: &state)
        let names = naming.names.map { "{{secret.\($0)}}" }.joined(separator: ", ")
        state.notice = (state.notice ?? "") + " Written as \(names); the values stay for this session only: set them in .env beside the catalog."
        return effects
    }

    private static func itemText(_ item: EndpointEdits.Item, separator: String) -> String {
        item.value.map { "\(item.name)\(separator)\($0)" } ?? item.name
    }

    /// Applies the text typed for a row.
    static func accept(_ text: String, for row: EditRow, key: DraftKey, request: EditedRequest, state: inout AppState) -> [AppEffect] {
        switch row {
        case .method:
            guard let method = HTTPMethod(rawValue: text.trimmed.uppercased()) else {
                state.notice = "'\(text.trimmed)' is not a method (GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS)."
                return []
            }
            return change(key, state: &state) { $0.method = method }
        case .path:
            let path = text.trimmed
            guard path.hasPrefix("/") || path.isEmpty else {
                state.notice = "A path starts with '/': the base URL comes from the environment."
                return []
            }
            return change(key, state: &state) { $0.path = path }
        case .addQuery, .query:
            guard let item = parseItem(text, separator: "=") else { return [] }
            return change(key, state: &state) { edits in
                var query = edits.query ?? request.query
                if case .query(let index) = row, query.indices.contains(index) { query[index] = item } else { query.append(item) }
                edits.query = query
            }
        case .addHeader, .header, .inheritedHeader:
            guard let item = parseItem(text, separator: ":"), item.value != nil else {
                state.notice = "Write a header as 'Name: value'."
                return []
            }
            return change(key, state: &state) { edits in
                var headers = edits.headers ?? request.headers
                if case .header(let index) = row, headers.indices.contains(index) { headers[index] = item } else { headers.append(item) }
                edits.headers = headers
            }
        case .body:
            // The one-line field shows multi-line JSON compacted: given back unchanged, the body keeps
            // its bytes (a body is sent as written; formatting is never a side effect).
            if case .text(let current, true) = request.body.orEmptyText, current != text, current.contains("\n"),
                let value = try? JSONValue.parse(current), value.compactText == text
            {
                return []
            }
            return setBody(text, key: key, request: request, state: &state)
        case .setQuery, .setHeader:
            return setItem(text, isHeader: row == .setHeader, key: key, request: request, state: &state)
        case .newEndpointID:
            let id = text.trimmed
            let valid = !id.isEmpty && id.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2D || byte == 0x5F || byte == 0x2E
            }
            guard valid else {
                state.notice = "'\(id)' is not an endpoint id: use letters, digits, '-', '_' and '.'."
                return []
            }
            guard state.catalog.endpoint(EndpointKey(service: key.endpoint.service, endpoint: id)) == nil else {
                state.notice = "\(key.endpoint.service)/\(id) exists already: pick another id."
                return []
            }
            return write(state.drafts[key] ?? EndpointEdits(), key: key, as: .asNewEndpoint(id), state: &state)
        case .secretName:
            return nameSecret(text, state: &state)
        case .addFormField, .formField:
            guard let item = parseItem(text, separator: "=") else { return [] }
            return change(key, state: &state) { edits in
                guard case .form(var fields) = edits.body ?? request.body else { return }
                if case .formField(let index) = row, fields.indices.contains(index) { fields[index] = item } else { fields.append(item) }
                edits.body = .form(fields)
            }
        }
    }

    /// Sets the body from text (typed or back from the editor); JSON is checked at once.
    static func setBody(_ text: String, key: DraftKey, request: EditedRequest, state: inout AppState) -> [AppEffect] {
        let wasJSON: Bool = if case .text(_, let isJSON) = request.body.orEmptyText { isJSON } else { false }
        let trimmed = text.trimmed
        let isJSON = wasJSON || trimmed.hasPrefix("{") || trimmed.hasPrefix("[")
        let effects = change(key, state: &state) { edits in
            edits.body = trimmed.isEmpty ? EndpointEdits.Body.none : .text(text, isJSON: isJSON)
        }
        if isJSON, !trimmed.isEmpty {
            do {
                _ = try JSONValue.parse(text)
            } catch {
                state.notice = "The JSON body does not parse (line \(error.line), column \(error.column): \(error.reason)): fix it before sending."
            }
        }
        return effects
    }

    /// `name=value` (a query item, a form field) or `Name: value` (a header); a lone name is a bare item.
    static func parseItem(_ text: String, separator: Character) -> EndpointEdits.Item? {
        let trimmed = text.trimmed
        guard !trimmed.isEmpty else { return nil }
        guard let mark = trimmed.firstIndex(of: separator) else { return EndpointEdits.Item(name: trimmed, value: nil) }
        let name = trimmed[..<mark].trimmed
        guard !name.isEmpty else { return nil }
        return EndpointEdits.Item(name: name, value: trimmed[trimmed.index(after: mark)...].trimmed)
    }

    static func remove(_ row: EditRow, from edits: inout EndpointEdits, request: EditedRequest) {
        switch row {
        case .query(let index):
            var query = edits.query ?? request.query
            if query.indices.contains(index) { query.remove(at: index) }
            edits.query = query
        case .header(let index):
            var headers = edits.headers ?? request.headers
            if headers.indices.contains(index) { headers.remove(at: index) }
            edits.headers = headers
        case .inheritedHeader(let name):
            toggleInherited(name, in: &edits)
        case .formField(let index):
            guard case .form(var fields) = edits.body ?? request.body else { return }
            if fields.indices.contains(index) { fields.remove(at: index) }
            edits.body = .form(fields)
        case .body:
            edits.body = EndpointEdits.Body.none
        default:
            break
        }
    }

    static func toggle(_ row: EditRow, in edits: inout EndpointEdits, request: EditedRequest) {
        switch row {
        case .query(let index):
            var query = edits.query ?? request.query
            if query.indices.contains(index) { query[index].isEnabled.toggle() }
            edits.query = query
        case .header(let index):
            var headers = edits.headers ?? request.headers
            if headers.indices.contains(index) { headers[index].isEnabled.toggle() }
            edits.headers = headers
        case .inheritedHeader(let name):
            toggleInherited(name, in: &edits)
        case .formField(let index):
            guard case .form(var fields) = edits.body ?? request.body else { return }
            if fields.indices.contains(index) { fields[index].isEnabled.toggle() }
            edits.body = .form(fields)
        default:
            break
        }
    }

    private static func toggleInherited(_ name: String, in edits: inout EndpointEdits) {
        if let existing = edits.removedHeaders.first(where: { Headers.sameName($0, name) }) {
            edits.removedHeaders.remove(existing)
        } else {
            edits.removedHeaders.insert(name)
        }
    }

    /// Changes the draft of `key`, remembering the old one for undo, and keeps it.
    static func change(_ key: DraftKey, state: inout AppState, _ body: (inout EndpointEdits) -> Void) -> [AppEffect] {
        let before = state.drafts[key] ?? EndpointEdits()
        var after = before
        body(&after)
        guard after != before else { return [] }
        state.undoStack[key, default: []].append(before)
        if let count = state.undoStack[key]?.count, count > AppState.undoLimit { state.undoStack[key]?.removeFirst(count - AppState.undoLimit) }
        state.redoStack[key] = nil
        return setDraft(after, for: key, state: &state)
    }

    /// Sets a draft (normalized: parts equal to the catalog's are dropped) and asks for it to be kept.
    static func setDraft(_ edits: EndpointEdits, for key: DraftKey, state: inout AppState) -> [AppEffect] {
        guard let endpoint = state.catalog.endpoint(key.endpoint)?.endpoint else { return [] }
        let normalized = EditedRequest.normalized(edits, for: endpoint)
        state.drafts[key] = normalized.isEmpty ? nil : normalized
        if let request = state.editedRequest { state.editor.row = min(state.editor.row, request.rows.count - 1) }
        return [.saveDrafts(state.draftsByEnvironment)]
    }

    // MARK: Vars tab

    /// Moves the Vars tab's cursor; false when the Vars tab is not shown.
    static func moveInVariables(_ movement: Movement, state: inout AppState) -> Bool {
        guard state.isInVariables else { return false }
        state.variablesTab.row = movement.applied(to: state.variablesTab.row, count: state.variableRows.count)
        return true
    }

    static func perform(_ command: VariablesCommand, state: inout AppState) -> [AppEffect] {
        let rows = state.variableRows
        guard let environment = state.activeEnvironmentKey, rows.indices.contains(state.variablesTab.row) else {
            state.notice = "The request uses no placeholders."
            return []
        }
        let variable = rows[state.variablesTab.row]
        switch command {
        case .change:
            let current = state.activeValues[variable.name] ?? (variable.isSecret ? "" : variable.value ?? "")
            state.variablesTab.input = VariablesState.ValueInput(name: variable.name, input: InputState(text: current))
        case .clear:
            guard state.runtimeValues[environment]?[variable.name] != nil else {
                state.notice = "\(variable.name) has no run-time value."
                return []
            }
            state.runtimeValues[environment]?[variable.name] = nil
            if state.runtimeValues[environment]?.isEmpty == true { state.runtimeValues[environment] = nil }
            state.notice = "\(variable.name) follows the catalog again."
            return [.saveValues(state.persistableValues)]
        }
        return []
    }

    /// Keys while a run-time value is being typed.
    static func typeValue(_ command: Command, input: VariablesState.ValueInput, state: inout AppState) -> [AppEffect] {
        var input = input
        switch command {
        case .cancelInput:
            state.variablesTab.input = nil
        case .accept:
            state.variablesTab.input = nil
            guard let environment = state.activeEnvironmentKey else { return [] }
            state.runtimeValues[environment, default: [:]][input.name] = input.input.text
            let kept = state.persistableValues[environment]?[input.name] != nil
            state.notice = kept
                ? "\(input.name) is set for \(environment.environment) (kept for the next runs)."
                : "\(input.name) is set for \(environment.environment) until you quit (secrets are never written down)."
            return [.saveValues(state.persistableValues)]
        case .edit(let edit):
            input.input.apply(edit)
            state.variablesTab.input = input
        default:
            break
        }
        return []
    }
}

extension EndpointEdits.Body {
    /// A body as text to edit: none is empty text.
    var orEmptyText: EndpointEdits.Body {
        if case .none = self { return .text("", isJSON: false) }
        return self
    }
}

extension AppState {
    /// Whether the Edit tab's keys apply: the response pane shows the Edit tab.
    /// Whatever pane has focus: the tab is where the eye is, so Enter changes its row rather than
    /// sending (C-s sends); moving keys still move in the focused pane.
    var isInEditor: Bool { tab == .edit && selectedEndpoint != nil }

    /// Whether the Vars tab's keys apply.
    var isInVariables: Bool { tab == .variables && selectedEndpoint != nil }

    /// The placeholders of the selected endpoint's request (with its edits), with their values and sources.
    package var variableRows: [ResolvedVariable] {
        guard let service = activeService, let environment = activeEnvironment, let endpoint = selectedEndpoint else { return [] }
        let edited = (try? endpoint.applying(selectedEdits)) ?? endpoint
        let builder = RequestBuilder(service: service, environment: environment, secrets: secrets, deferredToken: service.authRefresh?.into)
        let captured = activeEnvironmentKey.map { capturedValues(for: edited, environment: $0, mode: mode) } ?? [:]
        var rows = builder.variables(for: edited, values: activeValues, captured: captured, revealingSecrets: revealsSecrets)
        // Captured values that look like secrets are masked like secrets.
        for index in rows.indices where !revealsSecrets && rows[index].value != nil && Redactor.standard.isSensitive(name: rows[index].name) {
            rows[index].value = Redactor.mask
        }
        return rows
    }
}

extension EndpointEdits {
    /// What the edits change, one short line each, for the question before they are written.
    var changeSummary: [String] {
        var lines: [String] = []
        if let method { lines.append("method: \(method.rawValue)") }
        if let path { lines.append("path: \(path)") }
        if let query { lines.append("query: " + query.map(\.name).joined(separator: ", ")) }
        if let headers { lines.append("headers: " + headers.map(\.name).joined(separator: ", ")) }
        if !removedHeaders.isEmpty { lines.append("headers turned off: " + removedHeaders.sorted().joined(separator: ", ")) }
        if body != nil { lines.append("body") }
        return lines
    }
}
