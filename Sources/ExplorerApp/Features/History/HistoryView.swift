import TerminalKit

/// The history window (`H`): requests sent, newest first.
enum HistoryView {
    static func render(_ list: ListState, state: AppState, screen: Rect, into buffer: inout Buffer) {
        let history = state.history.items, timeZone = state.timeZone
        // Only the rows on screen are made: the history keeps up to 500 requests.
        @Sendable func row(_ item: HistoryItem) -> Line {
            Line([
                Span(OverlayText.time(item.date, in: timeZone) + " ", style: Theme.dim),
                Span(item.call.mode.badge + " ", style: item.call.mode == .live ? Theme.error : Theme.dim),
                Span(item.outcome, style: item.failed ? Theme.error : Theme.status(200)),
                Span("  \(item.call.endpoint) · \(item.call.environment)"),
                Span(item.call.example.map { " [\($0)]" } ?? "", style: Style(foreground: .magenta)),
                Span("  \(item.requestLine)", style: Theme.dim),
            ])
        }
        let window = Overlay(
            block: OverlayView.block("History · \(history.count)", hint: "\(state.keys(.choose)) sends again"), width: .percent(90),
            height: .cells(min(history.count, max(1, state.size.height - 6)) + 2))
        ListView(count: history.count, highlightStyle: Theme.highlight, highlightSymbol: "› ") { row(history[$0]) }
            .render(into: &buffer, area: OverlayView.prepare(window, in: screen, buffer: &buffer), state: list)
    }
}
