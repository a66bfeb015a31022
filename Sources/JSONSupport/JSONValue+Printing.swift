extension JSONValue {
    /// The value as compact JSON text.
    public var compactText: String {
        var output = ""
        write(to: &output, indent: nil, level: 0)
        return output
    }

    /// The value as JSON text indented by `indent` spaces per level.
    public func prettyText(indent: Int = 2) -> String {
        var output = ""
        write(to: &output, indent: String(repeating: " ", count: indent), level: 0)
        return output
    }

    private func write(to output: inout String, indent: String?, level: Int) {
        switch self {
        case .null: output += "null"
        case .bool(let bool): output += bool ? "true" : "false"
        case .number(let literal): output += literal
        case .string(let string): JSONValue.writeQuoted(string, to: &output)
        case .array(let elements):
            guard !elements.isEmpty else { output += "[]"; return }
            output += "["
            for (position, element) in elements.enumerated() {
                if position > 0 { output += "," }
                newline(&output, indent: indent, level: level + 1)
                element.write(to: &output, indent: indent, level: level + 1)
            }
            newline(&output, indent: indent, level: level)
            output += "]"
        case .object(let object):
            guard !object.isEmpty else { output += "{}"; return }
            output += "{"
            for (position, member) in object.enumerated() {
                if position > 0 { output += "," }
                newline(&output, indent: indent, level: level + 1)
                JSONValue.writeQuoted(member.key, to: &output)
                output += indent == nil ? ":" : ": "
                member.value.write(to: &output, indent: indent, level: level + 1)
            }
            newline(&output, indent: indent, level: level)
            output += "}"
        }
    }

    private func newline(_ output: inout String, indent: String?, level: Int) {
        guard let indent else { return }
        output += "\n"
        for _ in 0..<level { output += indent }
    }

    /// Appends `string` as a quoted JSON string literal. Runs of bytes that need no escape are
    /// appended whole (a catalog load quotes every stub body's strings).
    public static func writeQuoted(_ string: String, to output: inout String) {
        output += "\""
        let utf8 = string.utf8
        var runStart = utf8.startIndex
        var index = runStart
        while index != utf8.endIndex {
            let byte = utf8[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
                index = utf8.index(after: index)
                continue
            }
            // An ASCII byte is a whole scalar, so the run before it ends on a scalar boundary.
            output += string[runStart..<index]
            output += escape(byte)
            index = utf8.index(after: index)
            runStart = index
        }
        output += string[runStart..<index]
        output += "\""
    }

    /// The escape of a byte below 0x20, a quote or a backslash.
    private static func escape(_ byte: UInt8) -> String {
        switch byte {
        case UInt8(ascii: "\""): return "\\\""
        case UInt8(ascii: "\\"): return "\\\\"
        case UInt8(ascii: "\n"): return "\\n"
        case UInt8(ascii: "\r"): return "\\r"
        case UInt8(ascii: "\t"): return "\\t"
        case 0x08: return "\\b"
        case 0x0C: return "\\f"
        default:
            let hex = String(byte, radix: 16)
            return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }
    }
}
