import Catalog
import FoundationEssentials
import DispatcherCore
import RequestExport
import TerminalKit
import TextSupport

/// Windows drawn over the panes: help, the example picker, the production confirmation, diagnostics,
/// a request's questions.
enum OverlayView {
    /// Draws the window; returns where the terminal cursor goes while an answer is typed.
    @discardableResult
    static func render(_ overlay: Dialog, state: AppState, into buffer: inout Buffer) -> Position? {
        let screen = Rect(size: state.size)
        switch overlay {
        case .help(let scroll):
            let lines = OverlayText.helpLines(state.config.bindings)
            let window = Overlay(block: block("Keys", hint: "Esc closes"), width: .cells(104), height: .cells(lines.count + 2))
            TextView(lines, verticalOffset: scroll).render(into: &buffer, area: prepare(window, in: screen, buffer: &buffer))
        case .diagnostics(let scroll):
            renderWrapped(OverlayText.diagnosticLines(state.catalog), title: "Catalog problems", scroll: scroll, screen: screen, into: &buffer)
        case .flows(let list):
            TestsTabView.renderFlowPicker(list, state: state, screen: screen, into: &buffer)
        case .examplePicker(let key, let list):
            let names = state.selectedEndpoint?.exampleNames ?? []
            let endpoint = state.catalog.endpoint(key)?.endpoint
            let items = names.map { name -> Line in
                let example = endpoint?.example(named: name)
                return Line([Span(name), Span("  " + (example.map(describe) ?? ""), style: Theme.dim)])
            }
            let window = Overlay(block: block("Examples of \(key)", hint: "Enter sends"), width: .cells(60), height: .cells(min(items.count, 16) + 2))
            ListView(items, highlightStyle: Theme.highlight, highlightSymbol: "› ").render(into: &buffer, area: prepare(window, in: screen, buffer: &buffer), state: list)
        case .history(let list):
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
                block: block("History · \(history.count)", hint: "Enter sends again"), width: .percent(90),
                height: .cells(min(history.count, max(1, state.size.height - 6)) + 2))
            ListView(count: history.count, highlightStyle: Theme.highlight, highlightSymbol: "› ") { row(history[$0]) }
                .render(into: &buffer, area: prepare(window, in: screen, buffer: &buffer), state: list)
        case .confirmSend(let call):
            let method = state.catalog.endpoint(call.endpoint)?.endpoint.method.rawValue ?? ""
            let lines = [
                Line([Span("Send \(method) \(call.endpoint) to "), Span(call.environment, style: Theme.error), Span("?")]),
                Line("It is a production environment and the request changes data."),
                Line(""),
                Line([Span("y", style: Theme.key), Span(" send   "), Span("n", style: Theme.key), Span(" cancel")]),
            ]
            let window = Overlay(block: block("Production", hint: nil), width: .cells(64), height: .cells(lines.count + 2))
            TextView(lines, wraps: true).render(into: &buffer, area: prepare(window, in: screen, buffer: &buffer))
        case .confirmReplace(let call):
            let lines = [
                Line([Span("\(call.downloadPath ?? "The file") exists.", style: Theme.error)]),
                Line("Download \(call.endpoint) over it?"),
                Line(""),
                Line([Span("y", style: Theme.key), Span(" replace it   "), Span("n", style: Theme.key), Span(" keep it")]),
            ]
            let window = Overlay(block: block("Replace?", hint: nil), width: .cells(64), height: .cells(lines.count + 2))
            TextView(lines, wraps: true).render(into: &buffer, area: prepare(window, in: screen, buffer: &buffer))
        case .confirmTrust(let question):
            var lines = [
                Line([Span("\(question.declaration.file) is not trusted. ", style: Theme.error), Span("To \(question.reason), it needs your trust.")]),
                Line("Trusted, it may:"),
            ]
            lines += question.declaration.lines.dropFirst().map { Line($0) }
            lines += [
                Line(""),
                Line("Trust is remembered for this content of the file; any change asks again.", style: Theme.dim),
                Line([Span("y", style: Theme.key), Span(" trust and send   "), Span("n", style: Theme.key), Span(" cancel (stub mode needs no trust)")]),
            ]
            let window = Overlay(block: block("Trust this catalog?", hint: nil), width: .percent(80), height: .cells(min(lines.count + 2, state.size.height - 2)))
            TextView(lines, wraps: true).render(into: &buffer, area: prepare(window, in: screen, buffer: &buffer))
        case .prompt(let dialog):
            return renderPrompt(dialog, screen: screen, into: &buffer)
        case .scratch(let dialog):
            return renderScratch(dialog, screen: screen, into: &buffer)
        case .download(let dialog):
            return renderDownload(dialog, screen: screen, into: &buffer)
        case .message(let composer):
            return renderComposer(composer, screen: screen, into: &buffer)
        case .cookies(let window):
            let lines = TokensView.cookieLines(window, revealed: state.revealsSecrets, timeZone: state.timeZone)
            let overlay = Overlay(
                block: block("Cookies · \(window.environment.service) · \(window.environment.environment) · \(window.mode.badge)", hint: "d deletes · Enter clears · Esc"),
                width: .percent(80), height: .cells(min(lines.count, max(1, state.size.height - 6)) + 2))
            TextView(lines, wraps: true).render(into: &buffer, area: prepare(overlay, in: screen, buffer: &buffer))
        case .tokens(let window):
            let lines = TokensView.lines(window, revealed: state.revealsSecrets, timeZone: state.timeZone)
            let height = min(lines.count, max(1, state.size.height - 6))
            let overlay = Overlay(
                block: block("Tokens · \(window.environment.service) · \(window.environment.environment) · \(window.mode.badge)", hint: "S signs in · Enter signs out · Esc"),
                width: .percent(80), height: .cells(height + 2))
            var view = TextView(lines, wraps: true)
            let area = prepare(overlay, in: screen, buffer: &buffer)
            view.verticalOffset = min(window.scroll, view.maxVerticalOffset(viewport: area.size))
            view.render(into: &buffer, area: area)
        case .confirmWrite(let question):
            var lines = [
                Line([Span("Write \(question.key.endpoint)'s edits into "), Span(question.file, style: Theme.heading), Span("?")]),
            ]
            lines += question.changes.map { Line("  " + $0, style: Theme.dim) }
            lines += [
                Line("Only the lines that changed are written; the previous file is kept (u in the Edit tab restores it).", style: Theme.dim),
                Line(""),
                Line([Span("y", style: Theme.key), Span(" write   "), Span("n", style: Theme.key), Span(" keep the draft")]),
            ]
            let window = Overlay(block: block("Write the catalog file?", hint: nil), width: .cells(72), height: .cells(min(lines.count + 3, state.size.height - 2)))
            TextView(lines, wraps: true).render(into: &buffer, area: prepare(window, in: screen, buffer: &buffer))
        case .messages(let scroll):
            renderWrapped(
                OverlayText.messageLines(state.messages), title: "Messages · \(state.messages.entries.count)", scroll: scroll, screen: screen, into: &buffer)
        case .copyAs(let list):
            let items = RequestCode.allCases.map { format in Line([Span(format.title), Span("  " + format.summary, style: Theme.dim)]) }
            let window = Overlay(block: block("Copy the request as", hint: "Enter copies"), width: .cells(60), height: .cells(items.count + 2))
            ListView(items, highlightStyle: Theme.highlight, highlightSymbol: "› ").render(into: &buffer, area: prepare(window, in: screen, buffer: &buffer), state: list)
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

    /// A request's current question: its message, the choices, the answer being typed (masked for secrets).
    static func renderPrompt(_ dialog: PromptDialog, screen: Rect, into buffer: inout Buffer) -> Position? {
        guard let prompt = dialog.prompts.first else { return nil }
        var lines = [Line([Span(prompt.message ?? "A value for {{\(prompt.placeholder)}}")])]
        if !prompt.choices.isEmpty {
            // The choices on one line, the one under the cursor highlighted; ↑/↓ or Tab move it.
            let choices = prompt.choices.enumerated().map { index, choice in
                Span(" \(choice) ", style: index == dialog.choice ? Theme.highlight : Theme.dim)
            }
            lines.append(Line([Span("↑/↓ Tab", style: Theme.key), Span(" pick:", style: Theme.dim)] + choices))
        }
        lines.append(Line([Span("Enter", style: Theme.key), Span(" answers  ", style: Theme.dim), Span("Esc", style: Theme.key), Span(" does not send", style: Theme.dim)]))
        let left = dialog.prompts.count - 1
        let title = "\(dialog.call.endpoint) asks" + (left > 0 ? " (\(left) more)" : "")
        let window = Overlay(block: block(title, hint: prompt.isSecret ? "secret: not kept" : nil), width: .cells(64), height: .cells(lines.count + 4))
        let inside = prepare(window, in: screen, buffer: &buffer)
        TextView(lines, wraps: true).render(into: &buffer, area: Rect(x: inside.x, y: inside.y, width: inside.width, height: max(0, inside.height - 2)))
        let row = Rect(x: inside.x, y: inside.bottom - 1, width: inside.width, height: 1)
        var shown = dialog.input
        if prompt.isSecret { shown = MaskedInput.shown(shown) }
        let field = InputLine(prompt: Span(prompt.name + ": ", style: Theme.key), placeholder: prompt.defaultValue ?? "an answer")
        field.render(into: &buffer, area: row, state: shown)
        return field.cursorPosition(in: row, state: shown)
    }

    /// A WebSocket message being typed, with the endpoint's named messages.
    static func renderComposer(_ composer: MessageComposer, screen: Rect, into buffer: inout Buffer) -> Position? {
        var lines: [Line] = []
        if composer.named.isEmpty {
            lines.append(Line("Sent as a text message. The catalog names no messages for this endpoint.", style: Theme.dim))
        } else {
            let names = composer.named.enumerated().map { index, named in
                Span(" \(named.name) ", style: index == composer.chosen ? Theme.highlight : Theme.dim)
            }
            lines.append(Line([Span("Tab", style: Theme.key), Span(" named:", style: Theme.dim)] + names))
        }
        lines.append(Line([Span("Enter", style: Theme.key), Span(" sends  ", style: Theme.dim), Span("Esc", style: Theme.key), Span(" does not", style: Theme.dim)]))
        let field = InputLine(prompt: Span("› ", style: Theme.key), placeholder: "a text message (JSON is sent as typed)")
        return renderInputWindow(
            block("Message on \(composer.endpoint)", hint: "WebSocket"), width: 88, lines: lines, field: field, input: composer.input,
            screen: screen, into: &buffer)
    }

    /// Where a download goes.
    static func renderDownload(_ dialog: DownloadDialog, screen: Rect, into buffer: inout Buffer) -> Position? {
        let lines = [
            Line("The body goes straight to this file as it arrives: any size, never held in memory."),
            Line("A .part file left by an interrupted download is continued when the server allows.", style: Theme.dim),
        ]
        let field = InputLine(prompt: Span("File: ", style: Theme.key), placeholder: "a path (relative to where apiexplorer runs)")
        return renderInputWindow(
            block("Download \(dialog.endpoint)", hint: "Enter sends · Esc"), width: 88, lines: lines, field: field, input: dialog.input,
            screen: screen, into: &buffer)
    }

    /// The scratch request being typed, or the service it is saved into.
    static func renderScratch(_ dialog: ScratchDialog, screen: Rect, into buffer: inout Buffer) -> Position? {
        let title: String
        let lines: [Line]
        let field: InputLine
        switch dialog.step {
        case .compose:
            title = "New request"
            lines = [
                Line("GET by default; headers and a body: paste a curl command."),
                Line("A URL under an environment's base URL is sent with its settings.", style: Theme.dim),
            ]
            field = InputLine(prompt: Span("› ", style: Theme.key), placeholder: "POST https://api.example.com/items  or  curl -X …")
        case .save(let scratch):
            title = "Save \(scratch)"
            lines = [
                Line("Into which catalog service? It becomes a new endpoint there (a new name makes a new service);"),
                Line("its path is made relative to the service's base URL.", style: Theme.dim),
            ]
            field = InputLine(prompt: Span("Service: ", style: Theme.key), placeholder: "a service id, or a new one")
        }
        return renderInputWindow(block(title, hint: "Enter · Esc"), width: 76, lines: lines, field: field, input: dialog.input, screen: screen, into: &buffer)
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

    static func describe(_ example: CatalogExample) -> String {
        var text: String
        switch example.sample {
        case .status(let status, _), .response(let status, _, _): text = HTTPStatus.line(for: status)
        case .echo(let status, _): text = HTTPStatus.line(for: status) + " echoing the request"
        case .networkError(let error): text = "network error: \(error.code.rawValue)"
        case .noFixture: text = "no fixture: the catalog gives no answer"
        }
        if let delay = example.delay { text += " after \(delay.secondsText) s" }
        if let summary = example.summary { text = summary + " · " + text }
        return text
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
