import Catalog
import DispatcherCore
import JSONSupport
import TerminalKit
import TextSupport

/// The Edit tab: the selected endpoint's next request, row by row, with what differs from the
/// catalog marked (✎), rows turned off shown as ☐, and the row being typed as an input line.
enum EditTabView {
    /// Draws the tab; returns where the terminal cursor goes while a row is typed.
    static func render(_ state: AppState, content: Rect, into buffer: inout Buffer) -> Position? {
        guard let request = state.editedRequest, !content.isEmpty else { return nil }
        let rows = request.rows
        let changes = changeCount(request)
        let where_ = state.activeEnvironment?.name ?? ""
        let keys = state.keys
        let info = Line([
            Span(changes == 0 ? "As in the catalog" : "\(changes) change\(changes == 1 ? "" : "s") from the catalog", style: changes == 0 ? Theme.dim : Theme.notice),
            Span(" · for \(where_) · ", style: Theme.dim), Span(keys(.editor(.change)), style: Theme.key), Span(" change  ", style: Theme.dim),
            Span(keys(.editor(.add)), style: Theme.key), Span(" add  ", style: Theme.dim), Span(keys(.editor(.toggle)), style: Theme.key), Span(" off/on  ", style: Theme.dim),
            Span(keys(.editor(.undo)), style: Theme.key), Span(" undo  ", style: Theme.dim), Span(keys(.editor(.writeToCatalog)), style: Theme.key),
            Span(" write to catalog  ", style: Theme.dim), Span(keys(.editor(.saveAsNewEndpoint)), style: Theme.key), Span(" save as new", style: Theme.dim),
        ])
        var cursorPosition: Position?
        if let input = state.editor.input, let prompt = Self.topPrompt(for: input.row) {
            let field = InputLine(prompt: Span(prompt, style: Theme.key), placeholder: placeholder(for: input.row))
            field.render(into: &buffer, area: content.row(0), state: input.input)
            cursorPosition = field.cursorPosition(in: content.row(0), state: input.input)
        } else {
            buffer.write(info.truncated(toWidth: content.width), in: content.row(0))
        }
        var area = content.inset(top: 1)
        if let check = messageCheck(state, request: request), area.height >= 6 {
            let lines = messageLines(check)
            for (index, line) in lines.enumerated() {
                buffer.write(line.truncated(toWidth: area.width), in: area.row(area.height - lines.count + index))
            }
            area = area.inset(bottom: lines.count)
        }
        guard !area.isEmpty else { return cursorPosition }
        let cursor = min(state.editor.row, rows.count - 1)
        let offset = max(0, cursor - area.height + 1)
        // The tab's keys act whatever pane has focus: its cursor always shows where Enter acts,
        // highlighted while the pane has focus.
        let focused = state.focus == .response
        for (index, row) in rows.enumerated().dropFirst(offset).prefix(area.height) {
            let line = area.row(index - offset)
            let selected = index == cursor
            if selected, let input = state.editor.input, input.row == row || isAddTarget(input.row, near: row) {
                let field = InputLine(prompt: Span("› " + label(for: input.row).padded(to: 9), style: Theme.key), placeholder: placeholder(for: input.row))
                let shown = state.revealsSecrets ? input.input : shownWhileTyped(input)
                field.render(into: &buffer, area: line, state: shown)
                cursorPosition = field.cursorPosition(in: line, state: shown)
                continue
            }
            var spans = [Span(selected ? "› " : "  ", style: Theme.key)] + spans(for: row, request: request, state: state)
            if selected, focused { spans = spans.map { Span($0.text, style: $0.style.patched(with: Theme.highlight)) } }
            buffer.write(Line(spans).truncated(toWidth: line.width), in: line)
        }
        return cursorPosition
    }

    /// A gRPC method's request message checked against its descriptors: the body being typed,
    /// else the one to be sent.
    static func messageCheck(_ state: AppState, request: EditedRequest) -> RPCMessageCheck? {
        guard request.endpoint.rpc != nil, let service = state.activeService else { return nil }
        let body: String
        if let input = state.editor.input, input.row == .body {
            body = input.input.text
        } else if case .text(let text, _) = request.body {
            body = text
        } else {
            body = ""
        }
        return RPCMessageCheck.check(body, endpoint: request.endpoint, descriptors: state.rpc.descriptors(of: service))
    }

