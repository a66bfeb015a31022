import Catalog
import DispatcherCore
import JSONSupport
import TerminalKit
import TextSupport

/// The Edit tab: changing the selected endpoint's next requests, row by row, as a draft per
/// endpoint and environment, with undo and redo.
extension EditingFeature {
    /// Carries out an Edit tab command on the row under the cursor.
    static func perform(_ command: EditorCommand, _ state: inout EditingState, _ shell: inout AppShell, _ context: Context) -> [AppEffect] {
        guard let key = context.draftKey, let request = context.request(state) else { return [] }
        let rows = request.rows
        let row = rows[min(state.editor.row, rows.count - 1)]
        switch command {
        case .change:
            guard let text = initialText(for: row, in: request) else {
                shell.notice = "A form body's fields are its rows below: \(shell.keys(.editor(.change))) changes one, \(shell.keys(.editor(.add))) adds one."
                return []
            }
            if row == .body, text.contains("\n") {
                shell.notice = "The body has several lines: O edits it in $EDITOR."
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
            return change(key, &state, &shell, context) { edits in remove(row, from: &edits, request: request) }
        case .toggle:
            return change(key, &state, &shell, context) { edits in toggle(row, in: &edits, request: request) }
        case .undo:
            guard var earlier = state.undoStack[key], let previous = earlier.popLast() else {
                // With no edit left to undo, `u` undoes the last write of this draft.
                if state.editor.lastWrite?.key == key, state.drafts[key] == nil {
                    let effect = AppEffect.editing(.restoreCatalogFile(key: key))
                    shell.pendingLoads.insert(effect)
                    shell.notice = "Putting the catalog file back as it was before W…"
                    return [effect]
                }
                shell.notice = "Nothing to undo."
                return []
            }
            state.undoStack[key] = earlier
            state.redoStack[key, default: []].append(state.drafts[key] ?? EndpointEdits())
            return setDraft(previous, for: key, &state, &shell, context)
        case .redo:
            guard var undone = state.redoStack[key], let next = undone.popLast() else {
                shell.notice = "Nothing to redo."
                return []
            }
            state.redoStack[key] = undone
            state.undoStack[key, default: []].append(state.drafts[key] ?? EndpointEdits())
            return setDraft(next, for: key, &state, &shell, context)
        case .revert:
            guard state.drafts[key] != nil else {
                shell.notice = "The request is the catalog's already."
                return []
            }
            let effects = change(key, &state, &shell, context) { edits in edits = EndpointEdits() }
            shell.notice = "Back to the catalog's request (u undoes it)."
            return effects
        case .editBodyExternally:
            guard case .text(let text, let isJSON) = request.body.orEmptyText else {
                shell.notice = "A form body is edited field by field here; R then O to edit text instead."
                return []
            }
            let effect = AppEffect.editing(.editBodyInEditor(key: key, text: text, isJSON: isJSON))
            shell.pendingLoads.insert(effect)
            return [effect]
        case .formatBody:
            return formatBody(request, key: key, &state, &shell, context)
        case .writeToCatalog:
            guard let edits = state.drafts[key] else {
                shell.notice = "No edits to write: the request is the catalog's."
                return []
            }
            if context.catalog.source.directory == nil {
                shell.notice = "The bundled catalogs cannot be written: copy environments/ to a folder and use --catalog."
                return []
            }
            do throws(EditsError) {
                _ = try request.endpoint.applying(edits)
            } catch {
                shell.notice = "Not written: \(error.message)."
                return []
            }
            return write(edits, key: key, as: .intoEndpoint, &state, &shell, context)
        case .saveAsNewEndpoint:
            if context.catalog.source.directory == nil {
                shell.notice = "The bundled catalogs cannot be written: copy environments/ to a folder and use --catalog."
                return []
            }
            state.editor.input = EditorState.RowInput(row: .newEndpointID, input: InputState(text: key.endpoint.endpoint + "Copy"))
        }
        return []
    }

    /// `F`: a JSON body pretty-printed (two spaces), as an edit `u` undoes; the only change to a
    /// body's bytes that is not typed.
    static func formatBody(_ request: EditedRequest, key: DraftKey, _ state: inout EditingState, _ shell: inout AppShell, _ context: Context) -> [AppEffect] {
        guard case .text(let text, true) = request.body.orEmptyText else {
            shell.notice = "Only a JSON body is formatted; this one is sent as typed."
            return []
        }
        let value: JSONValue
        do throws(JSONParseError) {
            value = try JSONValue.parse(text)
        } catch {
            shell.notice = "The body is not valid JSON (\(error)), so it is left as typed."
            return []
        }
        let pretty = value.prettyText()
        guard pretty != text else {
            shell.notice = "The JSON body is formatted already."
            return []
        }
        let effects = change(key, &state, &shell, context) { edits in edits.body = .text(pretty, isJSON: true) }
        shell.notice = "The JSON body is formatted and is sent as it now reads (u undoes it)."
        return effects
    }

    /// Keys while a row is being typed.
    static func typeInEditor(_ command: Command, input: EditorState.RowInput, _ state: inout EditingState, _ shell: inout AppShell, _ context: Context) -> [AppEffect] {
        var input = input
        switch command {
        case .cancelInput:
            state.editor.input = nil
            if state.editor.naming != nil {
                state.editor.naming = nil
                shell.notice = "Not written: the edits hold a credential, and a catalog gets none."
            }
        case .accept:
            state.editor.input = nil
            guard let key = context.draftKey, let request = context.request(state) else { return [] }
            return accept(input.input.text, for: input.row, key: key, request: request, &state, &shell, context)
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

    private static func itemText(_ item: EndpointEdits.Item, separator: String) -> String {
        item.value.map { "\(item.name)\(separator)\($0)" } ?? item.name
    }

    /// Applies the text typed for a row.
    static func accept(_ text: String, for row: EditRow, key: DraftKey, request: EditedRequest, _ state: inout EditingState, _ shell: inout AppShell, _ context: Context) -> [AppEffect] {
        switch row {
        case .method:
            guard let method = HTTPMethod(rawValue: text.trimmed.uppercased()) else {
                shell.notice = "'\(text.trimmed)' is not a method (GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS)."
                return []
            }
            return change(key, &state, &shell, context) { $0.method = method }
        case .path:
            let path = text.trimmed
            guard path.hasPrefix("/") || path.isEmpty else {
                shell.notice = "A path starts with '/': the base URL comes from the environment."
                return []
            }
            return change(key, &state, &shell, context) { $0.path = path }
        case .addQuery, .query:
            guard let item = parseItem(text, separator: "=") else { return [] }
            return change(key, &state, &shell, context) { edits in
                var query = edits.query ?? request.query
                if case .query(let index) = row, query.indices.contains(index) { query[index] = item } else { query.append(item) }
                edits.query = query
            }
        case .addHeader, .header, .inheritedHeader:
            guard let item = parseItem(text, separator: ":"), item.value != nil else {
                shell.notice = "Write a header as 'Name: value'."
                return []
            }
            return change(key, &state, &shell, context) { edits in
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
            return setBody(text, key: key, request: request, &state, &shell, context)
        case .setQuery, .setHeader:
            return setItem(text, isHeader: row == .setHeader, key: key, request: request, &state, &shell, context)
        case .newEndpointID:
            let id = text.trimmed
            let valid = !id.isEmpty && id.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2D || byte == 0x5F || byte == 0x2E
            }
            guard valid else {
                shell.notice = "'\(id)' is not an endpoint id: use letters, digits, '-', '_' and '.'."
                return []
            }
            guard context.catalog.endpoint(EndpointKey(service: key.endpoint.service, endpoint: id)) == nil else {
                shell.notice = "\(key.endpoint.service)/\(id) exists already: pick another id."
                return []
            }
            return write(state.drafts[key] ?? EndpointEdits(), key: key, as: .asNewEndpoint(id), &state, &shell, context)
        case .secretName:
            return nameSecret(text, &state, &shell, context)
        case .addFormField, .formField:
            guard let item = parseItem(text, separator: "=") else { return [] }
            return change(key, &state, &shell, context) { edits in
                guard case .form(var fields) = edits.body ?? request.body else { return }
                if case .formField(let index) = row, fields.indices.contains(index) { fields[index] = item } else { fields.append(item) }
                edits.body = .form(fields)
            }
        }
    }

    /// Sets the body from text (typed or back from the editor); JSON is checked at once.
    static func setBody(_ text: String, key: DraftKey, request: EditedRequest, _ state: inout EditingState, _ shell: inout AppShell, _ context: Context) -> [AppEffect] {
        let wasJSON: Bool = if case .text(_, let isJSON) = request.body.orEmptyText { isJSON } else { false }
        let trimmed = text.trimmed
        let isJSON = wasJSON || trimmed.hasPrefix("{") || trimmed.hasPrefix("[")
        let effects = change(key, &state, &shell, context) { edits in
            edits.body = trimmed.isEmpty ? EndpointEdits.Body.none : .text(text, isJSON: isJSON)
        }
        if isJSON, !trimmed.isEmpty {
            do {
                _ = try JSONValue.parse(text)
            } catch {
                shell.notice = "The JSON body does not parse (line \(error.line), column \(error.column): \(error.reason)): fix it before sending."
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
    static func change(_ key: DraftKey, _ state: inout EditingState, _ shell: inout AppShell, _ context: Context, _ body: (inout EndpointEdits) -> Void) -> [AppEffect] {
        let before = state.drafts[key] ?? EndpointEdits()
        var after = before
        body(&after)
        guard after != before else { return [] }
        state.undoStack[key, default: []].append(before)
        if let count = state.undoStack[key]?.count, count > EditingState.undoLimit { state.undoStack[key]?.removeFirst(count - EditingState.undoLimit) }
        state.redoStack[key] = nil
        return setDraft(after, for: key, &state, &shell, context)
    }

    /// Sets a draft (normalized: parts equal to the catalog's are dropped) and asks for it to be kept.
    static func setDraft(_ edits: EndpointEdits, for key: DraftKey, _ state: inout EditingState, _ shell: inout AppShell, _ context: Context) -> [AppEffect] {
        guard let endpoint = context.catalog.endpoint(key.endpoint)?.endpoint else { return [] }
        let normalized = EditedRequest.normalized(edits, for: endpoint)
        state.drafts[key] = normalized.isEmpty ? nil : normalized
        if let request = context.request(state) { state.editor.row = min(state.editor.row, request.rows.count - 1) }
        return [.editing(.saveDrafts(state.draftsByEnvironment))]
    }
}

extension EndpointEdits.Body {
    /// A body as text to edit: none is empty text.
    var orEmptyText: EndpointEdits.Body {
        if case .none = self { return .text("", isJSON: false) }
        return self
    }
}
