import TerminalKit

/// The window over the panes: the overlay slice's own (help, the catalog's problems, the message
/// log) or a feature's, as the feature asked for it (`AppShell.present`). A feature's window is its
/// own type, in its folder: while it is open its keys go to the feature, and a question's answer
/// comes back to it as its own action (`WindowInput`).
package enum Dialog: Sendable, Hashable {
    /// The keys, generated from the keymap.
    case help(scroll: Int)
    /// The catalog diagnostics.
    case diagnostics(scroll: Int)
    /// Every notice and error of this run, newest last.
    case messages(scroll: Int)
    // Features' windows (Features/<Name>/): one case each.
    /// Sending: a request's questions and confirmations, its examples, a download's file, copy as code.
    case exchanges(ExchangesDialog)
    /// Writing a draft into its catalog file.
    case editing(EditingDialog)
    /// Requests sent before, to read and send again.
    case history(list: ListState)
    /// The cookies or the tokens of an environment.
    case auth(AuthWindow)
    /// A scratch request being typed, or where to save one.
    case scratch(ScratchDialog)
    /// A message being typed for an open WebSocket.
    case webSocket(MessageComposer)
    /// The active service's flows, to run one.
    case checks(flows: ListState)

    /// What the keyboard does while it is open.
    var keyContext: KeyContext {
        switch self {
        case .exchanges(let dialog): dialog.keyContext
        case .editing: .question
        case .scratch, .webSocket: .typing
        case .help, .diagnostics, .messages, .history, .auth, .checks: .window
        }
    }
}
