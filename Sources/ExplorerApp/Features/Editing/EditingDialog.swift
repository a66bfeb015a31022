import Catalog
import TerminalKit

/// The window of editing: the question before a draft is written into its catalog file.
package enum EditingDialog: Sendable, Hashable {
    /// Asks before `W` writes a draft into its catalog file.
    case confirmWrite(WriteQuestion)
}

/// The question asked before a draft is written into its catalog file.
package struct WriteQuestion: Sendable, Hashable {
    /// The draft.
    package var key: DraftKey
    /// Its edits, as they will be written.
    package var edits: EndpointEdits
    /// The catalog file, as shown.
    package var file: String
    /// What changes, one line each (method, path, a header …).
    package var changes: [String]
}

/// How the window of editing is drawn.
enum EditingDialogView {
    static func render(_ dialog: EditingDialog, state: AppState, screen: Rect, into buffer: inout Buffer) {
        switch dialog {
        case .confirmWrite(let question):
            var lines = [
                Line([Span("Write \(question.key.endpoint)'s edits into "), Span(question.file, style: Theme.heading), Span("?")])
            ]
            lines += question.changes.map { Line("  " + $0, style: Theme.dim) }
            lines += [
                Line("Only the lines that changed are written; the previous file is kept (u in the Edit tab restores it).", style: Theme.dim),
                Line(""),
                Line([Span("y", style: Theme.key), Span(" write   "), Span("n", style: Theme.key), Span(" keep the draft")]),
            ]
            let window = Overlay(
                block: OverlayView.block("Write the catalog file?", hint: nil), width: .cells(72), height: .cells(min(lines.count + 3, state.size.height - 2)))
            TextView(lines, wraps: true).render(into: &buffer, area: OverlayView.prepare(window, in: screen, buffer: &buffer))
        }
    }
}
