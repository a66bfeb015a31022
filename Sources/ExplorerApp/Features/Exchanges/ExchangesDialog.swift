import Catalog
import DispatcherCore
import RequestExport
import Sessions
import TerminalKit
import TextSupport

/// The windows of sending: what is asked before a request goes out, and the windows that end in
/// sending or copying one.
package enum ExchangesDialog: Sendable, Hashable {
    /// The endpoint's examples to pick from (Enter sends one).
    case examplePicker(endpoint: EndpointKey, list: ListState)
    /// Asks the `{{prompt.NAME}}` questions of a request before it is sent.
    case prompt(PromptDialog)
    /// Shows what an untrusted catalog declares and asks whether to trust it, before its request
    /// reaches outside it (the network, a download).
    case confirmTrust(TrustQuestion)
    /// Asks before a request that changes data in production.
    case confirmSend(EndpointCall)
    /// Asks before a download replaces a file that exists.
    case confirmReplace(EndpointCall)
    /// Asks where the selected endpoint's body is downloaded to.
    case download(DownloadDialog)
    /// The formats the last request can be copied as.
    case copyAs(list: ListState)

    /// What the keyboard does while it is open.
    var keyContext: KeyContext {
        switch self {
        case .confirmTrust, .confirmSend, .confirmReplace: .question
        case .prompt, .download: .typing
        case .examplePicker, .copyAs: .window
        }
    }
}

/// The file a download goes to, being typed.
package struct DownloadDialog: Sendable, Hashable {
    /// The endpoint sent.
    package var endpoint: EndpointKey
    /// The example it is sent with.
    package var example: String?
    /// The path typed (relative to where the explorer runs).
    package var input: InputState
}

/// The questions of a request being asked, one at a time.
package struct PromptDialog: Sendable, Hashable {
    /// The request, its answers so far among its values.
    package var call: EndpointCall
    /// The questions left, the current one first.
    package var prompts: [Prompt]
    /// The answer being typed.
    package var input: InputState
    /// The choice under the cursor when the question has choices (↑/↓ or Tab pick one; it is typed in).
    package var choice: Int?

    /// Starts with the first question, its default typed in.
    package init(call: EndpointCall, prompts: [Prompt]) {
        self.call = call
        self.prompts = prompts
        input = InputState()
        ask(prompts.first)
    }

    /// Shows `prompt`: its default typed in, and its cursor on that choice (or the first).
    mutating func ask(_ prompt: Prompt?) {
        input = InputState(text: prompt?.defaultValue ?? "")
        guard let prompt, !prompt.choices.isEmpty else {
            choice = nil
            return
        }
        choice = prompt.defaultValue.flatMap { prompt.choices.firstIndex(of: $0) }
        if choice == nil, prompt.defaultValue == nil { pick(0, of: prompt) }
    }

    /// Puts the cursor on choice `index` (wrapping around) and types it in.
    mutating func pick(_ index: Int, of prompt: Prompt) {
        guard !prompt.choices.isEmpty else { return }
        let count = prompt.choices.count
        let wrapped = ((index % count) + count) % count
        choice = wrapped
        input = InputState(text: prompt.choices[wrapped])
    }
}

/// The question asked before an untrusted catalog's request reaches outside it.
package struct TrustQuestion: Sendable, Hashable {
    /// The request waiting for the answer.
    package var call: EndpointCall
    /// What the catalog declares.
    package var declaration: TrustDeclaration
    /// The catalog file's content hash: what trusting remembers.
    package var contentHash: String
    /// What the request would do (`send requests over the network`).
    package var reason: String
}