    /// The check's lines under the rows: the method and its input type, whether the message fits,
    /// and the type's fields.
    private static func messageLines(_ check: RPCMessageCheck) -> [Line] {
        func heading(_ text: String) -> Span { Span(text.padded(to: 9), style: Theme.heading) }
        let verdict: Line =
            if let problem = check.problem {
                Line([Span("  ✗ ", style: Theme.error), Span(problem, style: Theme.error), Span("  (nothing is sent like this)", style: Theme.dim)])
            } else {
                Line([Span("  ✓ ", style: Theme.key), Span("the message fits \(check.input)", style: Theme.dim)])
            }
        var fields = [heading("Fields")]
        for (index, field) in check.fields.enumerated() {
            if index > 0 { fields.append(Span(" · ", style: Theme.dim)) }
            fields += [Span(field.name), Span(" \(field.type)", style: Theme.dim)]
        }
        return [
            Line([heading("Message"), Span(check.input), Span(" → \(check.method) (\(check.kind))", style: Theme.dim)]), verdict,
            Line(check.fields.isEmpty ? [heading("Fields"), Span("none (the empty message)", style: Theme.dim)] : fields),
        ]
    }

    /// A row being typed as it may be shown: a secret header's value masked.
    private static func shownWhileTyped(_ input: EditorState.RowInput) -> InputState {
        switch input.row {
        case .header, .addHeader, .inheritedHeader: MaskedInput.headerRow(input.input)
        default: input.input
        }
    }

    /// An "add" input shows on the row the cursor is on.
    private static func isAddTarget(_ target: EditRow, near row: EditRow) -> Bool {
        switch target {
        case .addQuery, .addHeader, .addFormField: true
        default: false
        }
    }

    /// The prompt of an input typed on the tab's first line rather than on a row.
    static func topPrompt(for row: EditRow) -> String? {
        switch row {
        case .secretName: "Secret name {{secret.…}} "
        case .newEndpointID: "Save as endpoint "
        case .setQuery: "Set query item "
        case .setHeader: "Set header "
        default: nil
        }
    }

    static func label(for row: EditRow) -> String {
        switch row {
        case .method: "Method"
        case .path: "Path"
        case .addQuery, .query: "Query"
        case .addHeader, .header, .inheritedHeader: "Header"
        case .body: "Body"
        case .addFormField, .formField: "Field"
        case .newEndpointID: "New id"
        case .setQuery: "Query"
        case .setHeader: "Header"
        case .secretName: "Secret"
        }
    }

    static func placeholder(for row: EditRow) -> String {
        switch row {
        case .method: "GET, POST, PUT, PATCH, DELETE …"
        case .path: "/items/{{id}}"
        case .addQuery, .query: "name=value"
        case .addHeader, .header, .inheritedHeader: "Name: value"
        case .body: "the body on one line (O: in $EDITOR)"
        case .addFormField, .formField: "name=value"
        case .newEndpointID: "an endpoint id (letters, digits, - _ .)"
        case .setQuery: "name=value (replaces the item of that name, or adds it; C-s sends)"
        case .setHeader: "Name: value (replaces the header of that name, or adds it; C-s sends)"
        case .secretName: "a secret's name (letters, digits, _)"
        }
    }

    /// How many parts differ from the catalog (each query item, header, field counts once).
    static func changeCount(_ request: EditedRequest) -> Int {
        let edits = request.edits
        var count = (edits.method == nil ? 0 : 1) + (edits.path == nil ? 0 : 1) + edits.removedHeaders.count
        if let query = edits.query { count += differences(query, EndpointEdits.items(of: request.endpoint.query)) }
        if let headers = edits.headers { count += differences(headers, EndpointEdits.items(of: request.endpoint.headers)) }
        if edits.body != nil { count += 1 }
        return count
    }

    private static func differences(_ edited: [EndpointEdits.Item], _ original: [EndpointEdits.Item]) -> Int {
        let changed = edited.filter { !original.contains($0) }.count
        let removed = original.filter { item in !edited.contains { $0.name == item.name } }.count
        return changed + removed
    }

