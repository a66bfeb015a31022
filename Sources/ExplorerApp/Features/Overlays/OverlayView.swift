import Catalog
import FoundationEssentials
import TerminalKit
import TextSupport

/// The window over the panes: the overlay slice's own drawn here, a feature's by its feature, and
/// what every window shares (its frame, a wrapped text, an input line).
enum OverlayView {
    /// Draws the window; returns where the terminal cursor goes while an answer is typed.
    @discardableResult
    static func render(_ overlay: Dialog, state: AppState, into buffer: inout Buffer) -> Position? {
        let screen = Rect(size: state.size)
        switch overlay {
        case .help(let scroll):
            let lines = OverlayText.helpLines(state.config.bindings)
            let window = Overlay(block: block("Keys", hint: "\(state.keys(.close)) closes"), width: .cells(104), height: .cells(lines.count + 2))
            TextView(lines, verticalOffset: scroll).render(into: &buffer, area: prepare(window, in: screen, buffer: &buffer))
        case .diagnostics(let scroll):
            renderWrapped(OverlayText.diagnosticLines(state.catalog), title: "Catalog problems", scroll: scroll, screen: screen, into: &buffer)
        case .messages(let scroll):
            renderWrapped(
                OverlayText.messageLines(state.messages), title: "Messages · \(state.messages.entries.count)", scroll: scroll, screen: screen, into: &buffer)
        // Features' windows: each drawn by its feature.
        case .exchanges(let dialog): return ExchangesDialogView.render(dialog, state: state, screen: screen, into: &buffer)
        case .editing(let dialog): EditingDialogView.render(dialog, state: state, screen: screen, into: &buffer)
        case .history(let list): HistoryView.render(list, state: state, screen: screen, into: &buffer)
        case .auth(let window): TokensView.render(window, state: state, screen: screen, into: &buffer)
        case .scratch(let dialog): return ScratchDialogView.render(dialog, screen: screen, into: &buffer)
        case .webSocket(let composer): return WebSocketView.renderComposer(composer, screen: screen, into: &buffer)
        case .checks(let flows): ChecksTabView.renderFlowPicker(flows, state: state, screen: screen, into: &buffer)
        }
        return nil
    }

    /// A window of lines wrapped, not cut, as tall as their rows (at most the screen): a long path
    /// must not push a diagnostic's file:line:column, or the end of a message, out of sight.
    static func renderWrapped(_ lines: [Line], title: String, scroll: Int, screen: Rect, into buffer: inout Buffer) {
        let window = Overlay(
            block: block(title, hint: "Esc closes"), width: .percent(90), height: .cells(OverlayText.wrappedRows(lines, width: screen.width * 90 / 100 - 2) + 2))
        TextView(lines, wraps: true, verticalOffset: scroll).render(into: &buffer, area: prepare(window, in: screen, buffer: &buffer))
    }

    /// A window of explaining lines over one input line; returns where the terminal cursor goes.
    static func renderInputWindow(
        _ block: Block, width: Int, lines: [Line], field: InputLine, input: InputState, screen: Rect, into buffer: inout Buffer
    ) -> Position? {
        let window = Overlay(block: block, width: .cells(width), height: .cells(lines.count + 4))
        let inside = prepare(window, in: screen, buffer: &buffer)
        TextView(lines, wraps: true).render(into: &buffer, area: Rect(x: inside.x, y: inside.y, width: inside.width, height: max(0, inside.height - 2)))
        let row = Rect(x: inside.x, y: inside.bottom - 1, width: inside.width, height: 1)
        field.render(into: &buffer, area: row, state: input)
        return field.cursorPosition(in: row, state: input)
    }

    static func block(_ title: String, hint: String?) -> Block {
        Block(
            title: Line(" \(title) ", style: Theme.title), rightTitle: hint.map { Line(" \($0) ", style: Theme.dim) },
            borders: .rounded, isFocused: true, borderStyle: Theme.focusedBorder, focusedBorderStyle: Theme.focusedBorder)
    }

    /// Clears and frames the window; returns its inside.
    static func prepare(_ window: Overlay, in screen: Rect, buffer: inout Buffer) -> Rect {
        window.render(into: &buffer, area: screen)
        return window.inner(in: screen)
    }
}

/// The text of overlays, also used to bound their scrolling.
enum OverlayText {
    /// `14:05:09` in `timeZone`.
    static func time(_ date: Date, in timeZone: LocalTimeZone) -> String {
        let local = Int(date.timeIntervalSince1970.rounded(.down)) + timeZone.secondsFromGMT(for: date)
        let seconds = ((local % 86_400) + 86_400) % 86_400
        func two(_ value: Int) -> String { DecimalText.zeroPadded(value, width: 2) }
        return "\(two(seconds / 3600)):\(two(seconds / 60 % 60)):\(two(seconds % 60))"
    }

    /// `2026-12-08` in `timeZone`.
    static func date(_ date: Date, in timeZone: LocalTimeZone) -> String {
        let local = Int(date.timeIntervalSince1970.rounded(.down)) + timeZone.secondsFromGMT(for: date)
        let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        let (year, month, day) = CivilDate.fromDays(days)
        return "\(year)-\(DecimalText.zeroPadded(month, width: 2))-\(DecimalText.zeroPadded(day, width: 2))"
    }

    /// Help generated from the keymap, by scope.
    static func helpLines(_ keymap: [KeyBinding]) -> [Line] {
        var lines: [Line] = []
        for (scope, bindings) in Keymap.sections(of: keymap) {
            if !lines.isEmpty { lines.append("") }
            lines.append(Line(scope.rawValue, style: Theme.heading))
            for binding in bindings {
                lines.append(Line([Span("  " + binding.keyLabel.padded(to: 12), style: Theme.key), Span(binding.help ?? "")]))
            }
        }
        lines.append("")
        lines.append(Line("Mouse: click selects, the wheel scrolls.", style: Theme.dim))
        return lines
    }

    /// Rows `lines` take wrapped at `width` columns (words may wrap sooner: one row more per line).
    static func wrappedRows(_ lines: [Line], width: Int) -> Int {
        let width = max(1, width)
        return lines.reduce(0) { rows, line in rows + (line.width <= width ? 1 : (line.width + width - 1) / width + 1) }
    }

    /// The message log, newest first, each message in full.
    static func messageLines(_ messages: MessagesState) -> [Line] {
        messages.entries.reversed().map { message in
            Line([Span("\(message.number)".padded(to: 5), style: Theme.dim), Span(message.text, style: message.isError ? Theme.error : Theme.notice)])
        }
    }

    static func diagnosticLines(_ catalog: CatalogSet) -> [Line] {
        [Line("Catalogs from \(catalog.source.displayPath)", style: Theme.dim), ""]
            + catalog.diagnostics.map { Line($0.description, style: $0.isError ? Theme.error : Theme.notice) }
    }

    static func maximumScroll(_ overlay: Dialog, state: AppState) -> Int {
        let count: Int
        switch overlay {
        case .help: count = helpLines(state.config.bindings).count
        case .diagnostics: count = diagnosticLines(state.catalog).count
        case .messages: count = messageLines(state.messages).count
        default: return 0
        }
        return max(0, count - max(1, state.size.height - 2))
    }
}
