import FoundationEssentials
import Catalog
import TerminalKit
import TextSupport

/// The active service's endpoints as a tree of groups: each row what identifies it best within the
/// width, the last result at a glance, and the path to the selection on the bottom border.
package enum EndpointsPaneView {
    /// Draws the pane; returns where the cursor goes when the filter is being typed.
    static func render(_ state: AppState, area: Rect, into buffer: inout Buffer) -> Position? {
        let focused = state.focus == .endpoints
        let rows = state.endpointRows
        let total = state.activeService?.endpoints.count ?? 0
        let count = state.filter == nil ? "\(total)" : "\(rows.count)/\(total)"
        let block = AppView.block("Endpoints", focused: focused, rightTitle: Line(" \(count) ", style: Theme.dim))
        block.render(into: &buffer, area: area)
        var inner = block.inner(area)
        guard !inner.isEmpty else { return nil }
        renderSelectionPath(state, area: area, into: &buffer)

        var cursor: Position?
        if let filter = state.filter {
            let filterRow = inner.row(inner.height - 1)
            inner.height -= 1
            let input = InputLine(prompt: Span("/", style: Theme.key), placeholder: "filter")
            input.render(into: &buffer, area: filterRow, state: filter.input)
            if filter.isEditing { cursor = input.cursorPosition(in: filterRow, state: filter.input) }
        }
        let placeholder =
            state.isLoadingCatalog ? Line(state.loadingText, style: Theme.dim) : state.filter == nil ? Line("No endpoints") : Line("No endpoint matches")
        // Only the rows on screen are made: a catalog may hold 10,000 endpoints.
        let environment = state.activeEnvironmentKey
        let width = max(1, inner.width - 1)  // the scrollbar's column
        let list = ListView(
            count: rows.count, highlightStyle: focused ? Theme.highlight : Style(modifiers: .bold), showsScrollbar: true,
            placeholder: placeholder, item: { line(for: rows[$0], width: width, in: environment, state: state) })
        var listState = state.endpointList
        listState.offset = listState.visibleOffset(viewportHeight: inner.height, itemCount: rows.count)
        list.render(into: &buffer, area: inner, state: listState)
        return cursor
    }

    /// `service › group › endpoint` on the bottom border, cut at its start when too long.
    static func renderSelectionPath(_ state: AppState, area: Rect, into buffer: inout Buffer) {
        guard area.height > 2, area.width > 8, let service = state.activeService, let row = state.selectedRow else { return }
        var parts = [service.id]
        switch row.kind {
        case .group(let id, _, _): parts.append(id)
        case .endpoint(let index):
            let endpoint = service.endpoints[index]
            if let group = endpoint.group { parts.append(group) }
            parts.append(endpoint.id)
        }
        var text = " " + parts.joined(separator: " › ") + " "
        let room = area.width - 4
        if text.displayWidth > room { text = " …" + String(text.suffix(max(1, room - 2))) }
        buffer.write(text, at: Position(x: area.x + 2, y: area.bottom - 1), style: Theme.dim)
    }

    /// A row of the pane, `width` cells wide at most.
    static func line(for row: EndpointRow, width: Int, in environment: EnvironmentKey?, state: AppState) -> Line {
        guard let service = state.activeService else { return Line("") }
        switch row.kind {
        case .group(let id, let count, let isFolded):
            var spans = [Span(isFolded ? "▸ " : "▾ ", style: Theme.dim), Span(id, style: Theme.heading), Span(" (\(count))", style: Theme.dim)]
            if let title = service.group(id)?.title, title != id, !title.isEmpty { spans.append(Span("  \(title)", style: Theme.dim)) }
            return Line(spans)
        case .endpoint(let index):
            return line(for: service.endpoints[index], row: row, width: width, in: environment, state: state)
        }
    }

    /// An endpoint's row; `environment` is the active one (looked up once per frame, not per row).
    static func line(for endpoint: CatalogEndpoint, row: EndpointRow, width: Int, in environment: EnvironmentKey?, state: AppState) -> Line {
        let key = endpoint.key
        let marker: Span
        if state.inFlight.values.contains(where: { $0.endpoint == key }) {
            marker = Span(Spinner(frameIndex: state.spinnerFrame).symbol + " ", style: Style(foreground: .cyan))
        } else if let record = state.responses[key] {
            let status = record.exchange.response?.status
            marker = Span("● ", style: record.exchange.error == nil ? Theme.status(status) : Theme.status(status ?? 599))
        } else {
            marker = Span("  ")
        }
        // A draft shows as what Enter sends, marked ✎.
        let draft = environment.flatMap { state.drafts[DraftKey(endpoint: key, in: $0)] }
        let method = draft?.method ?? endpoint.method
        let path = draft?.path ?? endpoint.path
        var spans = [Span(String(repeating: "  ", count: row.depth)), marker, Span(method.rawValue.padded(to: 7), style: Theme.method(method))]
        var room = width - 2 * row.depth - 2 - 7
        // The badges lead the text after the name so a narrow pane still shows them.
        var badges: [Span] = []
        if draft != nil { badges.append(Span(" ✎", style: Theme.notice)) }
        if let environment, let mark = state.drift.marks[environment]?[endpoint.id] {
            switch mark {
            case .drifted: badges.append(Span(" ≠drift", style: Style(foreground: .yellow, modifiers: .bold)))
            case .failed: badges.append(Span(" ✗check", style: Style(foreground: .red)))
            case .matches: badges.append(Span(" =stub", style: Theme.dim))
            }
        }
        let hasTitle = endpoint.title != endpoint.id && !endpoint.title.isEmpty
        let name = hasTitle ? endpoint.title : endpoint.id
        let nameField: EndpointField = hasTitle ? .title : .id
        let positions = row.match?.positions ?? [:]
        switch state.navigation.rowStyle {
        case .titles:
            let shown = name.truncated(toWidth: max(1, room))
            spans += highlighted(shown, positions[nameField], style: .plain)
            room -= shown.displayWidth
            spans += badges
            room -= badges.reduce(0) { $0 + $1.width }
            if room > 6 {
                let shortPath = shortened(path, toWidth: room - 2)
                spans.append(Span("  "))
                spans += highlighted(shortPath, shortPath == path ? positions[.path] : nil, style: Theme.dim)
            }
        case .paths:
            let shortPath = shortened(path, toWidth: max(1, room))
            spans += highlighted(shortPath, shortPath == path ? positions[.path] : nil, style: .plain)
            spans += badges
            spans.append(Span("  "))
            spans += highlighted(name, positions[nameField], style: Theme.dim)
        }
        if let example = state.chosenExample[key] { spans.append(Span("  [\(example)]", style: Style(foreground: .magenta))) }
        return Line(spans)
    }

    /// `text` with the characters at `positions` (UTF-8 offsets) underlined and bold.
    static func highlighted(_ text: String, _ positions: [Int]?, style: Style) -> [Span] {
        guard let positions, !positions.isEmpty else { return [Span(text, style: style)] }
        var marked = style
        marked.modifiers.insert(.bold)
        marked.modifiers.insert(.underline)
        let wanted = Set(positions)
        var spans: [Span] = []
        var run = ""
        var runIsMarked = false
        var offset = 0
        for character in text {
            let isMarked = wanted.contains(offset)
            if isMarked != runIsMarked, !run.isEmpty {
                spans.append(Span(run, style: runIsMarked ? marked : style))
                run = ""
            }
            runIsMarked = isMarked
            run.append(character)
            offset += character.utf8.count
        }
        if !run.isEmpty { spans.append(Span(run, style: runIsMarked ? marked : style)) }
        return spans
    }

    /// `path` shortened to `width` cells, keeping what tells it from its neighbours, which mostly
    /// share its start: placeholders give way first (`/repos/…/commits/…/comments`), then the
    /// leading segments (`…/commits/…/comments`), and only then characters from the start.
    package static func shortened(_ path: String, toWidth width: Int) -> String {
        guard path.displayWidth > width else { return path }
        let isPlaceholder = { (segment: Substring) in segment.hasPrefix("{{") && segment.hasSuffix("}}") }
        var segments: [Substring] = []
        for segment in path.split(separator: "/", omittingEmptySubsequences: false) {
            let kept: Substring = isPlaceholder(segment) ? "…" : segment
            if kept == "…", segments.last == "…" { continue }
            segments.append(kept)
        }
        var shown = segments.joined(separator: "/")
        // Leading segments go (after the empty one before a leading slash), the last two named
        // ones staying: `comments` alone would say little.
        var first = segments.first == "" ? 1 : 0
        let named = { (from: Int) in segments[from...].count { $0 != "…" && !$0.isEmpty } }
        while shown.displayWidth > width, first + 1 < segments.count, named(first + 1) >= min(2, named(first)) {
            first += 1
            let rest = segments[first...].drop { $0 == "…" }
            shown = "…/" + rest.joined(separator: "/")
        }
        guard shown.displayWidth > width else { return shown }
        guard width > 1 else { return "…" }
        return "…" + String(shown.suffix(width - 1))
    }

}
