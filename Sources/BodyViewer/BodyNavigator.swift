/// A place in the stream of screen rows: a visible line and one of its wrapped rows.
struct RowPosition: Comparable, Hashable {
    var line: Int
    var row: Int

    static func < (lhs: RowPosition, rhs: RowPosition) -> Bool {
        lhs.line != rhs.line ? lhs.line < rhs.line : lhs.row < rhs.row
    }
}

/// Row arithmetic over a document under a fold set and a wrap width. Every step walks at most the
/// depth, each level a depth scan that skips 4,096-line superblocks (a few thousand steps in a
/// 100M-line body), so folding everything keeps frames cheap.
struct BodyNavigator {
    let document: BodyDocument
    let bytes: UnsafeRawBufferPointer
    let folds: BodyFoldSet
    let wraps: Bool
    /// Columns for text (viewport width minus the gutter).
    let textWidth: Int
    let lineCount: Int
    private let jsonIndex: JSONLineIndex?

    init(document: BodyDocument, bytes: UnsafeRawBufferPointer, state: BodyViewState) {
        self.document = document
        self.bytes = bytes
        self.folds = state.folds
        self.wraps = state.isWrapping
        self.textWidth = state.textWidth(for: document)
        self.lineCount = document.lineCount
        if case .json(let index) = document.storage { jsonIndex = index } else { jsonIndex = nil }
    }

    // MARK: Folding

    /// The container opened at `line` if it is folded (and closed: a preview's open containers never fold).
    func foldedContainer(at line: Int) -> (container: Int, close: Int)? {
        guard let index = jsonIndex, !folds.isEmpty, index.kind(ofLine: line) == .open,
            folds.isFolded(line: line, depth: index.depth(ofLine: line)),
            let container = index.container(openedAt: line), let close = index.closeLine(of: container)
        else { return nil }
        return (container, close)
    }

    func isFoldedOpen(_ line: Int) -> Bool { foldedContainer(at: line) != nil }

    /// The line shown for `line`: itself, or the open line of the outermost folded container hiding it.
    func visibleLine(for line: Int) -> Int {
        guard let index = jsonIndex, !folds.isEmpty else { return line }
        var shown = line
        var container = index.enclosingContainer(ofLine: line)
        while let current = container {
            let open = index.openLine(of: current)
            if index.closeLine(of: current) != nil, folds.isFolded(line: open, depth: index.depth(ofLine: open)) {
                shown = open
            }
            container = index.parent(of: current)
        }
        return shown
    }

    /// Folded containers that hide `line`, outermost last.
    func foldedAncestors(of line: Int) -> [Int] {
        guard let index = jsonIndex, !folds.isEmpty else { return [] }
        var found: [Int] = []
        var container = index.enclosingContainer(ofLine: line)
        while let current = container {
            let open = index.openLine(of: current)
            if folds.isFolded(line: open, depth: index.depth(ofLine: open)) { found.append(open) }
            container = index.parent(of: current)
        }
        return found
    }

    // MARK: Lines

    func nextVisible(_ line: Int) -> Int? {
        let next = (foldedContainer(at: line)?.close ?? line) + 1
        return next < lineCount ? next : nil
    }

    func previousVisible(_ line: Int) -> Int? {
        line > 0 ? visibleLine(for: min(line, lineCount) - 1) : nil
    }

    var lastVisibleLine: Int { visibleLine(for: max(0, lineCount - 1)) }

    func layout(_ line: Int) -> BodyLineLayout {
        document.layout(ofLine: line, folded: isFoldedOpen(line), bytes: bytes)
    }

    func cursor(for line: Int) -> BodyLineCursor {
        BodyLineCursor(pieces: layout(line).pieces, bytes: bytes)
    }

    // MARK: Rows

    /// Wrapped rows of `line`, counting no further than `cap`; always 1 when not wrapping.
    func rowCount(_ line: Int, cap: Int = .max) -> Int {
        guard wraps else { return 1 }
        var cursor = cursor(for: line)
        var rows = 0
        repeat {
            cursor.skip(textWidth, mode: .wrapRow)
            rows += 1
        } while !cursor.isAtEnd && rows < cap
        return rows
    }

    /// The row `count` rows below `position`, stopping at the last row.
    func advance(_ position: RowPosition, by count: Int) -> RowPosition {
        var position = position
        var remaining = count
        while remaining > 0 {
            let rows = rowCount(position.line, cap: position.row + remaining + 1)
            if position.row + remaining < rows {
                position.row += remaining
                return position
            }
            guard let next = nextVisible(position.line) else {
                position.row = rows - 1
                return position
            }
            remaining -= rows - position.row
            position = RowPosition(line: next, row: 0)
        }
        return position
    }

    /// The row `count` rows above `position`, stopping at the first row.
    func retreat(_ position: RowPosition, by count: Int) -> RowPosition {
        var position = position
        var remaining = count
        while remaining > 0 {
            if position.row >= remaining {
                position.row -= remaining
                return position
            }
            guard let previous = previousVisible(position.line) else {
                position.row = 0
                return position
            }
            remaining -= position.row + 1
            position = RowPosition(line: previous, row: rowCount(previous) - 1)
        }
        return position
    }

    /// Rows from `start` down to `end`, or nil when `end` is above `start` or more than `cap` rows away.
    func distance(from start: RowPosition, to end: RowPosition, cap: Int) -> Int? {
        guard start <= end else { return nil }
        var position = start
        var count = 0
        while position.line != end.line {
            let rows = rowCount(position.line, cap: position.row + cap + 1)
            count += rows - position.row
            guard count <= cap, let next = nextVisible(position.line), next <= end.line else { return nil }
            position = RowPosition(line: next, row: 0)
        }
        count += end.row - position.row
        return count <= cap ? count : nil
    }

    /// The last row of the view.
    var lastRow: RowPosition {
        let line = lastVisibleLine
        return RowPosition(line: line, row: rowCount(line) - 1)
    }

    /// The lowest top row that still fills the viewport.
    func maximumTop(height: Int) -> RowPosition { retreat(lastRow, by: max(0, height - 1)) }

    /// The wrapped row of `line` that shows byte `offset`.
    func row(ofSource offset: Int, inLine line: Int) -> Int {
        guard wraps else { return 0 }
        var cursor = cursor(for: line)
        var row = 0
        while true {
            var probe = cursor
            probe.skip(textWidth, mode: .wrapRow)
            guard !probe.isAtEnd, let next = probe.sourcePosition, next <= offset else { return row }
            cursor = probe
            row += 1
        }
    }

    /// The display column of byte `offset` in `line`.
    func column(ofSource offset: Int, inLine line: Int) -> Int {
        var cursor = cursor(for: line)
        cursor.skip(toSource: offset)
        return cursor.column
    }
}
