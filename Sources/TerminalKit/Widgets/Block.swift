/// The characters of a border.
package struct BorderSet: Hashable, Sendable {
    /// Top-left, top-right, bottom-left, bottom-right corners.
    package var topLeft, topRight, bottomLeft, bottomRight: String
    /// Horizontal and vertical edges.
    package var horizontal, vertical: String

    /// Creates a border set.
    package init(topLeft: String, topRight: String, bottomLeft: String, bottomRight: String, horizontal: String, vertical: String) {
        self.topLeft = topLeft
        self.topRight = topRight
        self.bottomLeft = bottomLeft
        self.bottomRight = bottomRight
        self.horizontal = horizontal
        self.vertical = vertical
    }

    /// ╭─╮ │ ╰─╯
    package static let rounded = BorderSet(topLeft: "╭", topRight: "╮", bottomLeft: "╰", bottomRight: "╯", horizontal: "─", vertical: "│")
    /// ┌─┐ │ └─┘
    package static let plain = BorderSet(topLeft: "┌", topRight: "┐", bottomLeft: "└", bottomRight: "┘", horizontal: "─", vertical: "│")
    /// ┏━┓ ┃ ┗━┛, for emphasis.
    package static let thick = BorderSet(topLeft: "┏", topRight: "┓", bottomLeft: "┗", bottomRight: "┛", horizontal: "━", vertical: "┃")
    /// ╔═╗ ║ ╚═╝
    package static let double = BorderSet(topLeft: "╔", topRight: "╗", bottomLeft: "╚", bottomRight: "╝", horizontal: "═", vertical: "║")
}

/// A bordered box with an optional title on the left and another on the right of its top edge.
package struct Block: Widget, Hashable, Sendable {
    /// The title drawn after the top-left corner (padded with a space on each side).
    package var title: Line?
    /// The title drawn before the top-right corner; the left title wins when both do not fit.
    package var rightTitle: Line?
    /// Border characters.
    package var borders: BorderSet
    /// True when the block has the focus: its border uses `focusedBorderStyle`.
    package var isFocused: Bool
    /// Border style without focus.
    package var borderStyle: Style
    /// Border style with focus.
    package var focusedBorderStyle: Style
    /// Style laid under the titles (spans patch over it).
    package var titleStyle: Style
    /// Style of the whole area, laid before anything is drawn (e.g. a background).
    package var style: Style

    /// Creates a block.
    package init(
        title: Line? = nil, rightTitle: Line? = nil, borders: BorderSet = .rounded, isFocused: Bool = false,
        borderStyle: Style = Style(foreground: .brightBlack),
        focusedBorderStyle: Style = Style(foreground: .cyan),
        titleStyle: Style = .plain, style: Style = .plain
    ) {
        self.title = title
        self.rightTitle = rightTitle
        self.borders = borders
        self.isFocused = isFocused
        self.borderStyle = borderStyle
        self.focusedBorderStyle = focusedBorderStyle
        self.titleStyle = titleStyle
        self.style = style
    }

    /// The area inside the border.
    package func inner(_ area: Rect) -> Rect { area.inset(by: 1) }

    /// Draws the border and titles; the inside keeps whatever it had (see `Overlay` to clear it).
    package func render(into buffer: inout Buffer, area: Rect) {
        guard !area.isEmpty else { return }
        if style != .plain { buffer.setStyle(style, in: area) }
        let border = isFocused ? focusedBorderStyle : borderStyle
        let right = area.right - 1, bottom = area.bottom - 1
        // A one-column piece is measured once, not at each of the ~500 cells of a screen's borders.
        func draw(_ piece: String, isNarrow: Bool, at x: Int, _ y: Int) {
            if isNarrow {
                buffer.put(piece, width: 1, x: x, y: y, style: border)
            } else {
                buffer.write(piece, at: Position(x: x, y: y), style: border)
            }
        }
        let horizontal = borders.horizontal, vertical = borders.vertical
        let narrowHorizontal = Self.isNarrowPiece(horizontal), narrowVertical = Self.isNarrowPiece(vertical)
        for x in area.x...right {
            draw(horizontal, isNarrow: narrowHorizontal, at: x, area.y)
            if area.height > 1 { draw(horizontal, isNarrow: narrowHorizontal, at: x, bottom) }
        }
        for y in area.y...bottom {
            draw(vertical, isNarrow: narrowVertical, at: area.x, y)
            if area.width > 1 { draw(vertical, isNarrow: narrowVertical, at: right, y) }
        }
        if area.width > 1 && area.height > 1 {
            buffer.write(borders.topLeft, at: Position(x: area.x, y: area.y), style: border)
            buffer.write(borders.topRight, at: Position(x: right, y: area.y), style: border)
            buffer.write(borders.bottomLeft, at: Position(x: area.x, y: bottom), style: border)
            buffer.write(borders.bottomRight, at: Position(x: right, y: bottom), style: border)
        }
        renderTitles(into: &buffer, area: area)
    }

    /// One cluster, one column wide: drawn as a cell of its own, as `Buffer.write` would draw it.
    private static func isNarrowPiece(_ piece: String) -> Bool {
        guard let first = piece.first, piece.index(after: piece.startIndex) == piece.endIndex else { return false }
        return DisplayWidth.of(first) == 1
    }

    private func renderTitles(into buffer: inout Buffer, area: Rect) {
        // Titles live between the corners, each padded by a space: "╭ Title ─── Right ╮".
        let room = area.width - 2
        guard room > 2 else { return }
        var leftUsed = 0
        if let title, title.width > 0 {
            let padded = Line([" "] + title.spans + [" "], style: titleStyle.patched(with: title.style))
            leftUsed = buffer.write(padded.truncated(toWidth: room), at: Position(x: area.x + 1, y: area.y), maxWidth: room)
        }
        if let rightTitle, rightTitle.width > 0 {
            let padded = Line([" "] + rightTitle.spans + [" "], style: titleStyle.patched(with: rightTitle.style))
            let free = room - leftUsed - (leftUsed > 0 ? 1 : 0)
            guard padded.width <= free else { return }
            buffer.write(padded, at: Position(x: area.right - 1 - padded.width, y: area.y))
        }
    }
}
