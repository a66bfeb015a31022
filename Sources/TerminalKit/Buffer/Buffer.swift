/// A grid of cells that views draw into; only a terminal backend ever turns it into output.
///
/// Every write clips at every edge: text, fills and styles outside the grid are dropped, and a
/// wide glyph that does not fit entirely is replaced by a space, so a wide pair is never split.
package struct Buffer: Hashable, Sendable {
    /// Columns and rows.
    package private(set) var size: Size
    /// The cells, row by row.
    package private(set) var cells: [Cell]

    /// A blank buffer.
    package init(size: Size) {
        self.size = size
        self.cells = Array(repeating: .blank, count: size.area)
    }

    /// A blank buffer.
    package init(width: Int, height: Int) { self.init(size: Size(width: width, height: height)) }

    /// Columns.
    package var width: Int { size.width }
    /// Rows.
    package var height: Int { size.height }
    /// The whole grid as a rectangle at the origin.
    package var area: Rect { Rect(size: size) }

    /// The cell at a position, or nil outside the grid.
    package func cell(at position: Position) -> Cell? {
        guard contains(position.x, position.y) else { return nil }
        return cells[position.y * size.width + position.x]
    }

    /// The cell at column `x`, row `y`; reads outside the grid give a blank cell and writes are dropped.
    package subscript(x: Int, y: Int) -> Cell {
        get { contains(x, y) ? cells[y * size.width + x] : .blank }
        set {
            guard contains(x, y) else { return }
            detach(x, y)
            var cell = newValue
            cell.isContinuation = false
            // One grapheme per cell: keep the first, and never store a control or zero-width cluster.
            let first = cell.symbol.first ?? " "
            var width = DisplayWidth.of(first)
            if width == 0 { width = 1; cell.symbol = " " } else if cell.symbol.count > 1 { cell.symbol = String(first) }
            if width == 2 && x + 1 < size.width {
                detach(x + 1, y)
                cells[y * size.width + x] = cell
                var continuation = cell
                continuation.symbol = ""
                continuation.isContinuation = true
                cells[y * size.width + x + 1] = continuation
            } else {
                if width == 2 { cell.symbol = " " }  // a wide glyph in the last column does not fit
                cells[y * size.width + x] = cell
            }
        }
    }

    /// Resets every cell in `rect` to a space whose look is the default look with `style` laid on top.
    package mutating func fill(_ rect: Rect, style: Style = .plain) {
        var blank = Cell.blank
        blank.apply(style)
        forEachCell(in: rect) { buffer, x, y in
            buffer.detach(x, y)
            buffer.cells[y * buffer.size.width + x] = blank
        }
    }

    /// Lays `style` over every cell in `rect`, keeping the symbols.
    package mutating func setStyle(_ style: Style, in rect: Rect) {
        forEachCell(in: rect) { buffer, x, y in
            buffer.cells[y * buffer.size.width + x].apply(style)
        }
    }

    /// Writes text on one row, clipped to the grid and to `maxWidth` columns.
    ///
    /// Control characters and zero-width clusters are dropped; tabs advance to the next multiple of
    /// `DisplayWidth.tabWidth` counted from `position.x`. A wide glyph that would cross the limit is
    /// not drawn: the columns it would have used up to the limit become spaces in `style`.
    /// - Returns: the columns advanced, at most `maxWidth`, including clipped ones left of the grid.
    @discardableResult
    package mutating func write(
        _ text: some StringProtocol, at position: Position, style: Style = .plain, maxWidth: Int? = nil
    ) -> Int {
        let limit = min(size.width, position.x + max(0, maxWidth ?? Int.max / 4))
        guard position.y >= 0, position.y < size.height, position.x < limit else { return 0 }
        var x = position.x
        // Over the bytes in place when the text has them (native and small strings do).
        if let written = text.utf8.withContiguousStorageIfAvailable({ bytes -> Int? in
            bytes.contains { $0 >= 0x80 } ? nil : writeASCII(bytes, from: position, style: style, limit: limit)
        }) {
            if let written { return written }
        } else if text.utf8.allSatisfy({ $0 < 0x80 }) {
            return writeASCII(text.utf8, from: position, style: style, limit: limit)
        }
        for character in text {
            if DisplayWidth.isTab(character) {
                let spaces = DisplayWidth.tabWidth - (x - position.x) % DisplayWidth.tabWidth
                let end = min(x + spaces, limit)
                while x < end { put(" ", width: 1, x: x, y: position.y, style: style); x += 1 }
                if x >= limit { break }
                continue
            }
            let width = DisplayWidth.of(character)
            if width == 0 { continue }
            if x + width > limit {
                while x < limit { put(" ", width: 1, x: x, y: position.y, style: style); x += 1 }
                break
            }
            if x >= 0 {
                put(String(character), width: width, x: x, y: position.y, style: style)
            } else if x + width > 0 {
                // A wide glyph cut by the left edge: keep its visible half blank.
                put(" ", width: 1, x: 0, y: position.y, style: style)
            }
            x += width
        }
        return x - position.x
    }

    /// Writes a styled span; see `write(_:at:style:maxWidth:)`.
    @discardableResult
    package mutating func write(_ span: Span, at position: Position, maxWidth: Int? = nil) -> Int {
        write(span.text, at: position, style: span.style, maxWidth: maxWidth)
    }

    /// Writes a line's spans left to right from `position`, ignoring its alignment.
    /// - Returns: the columns advanced, at most `maxWidth`.
    @discardableResult
    package mutating func write(_ line: Line, at position: Position, maxWidth: Int? = nil) -> Int {
        let budget = max(0, maxWidth ?? Int.max / 4)
        var used = 0
        for span in line.spans {
            guard used < budget else { break }
            used += write(
                span.text, at: Position(x: position.x + used, y: position.y),
                style: line.style.patched(with: span.style), maxWidth: budget - used
            )
        }
        return used
    }

    /// Draws a line in the first row of `area`, placed by its alignment and clipped to the area.
    /// A line wider than the area keeps its start, whatever the alignment.
    @discardableResult
    package mutating func write(_ line: Line, in area: Rect) -> Int {
        guard !area.isEmpty else { return 0 }
        let free = max(0, area.width - line.width)
        let offset: Int
        switch line.alignment {
        case .left: offset = 0
        case .center: offset = free / 2
        case .right: offset = free
        }
        return write(line, at: Position(x: area.x + offset, y: area.y), maxWidth: area.width - offset)
    }

    /// Copies another buffer's cells to `origin`, clipped to this grid.
    package mutating func paste(_ other: Buffer, at origin: Position) {
        for y in 0..<other.height {
            for x in 0..<other.width {
                let cell = other.cells[y * other.width + x]
                if cell.isContinuation { continue }
                self[origin.x + x, origin.y + y] = cell
            }
        }
    }

    // MARK: Mechanics

    /// The common case without grapheme breaking: every byte is one cell (or a dropped control, or a tab).
    /// Cells are written through the array's storage, checked unique once per run rather than at
    /// every cell (a frame writes ~15,000 cells this way); each is written as `put` writes it.
    private mutating func writeASCII(
        _ bytes: some Collection<UInt8>, from position: Position, style: Style, limit: Int
    ) -> Int {
        let width = size.width
        let rowStart = position.y * width
        var x = position.x
        let symbols = Self.asciiSymbols
        cells.withUnsafeMutableBufferPointer { buffer in
            guard let cells = buffer.baseAddress else { return }
            // `put` for a 1-wide symbol at a column inside the row (0 ≤ column < limit ≤ width).
            func putASCII(_ symbol: String, at column: Int) {
                let index = rowStart + column
                if cells[index].isContinuation {
                    cells[index].isContinuation = false
                    if column > 0 { cells[index - 1].symbol = " " }
                } else if column + 1 < width, cells[index + 1].isContinuation {
                    cells[index + 1].isContinuation = false
                    cells[index + 1].symbol = " "
                }
                cells[index].symbol = symbol
                cells[index].apply(style)
            }
            for byte in bytes {
                if byte == 0x09 {
                    let spaces = DisplayWidth.tabWidth - (x - position.x) % DisplayWidth.tabWidth
                    let end = min(x + spaces, limit)
                    while x < end {
                        if x >= 0 { putASCII(" ", at: x) }
                        x += 1
                    }
                    if x >= limit { break }
                    continue
                }
                if byte < 0x20 || byte == 0x7F { continue }
                if x >= limit { break }
                if x >= 0 { putASCII(symbols[Int(byte)], at: x) }
                x += 1
            }
        }
        return x - position.x
    }

    /// One-character strings for every ASCII byte, so the fast path allocates nothing.
    private static let asciiSymbols: [String] = (0..<128).map { String(UnicodeScalar(UInt8($0))) }

    @inline(__always)
    private func contains(_ x: Int, _ y: Int) -> Bool {
        x >= 0 && y >= 0 && x < size.width && y < size.height
    }

    /// Writes one glyph of known width at an in-range column; a 2-wide glyph needs `x + 1` in range.
    /// Puts a symbol already measured as `width` columns (the callers keep a wide one inside the row).
    mutating func put(_ symbol: String, width: Int, x: Int, y: Int, style: Style) {
        guard contains(x, y) else { return }
        let index = y * size.width + x
        detach(x, y)
        cells[index].symbol = symbol
        cells[index].isContinuation = false
        cells[index].apply(style)
        if width == 2 {
            detach(x + 1, y)
            var continuation = cells[index]
            continuation.symbol = ""
            continuation.isContinuation = true
            cells[index + 1] = continuation
        }
    }

    /// Breaks up the wide pair a cell belongs to, so overwriting one half never leaves the other dangling.
    private mutating func detach(_ x: Int, _ y: Int) {
        let index = y * size.width + x
        if cells[index].isContinuation {
            cells[index].isContinuation = false
            cells[index].symbol = " "
            if x > 0 { cells[index - 1].symbol = " " }
        } else if x + 1 < size.width, cells[index + 1].isContinuation {
            cells[index + 1].isContinuation = false
            cells[index + 1].symbol = " "
        }
    }

    private mutating func forEachCell(in rect: Rect, _ body: (inout Buffer, Int, Int) -> Void) {
        let clipped = rect.intersection(area)
        guard !clipped.isEmpty else { return }
        for y in clipped.y..<clipped.bottom {
            for x in clipped.x..<clipped.right { body(&self, x, y) }
        }
    }
}
