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
