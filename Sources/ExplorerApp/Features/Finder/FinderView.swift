import Catalog
import TerminalKit
import TextSupport

/// The finder's window: the query, then the results with what matched underlined.
enum FinderView {
    /// Draws the window over the panes; returns where the cursor goes.
    static func render(_ state: AppState, into buffer: inout Buffer) -> Position? {
        let finder = state.finder
        guard let mode = finder.mode else { return nil }
        let screen = Rect(size: state.size)
        let title = mode == .endpoints ? "Find an endpoint · \(finder.results.count)" : "Commands · \(finder.results.count)"
        let height = min(max(4, finder.results.count + 3), max(4, state.size.height - 4))
        let window = Overlay(block: OverlayView.block(title, hint: "Enter \(mode == .endpoints ? "shows" : "runs") · Esc"), width: .percent(80), height: .cells(height))
        let inner = OverlayView.prepare(window, in: screen, buffer: &buffer)
        guard !inner.isEmpty else { return nil }
        let inputRow = inner.row(0)
        let input = InputLine(prompt: Span(mode == .endpoints ? "› " : "> ", style: Theme.key), placeholder: mode == .endpoints ? "id, title, path, method, group, service or a request sent" : "a command or a key")
        input.render(into: &buffer, area: inputRow, state: finder.input)
        var listArea = inner
        listArea.y += 1
        listArea.height -= 1
        let width = listArea.width
        let list = ListView(
            count: finder.results.count, highlightStyle: Theme.highlight, highlightSymbol: "› ",
            placeholder: Line(mode == .endpoints ? "No endpoint matches" : "No command matches", style: Theme.dim)
        ) { line(for: finder.results[$0], width: width, state: state) }
        var listState = finder.list
        listState.offset = listState.visibleOffset(viewportHeight: listArea.height, itemCount: finder.results.count)
        list.render(into: &buffer, area: listArea, state: listState)
        return input.cursorPosition(in: inputRow, state: finder.input)
    }

    static func line(for result: FinderResult, width: Int, state: AppState) -> Line {
        switch result.target {
        case .command(_, let key, let help):
            return Line([Span(key.padded(to: 12), style: Theme.key)] + EndpointsPaneView.highlighted(help, result.positions, style: .plain))
        case .history(let item):
            var spans = [Span("sent › ", style: Theme.dim)]
            spans += EndpointsPaneView.highlighted(item.requestLine, result.positions, style: .plain)
            spans.append(Span("  \(item.outcome)", style: item.failed ? Theme.error : Theme.dim))
            return Line(spans)
        case .endpoint(let key):
            guard let (service, endpoint) = state.catalog.endpoint(key) else { return Line(key.description) }
            let positions = result.match?.positions ?? [:]
            var spans = EndpointsPaneView.highlighted(service.id, positions[.service], style: Theme.dim)
            spans.append(Span(" › ", style: Theme.dim))
            if let group = endpoint.group {
                spans += EndpointsPaneView.highlighted(group, positions[.group], style: Theme.dim)
                spans.append(Span(" › ", style: Theme.dim))
            }
            spans += EndpointsPaneView.highlighted(endpoint.id, positions[.id], style: Theme.heading)
            spans.append(Span("  "))
            spans += EndpointsPaneView.highlighted(endpoint.method.rawValue.padded(to: 7), positions[.method], style: Theme.method(endpoint.method))
            spans += EndpointsPaneView.highlighted(endpoint.path, positions[.path], style: .plain)
            if endpoint.title != endpoint.id {
                spans.append(Span("  "))
                spans += EndpointsPaneView.highlighted(endpoint.title, positions[.title], style: Theme.dim)
            }
            return Line(spans)
        }
    }
}