    static func spans(for row: EditRow, request: EditedRequest, state: AppState) -> [Span] {
        let edits = request.edits
        let mark = Span("✎ ", style: Theme.notice)
        func heading(_ text: String) -> Span { Span(text.padded(to: 9), style: Theme.heading) }
        func item(_ item: EndpointEdits.Item, separator: String, original: [EndpointEdits.Item]?) -> [Span] {
            let box = Span(item.isEnabled ? "☑ " : "☐ ", style: item.isEnabled ? Theme.key : Theme.dim)
            let text = item.value.map { "\(item.name)\(separator)\($0)" } ?? item.name
            let changed = original.map { !$0.contains(item) } ?? false
            return [Span("  "), box, Span(text, style: item.isEnabled ? .plain : Theme.dim)] + (changed ? [Span("  "), mark] : [])
        }
        switch row {
        case .method:
            var spans = [heading("Method"), Span(request.method.rawValue, style: Theme.method(request.method))]
            if edits.method != nil { spans += [Span("  "), mark, Span("catalog: \(request.endpoint.method.rawValue)", style: Theme.dim)] }
            return spans
        case .path:
            var spans = [heading("Path"), Span(request.path)]
            if edits.path != nil { spans += [Span("  "), mark, Span("catalog: \(request.endpoint.path)", style: Theme.dim)] }
            return spans
        case .addQuery:
            return [heading("Query"), Span("+ add a query item (a)", style: Theme.dim)]
        case .query(let index):
            guard request.query.indices.contains(index) else { return [] }
            return item(request.query[index], separator: "=", original: edits.query == nil ? nil : EndpointEdits.items(of: request.endpoint.query))
        case .addHeader:
            return [heading("Headers"), Span("+ add a header (a)", style: Theme.dim)]
        case .inheritedHeader(let name):
            guard let field = request.inherited.first(where: { Headers.sameName($0.name, name) }) else { return [] }
            let off = edits.removedHeaders.contains { Headers.sameName($0, name) }
            let value = state.revealsSecrets ? field.value : Redactor.standard.header(name: field.name, value: field.value)
            var spans = [
                Span("  "), Span(off ? "☐ " : "☑ ", style: off ? Theme.dim : Theme.key),
                Span("\(field.name): \(value)", style: off ? Theme.dim : .plain), Span("  ← \(field.origin)", style: Theme.origin),
            ]
            if off { spans += [Span("  "), mark, Span("off", style: Theme.dim)] }
            return spans
        case .header(let index):
            guard request.headers.indices.contains(index) else { return [] }
            let original = edits.headers == nil ? nil : EndpointEdits.items(of: request.endpoint.headers)
            var header = request.headers[index]
            if !state.revealsSecrets, let value = header.value { header.value = Redactor.standard.header(name: header.name, value: value) }
            let changed = original.map { !$0.contains(request.headers[index]) } ?? false
            return item(header, separator: ": ", original: nil) + [Span("  ← \(changed ? "edited" : "endpoint")", style: Theme.origin)]
                + (changed ? [Span("  "), mark] : [])
        case .body:
            var spans = [heading("Body")]
            switch request.body {
            case .none:
                if let kept = request.keptBody {
                    spans.append(Span(kept))
                    let keys = state.keys
                    spans.append(Span("  (as the catalog says; \(keys(.editor(.change))) types a text body instead, \(keys(.editor(.delete))) sends none)", style: Theme.dim))
                } else {
                    let keys = state.keys
                    spans.append(Span("none (\(keys(.editor(.change))) types one, \(keys(.editor(.editBodyExternally))) opens $EDITOR)", style: Theme.dim))
                }
            case .text(let text, let isJSON):
                // Counted, not split: this row is drawn on every frame, and bodies may be megabytes.
                let count = text.lineCount
                spans.append(Span(isJSON ? "JSON " : "text ", style: Theme.dim))
                spans.append(Span(count > 1 ? "\(text.firstLine.trimmed) … \(count) lines (O edits)" : text))
            case .form: spans.append(Span("form fields:", style: Theme.dim))
            }
            if edits.body != nil { spans += [Span("  "), mark] }
            return spans
        case .addFormField:
            return [Span("  "), Span("+ add a form field (a)", style: Theme.dim)]
        case .formField(let index):
            guard case .form(let fields) = request.body, fields.indices.contains(index) else { return [] }
            let original: [EndpointEdits.Item]? = if case .form(let items) = EndpointEdits.body(of: request.endpoint.body), edits.body != nil { items } else { nil }
            return item(fields[index], separator: "=", original: original)
        case .newEndpointID, .secretName, .setQuery, .setHeader:
            return []
        }
    }
}

