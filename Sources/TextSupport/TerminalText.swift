/// Text made safe to write to a terminal: no control character reaches it raw, so text from a
/// server or a catalog cannot move the cursor, retitle the window or rewrite the clipboard
/// (OSC 52). Control characters are shown in caret notation, as `cat -v` does (ESC as `^[`);
/// C1 controls as U+FFFD; bytes that are not UTF-8 as U+FFFD.
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

    /// Whether any byte is a C0 control other than tab and line feed, DEL, or the lead byte of a
    /// C1 control (U+0080–U+009F are encoded as C2 80–C2 9F).
    private static func needsCleaning(_ bytes: some Collection<UInt8>) -> Bool {
        var previous: UInt8 = 0
        for byte in bytes {
            if byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D { return true }
            if byte == 0x7F || (previous == 0xC2 && byte >= 0x80 && byte <= 0x9F) { return true }
            if previous == 0x0D && byte != 0x0A { return true }
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
            case 0x80..<0xA0: result += "\u{FFFD}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
