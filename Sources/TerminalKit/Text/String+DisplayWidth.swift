extension StringProtocol {
    /// The columns of text made of printable ASCII only (one per byte: most text on screen), nil
    /// when it holds anything else. Walking bytes instead of grapheme clusters is ~10× cheaper.
    @inlinable
    var printableASCIIWidth: Int? {
        // Over the bytes in place when the text has them (native and small strings do): a third
        // of the cost of the UTF-8 view's iterator, and it counts at every render.
        if let measured = utf8.withContiguousStorageIfAvailable(Self.printableASCIIWidth(of:)) { return measured }
        var columns = 0
        for byte in utf8 {
            guard byte >= 0x20 && byte < 0x7F else { return nil }
            columns += 1
        }
        return columns
    }

    @inlinable
    static func printableASCIIWidth(of bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        for byte in bytes where byte < 0x20 || byte >= 0x7F { return nil }
        return bytes.count
    }

    /// Columns this text occupies on one line; tabs advance to the next multiple of `DisplayWidth.tabWidth`.
    package var displayWidth: Int {
        if let columns = printableASCIIWidth { return columns }
        var columns = 0
        for character in self {
            if DisplayWidth.isTab(character) {
                columns += DisplayWidth.tabWidth - columns % DisplayWidth.tabWidth
            } else {
                columns += DisplayWidth.of(character)
            }
        }
        return columns
    }

    /// The text cut to at most `width` columns, ending in `ellipsis` when something was cut.
    /// Tabs are expanded to spaces first so the result measures exactly what it will occupy.
    package func truncated(toWidth width: Int, ellipsis: String = "…") -> String {
        guard width > 0 else { return "" }
        let expanded = String(self).expandingTabs()
        if expanded.displayWidth <= width { return expanded }
        let ellipsisWidth = ellipsis.displayWidth
        guard ellipsisWidth <= width else { return expanded.prefix(columns: width) }
        return expanded.prefix(columns: width - ellipsisWidth) + ellipsis
    }

    /// The columns `start ..< start + width` of the text, for horizontal scrolling.
    /// A wide character cut in half by either edge is replaced by a space so columns stay aligned.
    package func slice(columns start: Int, width: Int) -> String {
        guard width > 0 else { return "" }
        let start = Swift.max(0, start)
        let end = start + width
        var result = ""
        var column = 0
        for character in String(self).expandingTabs() {
            let charWidth = DisplayWidth.of(character)
            let charEnd = column + charWidth
            if column >= end { break }
            if charWidth == 0 {
                if column > start && column <= end && !DisplayWidth.isControl(character) { result.append(character) }
            } else if column >= start && charEnd <= end {
                result.append(character)
            } else if charEnd > start && column < end {
                // Partly visible wide character: pad the visible half.
                result += String(repeating: " ", count: Swift.min(charEnd, end) - Swift.max(column, start))
            }
            column = charEnd
        }
        return result
    }

    /// The longest prefix that fits in `width` columns; a wide character that would cross the edge is left out.
    package func prefix(columns width: Int) -> String {
        if let columns = printableASCIIWidth {
            return columns <= width ? String(self) : String(decoding: utf8.prefix(Swift.max(0, width)), as: UTF8.self)
        }
        var result = ""
        var used = 0
        for character in String(self).expandingTabs() {
            let characterWidth = DisplayWidth.of(character)
            if used + characterWidth > width { break }
            if characterWidth > 0 || !DisplayWidth.isControl(character) { result.append(character) }
            used += characterWidth
        }
        return result
    }

    /// The text with each tab replaced by spaces up to the next tab stop.
    package func expandingTabs() -> String {
        guard utf8.contains(0x09) else { return String(self) }
        var result = ""
        var column = 0
        for character in self {
            if DisplayWidth.isTab(character) {
                let spaces = DisplayWidth.tabWidth - column % DisplayWidth.tabWidth
                result += String(repeating: " ", count: spaces)
                column += spaces
            } else {
                result.append(character)
                column += DisplayWidth.of(character)
            }
        }
        return result
    }
}
