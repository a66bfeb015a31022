/// Column widths from a built-in Unicode table, so layout never depends on the machine's locale.
///
/// A grapheme cluster (`Character`) is 0, 1 or 2 columns wide:
/// - printable ASCII is 1; C0/C1 control characters and DEL are 0 (the buffer drops them);
/// - East Asian Wide and Fullwidth characters and emoji with emoji presentation are 2;
/// - a cluster takes the width of its first visible scalar, so combining marks, zero-width joiners
///   and skin-tone modifiers add nothing: a ZWJ family or a toned emoji is one 2-wide cluster;
/// - a text-style symbol followed by U+FE0F (emoji presentation selector) is 2, as is a flag.
/// Tabs are not handled here: `String.displayWidth` expands them to the next multiple of `tabWidth`.
package enum DisplayWidth {
    /// Columns between tab stops.
    package static let tabWidth = 8

    /// Columns one scalar occupies on its own.
    @inlinable
    package static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x7F { return value >= 0x20 ? 1 : 0 }
        if value < 0xA0 { return 0 }
        if value < 0x300 { return 1 }
        return tableWidth(value)
    }

    /// Columns one grapheme cluster occupies.
    @inlinable
    package static func of(_ character: Character) -> Int {
        if let ascii = character.asciiValue {
            return ascii >= 0x20 && ascii < 0x7F ? 1 : 0
        }
        return clusterWidth(character.unicodeScalars)
    }

    /// True for a tab. A tab is always a cluster of its own, so its first byte tells; comparing
    /// `Character`s compares strings, ~200 instructions, once per character of every line drawn.
    @inlinable
    package static func isTab(_ character: Character) -> Bool {
        character.utf8.first == 0x09
    }

    /// True for characters that must never reach the terminal as they are (C0, DEL, C1, CR LF).
    @inlinable
    package static func isControl(_ character: Character) -> Bool {
        guard let first = character.unicodeScalars.first?.value else { return false }
        return first < 0x20 || (first >= 0x7F && first < 0xA0)
    }

    @usableFromInline
    static func clusterWidth(_ scalars: Character.UnicodeScalarView) -> Int {
        var width = 0
        var sawBase = false
        for scalar in scalars {
            let value = scalar.value
            if value == 0xFE0F {
                // Emoji presentation selector: the preceding symbol is drawn as a 2-wide emoji.
                if sawBase { width = 2 }
                continue
            }
            if sawBase { continue }
            let scalarWidth = of(scalar)
            if scalarWidth == 0 {
                if value < 0x20 || (value >= 0x7F && value < 0xA0) { return 0 }
                continue
            }
            width = scalarWidth
            sawBase = true
        }
        return width
    }

    @usableFromInline
    static func tableWidth(_ value: UInt32) -> Int {
        if contains(WidthTables.zeroWidth, value) { return 0 }
        if contains(WidthTables.doubleWidth, value) { return 2 }
        return 1
    }

    /// Binary search over flat [first, last, ...] range pairs.
    private static func contains(_ ranges: [UInt32], _ value: UInt32) -> Bool {
        var low = 0
        var high = ranges.count / 2 - 1
        if high < 0 || value < ranges[0] || value > ranges[ranges.count - 1] { return false }
        while low <= high {
            let mid = (low + high) / 2
            if value < ranges[2 * mid] {
                high = mid - 1
            } else if value > ranges[2 * mid + 1] {
                low = mid + 1
            } else {
                return true
            }
        }
        return false
    }
}
