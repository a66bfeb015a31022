extension BodyDocument {
    /// The rows on screen for `state`: at most `viewportHeight` rows, each at most `viewportWidth` columns,
    /// with the gutter, syntax roles and search highlights. Only these rows are formatted; a row of a huge
    /// line costs the columns skipped to reach it (eight bytes per step for ASCII) plus its own width.
    package func renderVisible(_ state: BodyViewState) -> [BodyRenderedLine] {
        var state = state
        return state.navigate(self) { navigator, state in
            let renderer = RowRenderer(document: self, navigator: navigator, state: state)
            return renderer.render()
        }
    }

    /// A line's full text, unfolded and unwrapped, as `renderVisible` would show it with a wide enough viewport.
    package func plainText(ofLine line: Int) -> String {
        guard line >= 0, line < lineCount else { return "" }
        return withBytes { bytes in Self.text(of: layout(ofLine: line, folded: false, bytes: bytes).pieces, bytes: bytes) }
    }

    /// The text of some pieces, whole.
    static func text(of pieces: [BodyPiece], bytes: UnsafeRawBufferPointer) -> String {
        var cursor = BodyLineCursor(pieces: pieces, bytes: bytes)
        var sink: BodyRunBuilder? = BodyRunBuilder()
        while !cursor.isAtEnd { cursor.advance(1 << 20, mode: .clip, into: &sink) }
        return sink?.finish().map(\.text).joined() ?? ""
    }
}

/// Cuts the visible rows out of the visible lines.
private struct RowRenderer {
    let document: BodyDocument
    let navigator: BodyNavigator
    let state: BodyViewState
    let finder: BodyMatchFinder?
    let gutterWidth: Int
    let textWidth: Int

    init(document: BodyDocument, navigator: BodyNavigator, state: BodyViewState) {
        self.document = document
        self.navigator = navigator
        self.state = state
        if let search = state.search, !search.query.isEmpty {
            finder = BodyMatchFinder(search.query, document: document, bytes: navigator.bytes)
        } else {
            finder = nil
        }
        gutterWidth = state.gutterWidth(for: document)
        textWidth = navigator.textWidth
    }

    func render() -> [BodyRenderedLine] {
        var rows: [BodyRenderedLine] = []
        rows.reserveCapacity(state.height)
        // A top line set by hand inside a fold shows as the fold.
        let top = navigator.visibleLine(for: state.topLine)
        var line: Int? = top
        var firstRow = top == state.topLine ? state.topRow : 0
        while rows.count < state.height, let current = line {
            let folded = navigator.isFoldedOpen(current)
            let layout = document.layout(ofLine: current, folded: folded, bytes: navigator.bytes)
            var cursor = BodyLineCursor(pieces: layout.pieces, bytes: navigator.bytes)
            if state.isWrapping {
                for _ in 0..<firstRow { cursor.skip(textWidth, mode: .wrapRow) }
                var row = firstRow
                repeat {
                    var sink: BodyRunBuilder? = makeSink(layout: layout, cursor: cursor, line: current, row: row)
                    cursor.advance(textWidth, mode: .wrapRow, into: &sink)
                    rows.append(finish(sink, line: current, row: row, folded: folded))
                    row += 1
                } while !cursor.isAtEnd && rows.count < state.height
            } else {
                cursor.skip(state.horizontalOffset, mode: .skip)
                var sink: BodyRunBuilder? = makeSink(layout: layout, cursor: cursor, line: current, row: 0)
                cursor.advance(textWidth, mode: .clip, into: &sink)
                rows.append(finish(sink, line: current, row: 0, folded: folded))
            }
            line = navigator.nextVisible(current)
            firstRow = 0
        }
        return rows
    }

    private func makeSink(layout: BodyLineLayout, cursor: BodyLineCursor, line: Int, row: Int) -> BodyRunBuilder {
        var sink = BodyRunBuilder(matches: matches(in: layout, from: cursor.sourcePosition),
            currentMatch: state.search?.currentMatch)
        if gutterWidth > 0 {
            let number = row == 0 ? String(line + 1) : ""
            let padding = String(repeating: " ", count: max(0, gutterWidth - 1 - number.count))
            sink.append(padding + number + " ", role: .lineNumber)
        }
        return sink
    }

    private func finish(_ sink: BodyRunBuilder?, line: Int, row: Int, folded: Bool) -> BodyRenderedLine {
        var sink = sink ?? BodyRunBuilder()
        return BodyRenderedLine(line: line, lineNumber: row == 0 ? line + 1 : nil, row: row, runs: sink.finish(),
            isCursorLine: line == state.cursorLine, isFolded: folded)
    }

    /// Matches that may show on a row starting at body byte `start`: those overlapping the line for
    /// ordinary lines (a match may run on from the line before or into the next), a window around the row
    /// for huge ones.
    private func matches(in layout: BodyLineLayout, from start: Int?) -> [Range<Int>] {
        guard let finder, let start else { return [] }
        var lower = layout.rawRange.lowerBound
        var upper = layout.rawRange.upperBound
        if layout.rawRange.count > 1 << 16 {
            lower = max(lower, start)
            upper = min(upper, start + textWidth * 4)
        }
        lower = max(0, lower - finder.length + 1)
        let endLimit = min(navigator.bytes.count, upper + finder.length - 1)
        var found: [Range<Int>] = []
        var position = lower
        while found.count < 4096,
            let match = finder.first(from: position, startLimit: upper, endLimit: endLimit)
        {
            found.append(match..<match + finder.length)
            position = match + finder.length
        }
        return found
    }
}
