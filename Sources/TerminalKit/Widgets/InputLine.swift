/// A one-line text input that scrolls horizontally to keep the cursor visible.
package struct InputLine: StatefulWidget, Sendable {
    /// Drawn before the text, e.g. "/ " or "> ".
    package var prompt: Span?
    /// Shown, dimmed, while the text is empty.
    package var placeholder: String?
    /// Style of the text.
    package var style: Style
    /// Style of the placeholder.
    package var placeholderStyle: Style

    /// Creates an input line.
    package init(
        prompt: Span? = nil, placeholder: String? = nil, style: Style = .plain,
        placeholderStyle: Style = Style(foreground: .brightBlack)
    ) {
        self.prompt = prompt
        self.placeholder = placeholder
        self.style = style
        self.placeholderStyle = placeholderStyle
    }

    /// The first visible text column for a state in an area, moved as little as possible from the
    /// stored one so the cursor cell is visible and no space is wasted past the end.
    package func scrollOffset(for state: InputState, in area: Rect) -> Int {
        let visible = textWidth(in: area)
        guard visible > 0 else { return 0 }
        let column = state.cursorColumn
        let cursorWidth = state.cursor < state.characters.count ? max(1, DisplayWidth.of(state.characters[state.cursor])) : 1
        let total = state.columns(upTo: state.characters.count)
        var offset = min(state.scrollOffset, max(0, total + 1 - visible))
        offset = max(offset, column + cursorWidth - visible)
        offset = min(offset, column)
        return max(0, offset)
    }

    /// The cell where the terminal cursor belongs, or nil when the area cannot show it.
    package func cursorPosition(in area: Rect, state: InputState) -> Position? {
        guard !area.isEmpty, textWidth(in: area) > 0 else { return nil }
        let offset = scrollOffset(for: state, in: area)
        return Position(x: area.x + promptWidth(in: area) + state.cursorColumn - offset, y: area.y)
    }

    /// Draws the prompt and the visible part of the text; stores the scroll offset used.
    package func render(into buffer: inout Buffer, area: Rect, state: inout InputState) {
        guard !area.isEmpty else { return }
        let row = area.row(0)
        var x = row.x
        if let prompt { x += buffer.write(prompt, at: row.origin, maxWidth: row.width) }
        let visible = textWidth(in: area)
        guard visible > 0 else { return }
        state.scrollOffset = scrollOffset(for: state, in: area)
        if state.characters.isEmpty, let placeholder {
            buffer.write(placeholder.truncated(toWidth: visible), at: Position(x: x, y: row.y), style: placeholderStyle, maxWidth: visible)
        } else {
            let shown = state.text.slice(columns: state.scrollOffset, width: visible)
            buffer.write(shown, at: Position(x: x, y: row.y), style: style, maxWidth: visible)
        }
    }

    /// Draws without keeping the offset.
    package func render(into buffer: inout Buffer, area: Rect, state: InputState) {
        var copy = state
        render(into: &buffer, area: area, state: &copy)
    }

    private func promptWidth(in area: Rect) -> Int { min(prompt?.width ?? 0, area.width) }
    private func textWidth(in area: Rect) -> Int { area.width - promptWidth(in: area) }
}
