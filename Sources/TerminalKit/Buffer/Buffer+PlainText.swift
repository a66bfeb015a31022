extension Buffer {
    /// The grid as text: one line per row joined by "\n", wide glyphs once, no styles.
    ///
    /// Trailing spaces of each row are removed by default so snapshots do not depend on how far a
    /// blank background was painted; pass `trimmingTrailingSpaces: false` to keep every column.
    package func plainText(trimmingTrailingSpaces: Bool = true) -> String {
        var lines: [String] = []
        lines.reserveCapacity(size.height)
        for y in 0..<size.height { lines.append(rowText(y, trimmingTrailingSpaces: trimmingTrailingSpaces)) }
        return lines.joined(separator: "\n")
    }

    /// One row as text (empty for a row outside the grid).
    package func rowText(_ y: Int, trimmingTrailingSpaces: Bool = true) -> String {
        guard y >= 0, y < size.height else { return "" }
        var line = ""
        for x in 0..<size.width {
            let cell = cells[y * size.width + x]
            if !cell.isContinuation { line += cell.symbol }
        }
        if trimmingTrailingSpaces {
            while line.last == " " { line.removeLast() }
        }
        return line
    }
}
