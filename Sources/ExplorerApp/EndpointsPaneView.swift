import FoundationEssentials
import Catalog
import TerminalKit
import TextSupport

/// The active service's endpoints: method, path, title, and the last result at a glance.
enum EndpointsPaneView {
    /// Draws the pane; returns where the cursor goes when the filter is being typed.
    static func render(_ state: AppState, area: Rect, into buffer: inout Buffer) -> Position? {
        let focused = state.focus == .endpoints
        let endpoints = state.visibleEndpoints
        let total = state.activeService?.endpoints.count ?? 0
        let count = state.filter == nil ? "\(total)" : "\(endpoints.count)/\(total)"
        let block = AppView.block("Endpoints", focused: focused, rightTitle: Line(" \(count) ", style: Theme.dim))
        block.render(into: &buffer, area: area)
        var inner = block.inner(area)
        guard !inner.isEmpty else { return nil }

        var cursor: Position?
        if let filter = state.filter {
            let filterRow = inner.row(inner.height - 1)
            inner.height -= 1
            let input = InputLine(prompt: Span("/", style: Theme.key), placeholder: "filter")
            input.render(into: &buffer, area: filterRow, state: filter.input)
            if filter.isEditing { cursor = input.cursorPosition(in: filterRow, state: filter.input) }
        }
        let placeholder =
            state.isLoadingCatalog ? Line("Loading catalogs…", style: Theme.dim) : state.filter == nil ? Line("No endpoints") : Line("No endpoint matches")
        // Only the rows on screen are made: a catalog may hold 10,000 endpoints.
        let environment = state.activeEnvironmentKey
        let list = ListView(
            count: endpoints.count, highlightStyle: focused ? Theme.highlight : Style(modifiers: .bold), showsScrollbar: true,
            placeholder: placeholder, item: { line(for: endpoints[$0], in: environment, state: state) })
        var listState = state.endpointList
        listState.offset = listState.visibleOffset(viewportHeight: inner.height, itemCount: endpoints.count)
        list.render(into: &buffer, area: inner, state: listState)
        return cursor
    }

    /// An endpoint's row; `environment` is the active one (looked up once per frame, not per row).
    static func line(for endpoint: CatalogEndpoint, in environment: EnvironmentKey?, state: AppState) -> Line {
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
        let draft = environment.flatMap { state.drafts[DraftKey(endpoint: key, environment: $0.environment)] }
        let method = draft?.method ?? endpoint.method
        var spans = [marker, Span(method.rawValue.padded(to: 7), style: Theme.method(method)), Span(draft?.path ?? endpoint.path)]
        if draft != nil { spans.append(Span(" ✎", style: Theme.notice)) }
        if endpoint.title != endpoint.id || endpoint.title != endpoint.path {
            spans.append(Span("  \(endpoint.title)", style: Theme.dim))
        }
        if let example = state.chosenExample[key] { spans.append(Span("  [\(example)]", style: Style(foreground: .magenta))) }
        if let environment, let mark = state.drift.marks[environment]?[endpoint.id] {
            // Leads the text after the path so a narrow pane still shows it before the title is cut.
            let badge: Span
            switch mark {
            case .drifted: badge = Span(" ≠drift", style: Style(foreground: .yellow, modifiers: .bold))
            case .failed: badge = Span(" ✗check", style: Style(foreground: .red))
            case .matches: badge = Span(" =stub", style: Theme.dim)
            }
            spans.insert(badge, at: draft == nil ? 3 : 4)
        }
        return Line(spans)
    }
}
