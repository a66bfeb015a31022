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

    /// Appends `string` as a quoted JSON string literal. A string that needs no escape (nearly
    /// all) is appended whole; the others are escaped byte by byte (a catalog load quotes every
    /// stub body's strings).
    package static func writeQuoted(_ string: String, to output: inout String) {
        var string = string
        let needsEscape = string.withUTF8 { bytes in bytes.contains(where: JSONValue.needsEscape) }
        guard needsEscape else {
            output += "\""
            output += string
            output += "\""
            return
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(string.utf8.count + 8)
        writeQuoted(string, to: &bytes)
        output += String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `string` as a quoted JSON string literal, as UTF-8 bytes.
    package static func writeQuoted(_ string: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { bytes in
            var runStart = 0
            for index in bytes.indices where needsEscape(bytes[index]) {
                // An ASCII byte is a whole scalar, so the run before it ends on a scalar boundary.
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                output.append(contentsOf: escape(bytes[index]).utf8)
                runStart = index + 1
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
        output.append(UInt8(ascii: "\""))
    }

    /// Whether a byte must be escaped in a JSON string: a control character, a quote, a backslash.
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
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
