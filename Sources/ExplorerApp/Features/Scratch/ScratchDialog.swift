import TerminalKit

/// The window that asks for a scratch request, or for the service to save one into.
package struct ScratchDialog: Sendable, Hashable {
    /// What the answer is for.
    package enum Step: Sendable, Hashable {
        /// `METHOD URL` or a curl command for a new request.
        case compose
        /// The id of the catalog service the scratch request (by its service id) is saved into.
        case save(scratch: String)
    }

    /// What the answer is for.
    package var step: Step
    /// The text being typed.
    package var input: InputState

    /// Makes a dialog with `text` typed in.
    package init(step: Step, text: String = "") {
        self.step = step
        input = InputState(text: text)
    }
}

/// How the scratch window is drawn.
enum ScratchDialogView {
    /// The scratch request being typed, or the service it is saved into.
    static func render(_ dialog: ScratchDialog, screen: Rect, into buffer: inout Buffer) -> Position? {
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
        return OverlayView.renderInputWindow(
            OverlayView.block(title, hint: "Enter · Esc"), width: 76, lines: lines, field: field, input: dialog.input, screen: screen, into: &buffer)
    }
}
