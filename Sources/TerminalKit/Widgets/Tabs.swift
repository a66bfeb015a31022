/// A row of tab titles, optionally numbered, with the selected one highlighted.
public struct Tabs: Widget, Hashable, Sendable {
    /// The titles, left to right.
    public var titles: [String]
    /// The selected tab.
    public var selected: Int
    /// Prefixes each title with its 1-based number (the key that selects it).
    public var isNumbered: Bool
    /// Drawn between tabs.
    public var divider: String
    /// Style of unselected titles.
    public var style: Style
    /// Style of the selected title.
    public var highlightStyle: Style
    /// Style of the numbers.
    public var numberStyle: Style
    /// Style of the divider.
    public var dividerStyle: Style

    /// Creates tabs.
    public init(
        _ titles: [String], selected: Int, isNumbered: Bool = true, divider: String = "│",
        style: Style = .plain, highlightStyle: Style = Style(modifiers: [.bold, .reverse]),
        numberStyle: Style = Style(foreground: .yellow), dividerStyle: Style = Style(foreground: .brightBlack)
    ) {
        self.titles = titles
        self.selected = selected
        self.isNumbered = isNumbered
        self.divider = divider
        self.style = style
        self.highlightStyle = highlightStyle
        self.numberStyle = numberStyle
        self.dividerStyle = dividerStyle
    }

    /// The tab under a column of `area`'s first row, for mouse clicks.
    public func tab(atColumn column: Int, in area: Rect) -> Int? {
        var x = area.x
        for index in titles.indices {
            let width = label(index).width
            if column >= x && column < x + width { return index }
            x += width + divider.displayWidth
        }
        return nil
    }

    /// Draws " 1 Title │ 2 Title " in the first row of `area`, clipped at its right edge.
    public func render(into buffer: inout Buffer, area: Rect) {
        guard !area.isEmpty else { return }
        var x = area.x
        for index in titles.indices {
            guard x < area.right else { break }
            if index > 0 {
                x += buffer.write(divider, at: Position(x: x, y: area.y), style: dividerStyle, maxWidth: area.right - x)
            }
            let start = x
            x += buffer.write(label(index), at: Position(x: x, y: area.y), maxWidth: area.right - x)
            if index == selected {
                buffer.setStyle(highlightStyle, in: Rect(x: start, y: area.y, width: x - start, height: 1))
            }
        }
    }

    private func label(_ index: Int) -> Line {
        var spans: [Span] = [" "]
        if isNumbered { spans += [Span("\(index + 1)", style: numberStyle), " "] }
        spans += [Span(titles[index]), " "]
        return Line(spans, style: style)
    }
}
