/// Horizontal placement of a line inside its area.
package enum Alignment: Hashable, Sendable {
    /// Flush left.
    case left
    /// Centred; an odd leftover column goes to the right.
    case center
    /// Flush right.
    case right
}

/// One row of styled text.
package struct Line: Hashable, Sendable, ExpressibleByStringInterpolation {
    /// The runs, left to right.
    package var spans: [Span]
    /// Placement inside the area it is drawn in.
    package var alignment: Alignment
    /// A style laid under every span (spans patch over it).
    package var style: Style

    /// Creates a line from spans.
    package init(_ spans: [Span], alignment: Alignment = .left, style: Style = .plain) {
        self.spans = spans
        self.alignment = alignment
        self.style = style
    }

    /// A line of one span.
    package init(_ text: String, style: Style = .plain, alignment: Alignment = .left) {
        self.init([Span(text)], alignment: alignment, style: style)
    }

    /// A plain line from a literal.
    package init(stringLiteral value: String) { self.init(value) }

    /// A plain value from an interpolated literal.
    package init(stringInterpolation: DefaultStringInterpolation) { self.init(String(stringInterpolation: stringInterpolation)) }

    /// The empty line.
    package static let empty = Line([Span]())

    /// Columns the line occupies.
    package var width: Int { spans.reduce(0) { $0 + $1.width } }

    /// The text without styles.
    package var plainText: String { spans.map(\.text).joined() }

    /// A copy with another alignment.
    package func aligned(_ alignment: Alignment) -> Line { var copy = self; copy.alignment = alignment; return copy }

    /// A copy with `style` laid under every span.
    package func styled(_ style: Style) -> Line { var copy = self; copy.style = self.style.patched(with: style); return copy }

    /// A copy with a span appended.
    package func appending(_ span: Span) -> Line { var copy = self; copy.spans.append(span); return copy }

    /// The columns `start ..< start + width` of the line, keeping styles (for horizontal scrolling).
    package func slice(columns start: Int, width: Int) -> Line {
        var result = Line([], alignment: alignment, style: style)
        var column = 0
        for span in spans {
            let spanWidth = span.text.expandingTabs().displayWidth
            let spanStart = column, spanEnd = column + spanWidth
            column = spanEnd
            let from = max(start, spanStart), to = min(start + width, spanEnd)
            guard to > from else { continue }
            result.spans.append(Span(span.text.slice(columns: from - spanStart, width: to - from), style: span.style))
        }
        return result
    }

    /// The longest prefix that fits in `width` columns, keeping styles; a wide character that would
    /// cross the edge is left out.
    package func prefix(columns width: Int) -> Line {
        var result = Line([], alignment: alignment, style: style)
        var used = 0
        for span in spans {
            let room = width - used
            guard room > 0 else { break }
            let text = span.text.prefix(columns: room)
            if !text.isEmpty { result.spans.append(Span(text, style: span.style)) }
            let textWidth = text.displayWidth
            used += textWidth
            if textWidth < span.text.expandingTabs().displayWidth { break }
        }
        return result
    }

    /// The line cut to at most `width` columns, ending in `ellipsis` (in the cut span's style) when cut.
    package func truncated(toWidth width: Int, ellipsis: String = "…") -> Line {
        guard self.width > width else { return self }
        let ellipsisWidth = ellipsis.displayWidth
        guard width > 0 else { return Line([], alignment: alignment, style: style) }
        guard ellipsisWidth <= width else { return prefix(columns: width) }
        var result = prefix(columns: width - ellipsisWidth)
        let cutStyle = spanStyle(atColumn: result.width)
        result.spans.append(Span(ellipsis, style: cutStyle))
        return result
    }

    /// The style of the span covering a column (the last span's past the end).
    func spanStyle(atColumn target: Int) -> Style {
        var column = 0
        for span in spans {
            column += span.width
            if column > target { return span.style }
        }
        return spans.last?.style ?? .plain
    }
}