/// The Vars tab: every placeholder of the selected endpoint's request, with its value and where it
/// comes from, the value being typed as an input line.
enum VariablesTabView {
    static func render(_ state: AppState, content: Rect, into buffer: inout Buffer) -> Position? {
        guard !content.isEmpty, let endpoint = state.selectedEndpoint else { return nil }
        let rows = state.variableRows
        let keys = state.keys
        let info = Line([
            Span("Placeholders of \(endpoint.key) in \(state.activeEnvironment?.name ?? "") · ", style: Theme.dim),
            Span(keys(.variables(.change)), style: Theme.key), Span(" set a run-time value  ", style: Theme.dim),
            Span(keys(.variables(.clear)), style: Theme.key), Span(" clear it  ", style: Theme.dim), Span(keys(.revealSecrets), style: Theme.key),
            Span(" reveal secrets", style: Theme.dim),
        ])
        buffer.write(info.truncated(toWidth: content.width), in: content.row(0))
        let area = content.inset(top: 1)
        guard !area.isEmpty else { return nil }
        guard !rows.isEmpty else {
            buffer.write(Line("The request uses no {{placeholders}}.", style: Theme.dim), in: area.row(0))
            return nil
        }
        let nameWidth = min(28, rows.map { $0.name.displayWidth }.max() ?? 0)
        let cursor = min(state.variablesTab.row, rows.count - 1)
        let offset = max(0, cursor - area.height + 1)
        var cursorPosition: Position?
        for (index, variable) in rows.enumerated().dropFirst(offset).prefix(area.height) {
            let line = area.row(index - offset)
            let selected = index == cursor
            if selected, let input = state.variablesTab.input, input.name == variable.name {
                var shown = input.input
                // A secret is masked while it is typed, unless secrets are shown.
                if variable.isSecret, !state.revealsSecrets { shown = MaskedInput.shown(input.input) }
                let field = InputLine(prompt: Span("› " + variable.name.padded(to: nameWidth) + "  ", style: Theme.key), placeholder: "a value")
                field.render(into: &buffer, area: line, state: shown)
                cursorPosition = field.cursorPosition(in: line, state: shown)
                continue
            }
            var spans = [Span(selected ? "› " : "  ", style: Theme.key), Span(variable.name.padded(to: nameWidth), style: Theme.key), Span("  ")]
            if let value = variable.value {
                spans.append(Span(value, style: value == Redactor.mask ? Theme.secretMask : .plain))
                var origin = "  ← \(variable.source?.description ?? "")"
                switch variable.source {
                case .captured(_, let date)?, .response(_, let date)?: origin += " at \(OverlayText.time(date, in: state.timeZone))"
                default: break
                }
                spans.append(Span(origin, style: Theme.origin))
            } else if variable.name.hasPrefix(Prompt.prefix) {
                spans.append(Span("asked when the request is sent", style: Theme.dim))
            } else if case .success(let reference)? = ResponseReference.parse(variable.name, service: endpoint.serviceID) {
                spans.append(Span(unfilled(reference, state), style: Theme.error))
            } else if case .failure(let problem)? = ResponseReference.parse(variable.name, service: endpoint.serviceID) {
                spans.append(Span(problem.message, style: Theme.error))
            } else if variable.source == nil, variable.isSecret, state.activeService?.authRefresh?.into == secretName(variable.name) {
                spans.append(Span("filled by the auth refresh rule", style: Theme.dim))
            } else {
                spans.append(Span("no value: \(keys(.variables(.change))) sets one", style: Theme.error))
            }
            if selected, state.focus == .response { spans = spans.map { Span($0.text, style: $0.style.patched(with: Theme.highlight)) } }
            buffer.write(Line(spans).truncated(toWidth: line.width), in: line)
        }
        return cursorPosition
    }
}

/// Why a `{{response.…}}` reference has no value: no response yet, or what its selector looks for
/// is missing from the response there is.
private func unfilled(_ reference: ResponseReference, _ state: AppState) -> String {
    guard let (response, date) = state.latestResponse(of: reference.endpoint) else {
        return "no response yet (\(state.mode.badge)): send \(reference.endpoint) first"
    }
    let answered = "\(reference.endpoint) answered \(response.status) at \(OverlayText.time(date, in: state.timeZone))"
    switch reference.selector {
    case .header(let name): return "\(answered) with no header \(name)"
    case .body(let path):
        guard let root = try? JSONValue.parse(response.body) else { return "\(answered), not JSON: no \(path)" }
        return path.first(in: root) == .null ? "\(answered) with \(path) null" : "\(answered) with no \(path)"
    case .status, .wholeBody: return "\(answered) with no \(reference.selector)"
    }
}

/// `NAME` of `secret.NAME`, nil for other names.
private func secretName(_ name: String) -> String? {
    name.hasPrefix("secret.") ? String(name.dropFirst("secret.".count)) : nil
}
