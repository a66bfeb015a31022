/// Text made safe to write to a terminal: no control character reaches it raw, so text from a
/// server or a catalog cannot move the cursor, retitle the window, rewrite the clipboard (OSC 52)
/// or reorder what is shown. C0 controls are shown in caret notation, as `cat -v` does (ESC as
/// `^[`); C1 controls (U+0080–U+009F, CSI U+009B among them) and the bidirectional controls that
/// reorder text (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C) as `<U+202E>`; bytes that
/// are not UTF-8 as U+FFFD. Reports escape the same characters in their own syntax
/// (`escapingInvisibleControls`), so they stay well-formed and show what was there.
package enum TerminalText {
    /// `text` cleaned; line feeds and tabs are kept, and a carriage return before a line feed.
    package static func cleaned(_ text: String) -> String {
        guard needsCleaning(text.utf8) else { return text }
        return clean(Array(text.utf8))
    }

    /// `bytes` decoded as UTF-8 and cleaned, as UTF-8 bytes.
    package static func cleaned(bytes: some Collection<UInt8>) -> [UInt8] {
        guard needsCleaning(bytes) || String(validating: Array(bytes), as: UTF8.self) == nil else { return Array(bytes) }
        return Array(clean(Array(bytes)).utf8)
    }

    /// Whether a scalar is a C1 control or a bidirectional control: invisible, but it changes what
    /// a terminal does or shows.
    package static func isInvisibleControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x80...0x9F, 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: true
        default: false
        }
    }

    /// `<U+202E>`: how an invisible control is shown.
    package static func shown(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "<U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + ">"
    }

    /// `text` with every invisible control (see `isInvisibleControl`) replaced by `escape` of it:
    /// `\u202e` in JSON, `&#x202E;` in XML. The text is returned as it is when it has none.
    package static func escapingInvisibleControls(_ text: String, _ escape: (Unicode.Scalar) -> String) -> String {
        guard text.unicodeScalars.contains(where: isInvisibleControl) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            if isInvisibleControl(scalar) { result += escape(scalar) } else { result.unicodeScalars.append(scalar) }
        }
        return result
    }

    /// Whether any byte is a C0 control other than tab and line feed, DEL, or starts an invisible
    /// control: C2 80–C2 9F (C1), E2 80 8E/8F and E2 80 AA–AE, E2 81 A6–A9, D8 9C (bidi).
    private static func needsCleaning(_ bytes: some Collection<UInt8>) -> Bool {
        var previous: UInt8 = 0
        var beforePrevious: UInt8 = 0
        for byte in bytes {
            if byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D { return true }
            if byte == 0x7F || (previous == 0xC2 && byte >= 0x80 && byte <= 0x9F) { return true }
            if previous == 0x0D && byte != 0x0A { return true }
            if previous == 0xD8 && byte == 0x9C { return true }
            if beforePrevious == 0xE2 {
                if previous == 0x80 && (byte == 0x8E || byte == 0x8F || (byte >= 0xAA && byte <= 0xAE)) { return true }
                if previous == 0x81 && byte >= 0xA6 && byte <= 0xA9 { return true }
            }
            beforePrevious = previous
            previous = byte
        }
        return previous == 0x0D
    }

    private static func clean(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        let scalars = Array(text.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            switch scalar.value {
            case 0x09, 0x0A: result.unicodeScalars.append(scalar)
            case 0x0D where index + 1 < scalars.count && scalars[index + 1].value == 0x0A: result.unicodeScalars.append(scalar)
            case 0x00..<0x20: result += "^" + String(UnicodeScalar(UInt8(scalar.value) + 0x40))
            case 0x7F: result += "^?"
            default:
                if isInvisibleControl(scalar) { result += shown(scalar) } else { result.unicodeScalars.append(scalar) }
            }
        }
        return result
    }
}
