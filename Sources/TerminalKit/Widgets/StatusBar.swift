/// A one-row bar: text on the left, prioritised segments on the right.
///
/// The right side is served first: segments are kept in order of priority (highest first, ties to
/// the earlier) while they fit, and shown in their original order; the left side gets what remains
/// and is truncated with an ellipsis.
package struct StatusBar: Widget, Sendable {
    /// A right-hand segment.
    package struct Segment: Hashable, Sendable {
        /// The text.
        package var line: Line
        /// Higher priorities keep their place when space is short.
        package var priority: Int
        /// Creates a segment.
        package init(_ line: Line, priority: Int = 0) {
            self.line = line
            self.priority = priority
        }
    }

    /// Left-hand text.
    package var left: Line
    /// Right-hand segments, left to right.
    package var right: [Segment]
    /// Drawn between right-hand segments.
    package var separator: Span
    /// Style of the whole row.
    package var style: Style

    /// Creates a status bar.
    package init(
        left: Line, right: [Segment] = [], separator: Span = Span(" │ ", style: Style(foreground: .brightBlack)),
        style: Style = .plain
    ) {
        self.left = left
        self.right = right
        self.separator = separator
        self.style = style
    }

    /// The indices of the right segments that fit in `width` columns.
    package func visibleSegments(width: Int) -> [Int] {
        let order = right.indices.sorted { right[$0].priority != right[$1].priority ? right[$0].priority > right[$1].priority : $0 < $1 }
        var kept: [Int] = []
        var used = 0
        for index in order {
            let extra = right[index].line.width + (kept.isEmpty ? 0 : separator.width)
            guard used + extra <= width else { break }
            kept.append(index)
            used += extra
        }
        return kept.sorted()
    }

    /// Draws the bar in the first row of `area`.
    package func render(into buffer: inout Buffer, area: Rect) {
        guard !area.isEmpty else { return }
        let row = area.row(0)
        buffer.fill(row, style: style)
        var rightLine = Line([], style: style)
        let kept = visibleSegments(width: row.width)
        for (position, index) in kept.enumerated() {
            if position > 0 { rightLine.spans.append(separator) }
            rightLine.spans += right[index].line.spans.map { Span($0.text, style: right[index].line.style.patched(with: $0.style)) }
        }
        if kept.isEmpty, let best = right.indices.max(by: { right[$0].priority < right[$1].priority }), left.width == 0 {
            rightLine = right[best].line.truncated(toWidth: row.width).styled(style)
        }
        let rightWidth = rightLine.width
        if rightWidth > 0 {
            buffer.write(rightLine, at: Position(x: row.right - rightWidth, y: row.y), maxWidth: rightWidth)
        }
        let leftRoom = row.width - rightWidth - (rightWidth > 0 ? 1 : 0)
        if leftRoom > 0 {
            buffer.write(left.truncated(toWidth: leftRoom).styled(style), at: row.origin, maxWidth: leftRoom)
        }
    }
}
