/// A run of changed cells on one row, left to right from `position`.
public struct CellUpdate: Hashable, Sendable {
    /// Where the first cell of the run goes.
    public var position: Position
    /// The cells, one per column; continuation cells are included so indices match columns.
    public var cells: [Cell]

    /// Creates an update.
    public init(position: Position, cells: [Cell]) {
        self.position = position
        self.cells = cells
    }
}

extension Buffer {
    /// The cells that differ from `previous`, grouped into runs of adjacent columns.
    ///
    /// A run never starts on the right half of a wide glyph (the glyph's left half is included)
    /// and never ends on the left half (its continuation is included), so a backend can print
    /// each run in one go. When the sizes differ, every row is one run.
    public func diff(from previous: Buffer) -> [CellUpdate] {
        guard previous.size == size else { return fullUpdate() }
        var updates: [CellUpdate] = []
        let width = size.width
        for y in 0..<size.height {
            let rowStart = y * width
            var x = 0
            while x < width {
                if cells[rowStart + x] == previous.cells[rowStart + x] { x += 1; continue }
                var start = x
                if cells[rowStart + start].isContinuation && start > 0 { start -= 1 }
                var end = x + 1
                while end < width {
                    if cells[rowStart + end] != previous.cells[rowStart + end] {
                        end += 1
                    } else if cells[rowStart + end].isContinuation {
                        end += 1  // keep a wide glyph whole
                    } else {
                        break
                    }
                }
                if let last = updates.last, last.position.y == y, last.position.x + last.cells.count >= start {
                    // Touching the previous run (its wide glyph pulled us back): extend it instead.
                    let from = last.position.x + last.cells.count
                    if end > from { updates[updates.count - 1].cells += cells[(rowStart + from)..<(rowStart + end)] }
                } else {
                    updates.append(CellUpdate(
                        position: Position(x: start, y: y), cells: Array(cells[(rowStart + start)..<(rowStart + end)])
                    ))
                }
                x = end
            }
        }
        return updates
    }

    private func fullUpdate() -> [CellUpdate] {
        (0..<size.height).map { y in
            CellUpdate(
                position: Position(x: 0, y: y),
                cells: Array(cells[(y * size.width)..<((y + 1) * size.width)])
            )
        }
    }
}
