/// A run of changed cells on one row, left to right from `position`.
package struct CellUpdate: Hashable, Sendable {
    /// Where the first cell of the run goes.
    package var position: Position
    /// The cells, one per column; continuation cells are included so indices match columns.
    package var cells: [Cell]

    /// Creates an update.
    package init(position: Position, cells: [Cell]) {
        self.position = position
        self.cells = cells
    }
}

/// A run of changed columns on one row (what `Buffer.changedRuns(from:)` finds).
package struct ChangedRun: Hashable, Sendable {
    /// The row.
    package var y: Int
    /// The columns, left to right.
    package var columns: Range<Int>

    /// Creates a run.
    package init(y: Int, columns: Range<Int>) {
        self.y = y
        self.columns = columns
    }
}

extension Buffer {
    /// The cells that differ from `previous`, grouped into runs of adjacent columns.
    ///
    /// A run never starts on the right half of a wide glyph (the glyph's left half is included)
    /// and never ends on the left half (its continuation is included), so a backend can print
    /// each run in one go. When the sizes differ, every row is one run.
    package func diff(from previous: Buffer) -> [CellUpdate] {
        changedRuns(from: previous).map { run in
            CellUpdate(position: Position(x: run.columns.lowerBound, y: run.y), cells: Array(cells[(run.y * size.width + run.columns.lowerBound)..<(run.y * size.width + run.columns.upperBound)]))
        }
    }

    /// The runs `diff(from:)` makes, as column ranges: no cells copied (the frame encoder reads
    /// them from the buffer). A nil `previous` is a blank screen of this size.
    package func changedRuns(from previous: Buffer?) -> [ChangedRun] {
        if let previous, previous.size != size {
            return (0..<size.height).map { ChangedRun(y: $0, columns: 0..<size.width) }
        }
        var runs: [ChangedRun] = []
        let width = size.width
        cells.withUnsafeBufferPointer { cells in
            // Compared with the blank cell when there is no previous buffer.
            func differs(_ index: Int) -> Bool {
                guard let previous else { return !cells[index].isBlank }
                return cells[index] != previous.cells[index]
            }
            for y in 0..<size.height {
                let rowStart = y * width
                var x = 0
                while x < width {
                    if !differs(rowStart + x) { x += 1; continue }
                    var start = x
                    if cells[rowStart + start].isContinuation && start > 0 { start -= 1 }
                    var end = x + 1
                    while end < width {
                        if differs(rowStart + end) {
                            end += 1
                        } else if cells[rowStart + end].isContinuation {
                            end += 1  // keep a wide glyph whole
                        } else {
                            break
                        }
                    }
                    if let last = runs.last, last.y == y, last.columns.upperBound >= start {
                        // Touching the previous run (its wide glyph pulled us back): extend it instead.
                        runs[runs.count - 1].columns = last.columns.lowerBound..<max(last.columns.upperBound, end)
                    } else {
                        runs.append(ChangedRun(y: y, columns: start..<end))
                    }
                    x = end
                }
            }
        }
        return runs
    }
}
