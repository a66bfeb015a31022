import TerminalKit

/// Where the parts of the Body tab sit: an info line on top, the body rows, a scrollbar on the right
/// when the body is longer than the rows, and an input or search line at the bottom when one is open.
/// The reducer sizes the view state with it and the view draws with it, so both always agree.
struct BodyPaneLayout {
    /// The line above the body: kind, notices, progress, the query shown.
    var info: Rect
    /// The body rows (without the scrollbar column).
    var body: Rect
    /// The scrollbar column, empty when everything fits.
    var scrollbar: Rect
    /// The input or search line, empty when none is shown.
    var bottom: Rect

    init(content: Rect, pane: BodyPane) {
        info = content.height > 0 ? content.row(0) : .zero
        var rest = content.inset(top: min(1, content.height))
        let hasBottom = pane.prompt != nil || pane.active?.view.search != nil
        if hasBottom, rest.height >= 2 {
            bottom = rest.row(rest.height - 1)
            rest = rest.inset(bottom: 1)
        } else {
            bottom = .zero
        }
        let lineCount = pane.active?.document.lineCount ?? 0
        if lineCount > rest.height || (pane.active?.view.isWrapping == true && lineCount > 1), rest.width >= 2 {
            scrollbar = Rect(x: rest.x + rest.width - 1, y: rest.y, width: 1, height: rest.height)
            rest = Rect(x: rest.x, y: rest.y, width: rest.width - 1, height: rest.height)
        } else {
            scrollbar = .zero
        }
        body = rest
    }
}
