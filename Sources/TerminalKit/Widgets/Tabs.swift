/// A row of tab titles, optionally numbered, with the selected one highlighted.
package struct Tabs: Widget, Hashable, Sendable {
    /// The titles, left to right.
    package var titles: [String]
    /// Shorter titles used when the titles do not fit (nil: the titles, trimmed of padding only).
    package var shortTitles: [String]?
    /// The selected tab.
    package var selected: Int
    /// Prefixes each title with its 1-based number (the key that selects it).
    package var isNumbered: Bool
    /// Drawn between tabs.
    package var divider: String
    /// Style of unselected titles.
    package var style: Style
    /// Style of the selected title.
    package var highlightStyle: Style
    /// Style of the numbers.
    package var numberStyle: Style
    /// Style of the divider.
    package var dividerStyle: Style

    /// Creates tabs.
    package init(
        _ titles: [String], shortTitles: [String]? = nil, selected: Int, isNumbered: Bool = true, divider: String = "│",
        style: Style = .plain, highlightStyle: Style = Style(modifiers: [.bold, .reverse]),
        numberStyle: Style = Style(foreground: .yellow), dividerStyle: Style = Style(foreground: .brightBlack)
    ) {
        self.titles = titles
        self.shortTitles = shortTitles
        self.selected = selected
        self.isNumbered = isNumbered
        self.divider = divider
        self.style = style
        self.highlightStyle = highlightStyle
        self.numberStyle = numberStyle
        self.dividerStyle = dividerStyle
    }

    /// The tab under a column of `area`'s first row, for mouse clicks.
    package func tab(atColumn column: Int, in area: Rect) -> Int? {
        var x = area.x
        for (index, label) in labels(fitting: area.width).enumerated() {
            let width = label.width
            if column >= x && column < x + width { return index }
            x += width + divider.displayWidth
        }
        return nil
    }

    /// Draws " 1 Title │ 2 Title " in the first row of `area` ("1 Title│2 Title", then the short
    /// titles, when that does not fit), clipped at its right edge.
    package func render(into buffer: inout Buffer, area: Rect) {
        guard !area.isEmpty else { return }
        var x = area.x
        for (index, label) in labels(fitting: area.width).enumerated() {
            guard x < area.right else { break }
            if index > 0 {
                x += buffer.write(divider, at: Position(x: x, y: area.y), style: dividerStyle, maxWidth: area.right - x)
            }
            let start = x
            x += buffer.write(label, at: Position(x: x, y: area.y), maxWidth: area.right - x)
            if index == selected {
                buffer.setStyle(highlightStyle, in: Rect(x: start, y: area.y, width: x - start, height: 1))
            }
        }
    }

    /// The widest labels that fit in `width`: padded, then unpadded, then the short titles.
    func labels(fitting width: Int) -> [Line] {
        let dividers = max(0, titles.count - 1) * divider.displayWidth
        var labels: [Line] = []
        for (names, padded) in [(titles, true), (titles, false), (shortTitles ?? titles, false)] {
            labels = names.indices.map { label($0, names[$0], padded: padded) }
            if labels.reduce(dividers, { $0 + $1.width }) <= width { return labels }
        }
        return labels
    }

    private func label(_ index: Int, _ title: String, padded: Bool) -> Line {
        var spans: [Span] = padded ? [" "] : []
        if isNumbered { spans += [Span("\(index + 1)", style: numberStyle), " "] }
        spans.append(Span(title))
        if padded { spans.append(" ") }
        return Line(spans, style: style)
    }
}