/// How the windows of sending are drawn.
enum ExchangesDialogView {
    /// Draws the window; returns where the terminal cursor goes while an answer is typed.
    static func render(_ dialog: ExchangesDialog, state: AppState, screen: Rect, into buffer: inout Buffer) -> Position? {
        switch dialog {
        case .examplePicker(let key, let list):
            let names = state.selectedEndpoint?.exampleNames ?? []
            let endpoint = state.catalog.endpoint(key)?.endpoint
            let items = names.map { name -> Line in
                let example = endpoint?.example(named: name)
                return Line([Span(name), Span("  " + (example.map(describe) ?? ""), style: Theme.dim)])
            }
            let window = Overlay(block: OverlayView.block("Examples of \(key)", hint: "\(state.keys(.choose)) sends"), width: .cells(60), height: .cells(min(items.count, 16) + 2))
            ListView(items, highlightStyle: Theme.highlight, highlightSymbol: "› ")
                .render(into: &buffer, area: OverlayView.prepare(window, in: screen, buffer: &buffer), state: list)
        case .confirmSend(let call):
            let method = state.catalog.endpoint(call.endpoint)?.endpoint.method.rawValue ?? ""
            let lines = [
                Line([Span("Send \(method) \(call.endpoint) to "), Span(call.environment, style: Theme.error), Span("?")]),
                Line("It is a production environment and the request changes data."),
                Line(""),
                Line([Span("y", style: Theme.key), Span(" send   "), Span("n", style: Theme.key), Span(" cancel")]),
            ]
            renderQuestion(lines, title: "Production", screen: screen, into: &buffer)
        case .confirmReplace(let call):
            let lines = [
                Line([Span("\(call.downloadPath ?? "The file") exists.", style: Theme.error)]),
                Line("Download \(call.endpoint) over it?"),
                Line(""),
                Line([Span("y", style: Theme.key), Span(" replace it   "), Span("n", style: Theme.key), Span(" keep it")]),
            ]
            renderQuestion(lines, title: "Replace?", screen: screen, into: &buffer)
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
            let window = Overlay(
                block: OverlayView.block("Trust this catalog?", hint: nil), width: .percent(80), height: .cells(min(lines.count + 2, state.size.height - 2)))
            TextView(lines, wraps: true).render(into: &buffer, area: OverlayView.prepare(window, in: screen, buffer: &buffer))
        case .prompt(let dialog):
            return renderPrompt(dialog, screen: screen, into: &buffer)
        case .download(let dialog):
            let lines = [
                Line("The body goes straight to this file as it arrives: any size, never held in memory."),
                Line("A .part file left by an interrupted download is continued when the server allows.", style: Theme.dim),
            ]
            let field = InputLine(prompt: Span("File: ", style: Theme.key), placeholder: "a path (relative to where apiexplorer runs)")
            return OverlayView.renderInputWindow(
                OverlayView.block("Download \(dialog.endpoint)", hint: "Enter sends · Esc"), width: 88, lines: lines, field: field, input: dialog.input,
                screen: screen, into: &buffer)
        case .copyAs(let list):
            let items = RequestCode.allCases.map { format in Line([Span(format.title), Span("  " + format.summary, style: Theme.dim)]) }
            let window = Overlay(block: OverlayView.block("Copy the request as", hint: "Enter copies"), width: .cells(60), height: .cells(items.count + 2))
            ListView(items, highlightStyle: Theme.highlight, highlightSymbol: "› ")
                .render(into: &buffer, area: OverlayView.prepare(window, in: screen, buffer: &buffer), state: list)
        }
        return nil
    }

    /// A yes-or-no question in a window of its lines.
    static func renderQuestion(_ lines: [Line], title: String, screen: Rect, into buffer: inout Buffer) {
        let window = Overlay(block: OverlayView.block(title, hint: nil), width: .cells(64), height: .cells(lines.count + 2))
        TextView(lines, wraps: true).render(into: &buffer, area: OverlayView.prepare(window, in: screen, buffer: &buffer))
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
        let window = Overlay(block: OverlayView.block(title, hint: prompt.isSecret ? "secret: not kept" : nil), width: .cells(64), height: .cells(lines.count + 4))
        let inside = OverlayView.prepare(window, in: screen, buffer: &buffer)
        TextView(lines, wraps: true).render(into: &buffer, area: Rect(x: inside.x, y: inside.y, width: inside.width, height: max(0, inside.height - 2)))
        let row = Rect(x: inside.x, y: inside.bottom - 1, width: inside.width, height: 1)
        var shown = dialog.input
        if prompt.isSecret { shown = MaskedInput.shown(shown) }
        let field = InputLine(prompt: Span(prompt.name + ": ", style: Theme.key), placeholder: prompt.defaultValue ?? "an answer")
        field.render(into: &buffer, area: row, state: shown)
        return field.cursorPosition(in: row, state: shown)
    }

    /// An example in a few words: its answer, its delay, its summary.
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
