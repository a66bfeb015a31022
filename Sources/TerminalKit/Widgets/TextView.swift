/// Styled lines with vertical scrolling, and either word wrapping or horizontal scrolling.
package struct TextView: Widget, Sendable {
    /// The content.
    package var lines: [Line]
    /// An optional border.
    package var block: Block?
    /// Wraps long lines at word boundaries (hard-breaking words wider than the area).
    package var wraps: Bool
    /// First visible row (of wrapped rows when wrapping); clamped so the last page stays full.
    package var verticalOffset: Int
    /// First visible column when not wrapping.
    package var horizontalOffset: Int
    /// Style laid over the area before drawing.
    package var style: Style

    /// Creates a text view.
    package init(
        _ lines: [Line], block: Block? = nil, wraps: Bool = false,
        verticalOffset: Int = 0, horizontalOffset: Int = 0, style: Style = .plain
    ) {
        self.lines = lines
        self.block = block
        self.wraps = wraps
        self.verticalOffset = verticalOffset
        self.horizontalOffset = horizontalOffset
        self.style = style
    }

    /// The rows the content takes at a given width (wrapped or not).
    package func rows(width: Int) -> [Line] {
        guard wraps else { return lines }
        return lines.flatMap { TextWrapper.wrap($0, width: width) }
    }

    /// The largest useful vertical offset for a viewport.
    package func maxVerticalOffset(viewport: Size) -> Int {
        max(0, rows(width: viewport.width).count - viewport.height)
    }

    /// Draws the visible rows.
    package func render(into buffer: inout Buffer, area: Rect) {
        var area = area
        if let block {
            block.render(into: &buffer, area: area)
            area = block.inner(area)
        }
        guard !area.isEmpty else { return }
        if style != .plain { buffer.setStyle(style, in: area) }
        let rows = rows(width: area.width)
        let first = min(max(0, verticalOffset), max(0, rows.count - area.height))
        for row in 0..<area.height {
            guard first + row < rows.count else { break }
            var line = rows[first + row]
            if !wraps && horizontalOffset > 0 { line = line.slice(columns: horizontalOffset, width: area.width) }
            buffer.write(line, in: area.row(row))
        }
    }
}

/// Word wrapping of styled lines by display width.
package enum TextWrapper {
    /// Splits a line into rows of at most `width` columns, breaking after spaces where possible.
    /// The space a row breaks at is dropped; an empty line gives one empty row.
    package static func wrap(_ line: Line, width: Int) -> [Line] {
        guard width > 0 else { return [line] }
        if line.width <= width { return [line] }
        var glyphs: [(character: Character, style: Style, width: Int)] = []
        for span in line.spans {
            for character in span.text.expandingTabs() {
                let glyphWidth = DisplayWidth.of(character)
                if glyphWidth > 0 { glyphs.append((character, span.style, glyphWidth)) }
            }
        }
        var rows: [Line] = []
        var start = 0
        while start < glyphs.count {
            var end = start, used = 0
            while end < glyphs.count && used + glyphs[end].width <= width { used += glyphs[end].width; end += 1 }
            if end == start { end = start + 1 }  // a glyph wider than the row: place it alone
            var next = end
            if end < glyphs.count {
                if glyphs[end].character == " " {
                    next = end + 1
                } else if let space = (start + 1..<end).last(where: { glyphs[$0].character == " " }) {
                    end = space
                    next = space + 1
                }
            }
            var spans: [Span] = []
            for glyph in glyphs[start..<end] {
                if let last = spans.last, last.style == glyph.style {
                    spans[spans.count - 1].text.append(glyph.character)
                } else {
                    spans.append(Span(String(glyph.character), style: glyph.style))
                }
            }
            rows.append(Line(spans, alignment: line.alignment, style: line.style))
            start = next
        }
        return rows.isEmpty ? [Line([], alignment: line.alignment, style: line.style)] : rows
    }
}
