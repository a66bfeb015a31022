import JSONSupport

/// Writes YAML text the catalog loader reads back exactly: scalars quoted only when they must
/// be, JSON values as flow collections.
enum YAMLText {
    /// A scalar: plain when it reads back as the same string, else double-quoted.
    static func scalar(_ text: String) -> String {
        needsQuotes(text) ? quoted(text) : text
    }

    /// A scalar in block context (a value on its key's line, not inside `{ }` or `[ ]`): there
    /// `/pet/{{id}}` and `a, b` read back plain.
    static func blockScalar(_ text: String) -> String {
        needsQuotes(text, inFlow: false) ? quoted(text) : text
    }

    /// A double-quoted scalar with JSON-style escapes (valid YAML); DEL, C1 controls and the
    /// other characters YAML parsers refuse to read raw (U+FEFF inside, U+FFFE, U+FFFF) escaped too.
    static func quoted(_ text: String) -> String {
        var output = ""
        JSONValue.writeQuoted(text, to: &output)
        // Line breaks YAML 1.1 parsers fold inside quotes (NEL, LS, PS) are escaped as well.
        func escapes(_ scalar: Unicode.Scalar) -> Bool { isUnprintable(scalar) || scalar == "\u{85}" || scalar == "\u{2028}" || scalar == "\u{2029}" }
        guard output.unicodeScalars.contains(where: escapes) else { return output }
        var escaped = ""
        for scalar in output.unicodeScalars {
            if escapes(scalar) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                escaped += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// Characters YAML 1.2 does not allow raw in a stream (c-printable): DEL, the C1 controls
    /// but NEL, U+FFFE and U+FFFF; a byte-order mark too, allowed only at the start of a document.
    static func isUnprintable(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value == 0x7F || (0x80...0x9F).contains(value) && value != 0x85 || value == 0xFEFF || value == 0xFFFE || value == 0xFFFF
    }

    /// A comment's text with what may not stand raw in YAML (control characters, C1, a
    /// byte-order mark) replaced by U+FFFD: the comment is for reading, the file must stay YAML.
    static func commentText(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\t") || isUnprintable($0) || $0 == "\u{85}" || $0 == "\u{2028}" || $0 == "\u{2029}" }) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            (scalar.value < 0x20 && scalar != "\t") || isUnprintable(scalar) || scalar == "\u{85}" || scalar == "\u{2028}" || scalar == "\u{2029}" ? "\u{FFFD}" : scalar
        }))
    }

    /// A multi-line text as a literal block (`|-` and its lines indented by `indent`), which reads
    /// back exactly and stays readable (GraphQL queries); nil when a double-quoted scalar must do
    /// (one line, a final line break, control characters, or a first line that starts with a space).
    static func literalBlock(_ text: String, indent: String) -> [String]? {
        guard text.contains("\n"), !text.hasSuffix("\n"), !text.hasPrefix(" "), !text.hasPrefix("\t"),
            !text.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\n") || isUnprintable($0) || $0 == "\u{85}" || $0 == "\u{2028}" || $0 == "\u{2029}" })
        else { return nil }
        return ["|-"] + text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : indent + $0 }
    }

    /// A key: plain when safe, else quoted.
    static func key(_ text: String) -> String { scalar(text) }

    /// A JSON value as a YAML flow value (`{ "name": "Rex", "tags": ["a"] }`).
    static func flow(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let literal): return literal
        case .string(let text): return quoted(text)
        case .array(let elements): return "[" + elements.map(flow).joined(separator: ", ") + "]"
        case .object(let object):
            guard !object.isEmpty else { return "{}" }
            return "{ " + object.map { "\(quoted($0.key)): \(flow($0.value))" }.joined(separator: ", ") + " }"
        }
    }

    /// A flow mapping of text pairs (`{ Accept: application/json, X-Id: "{{id}}" }`).
    static func flowMapping(_ pairs: [(String, String)]) -> String {
        guard !pairs.isEmpty else { return "{}" }
        return "{ " + pairs.map { "\(key($0.0)): \(scalar($0.1))" }.joined(separator: ", ") + " }"
    }

    private static let reserved: Set<String> = [
        "", "~", "null", "Null", "NULL", "true", "True", "TRUE", "false", "False", "FALSE", "yes", "no", "on", "off", "y", "n",
        "Yes", "No", "On", "Off", "YES", "NO", "ON", "OFF", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF",
        ".nan", ".NaN", ".NAN", "<<",
    ]

    /// Indicators that change meaning at the start of a plain scalar.
    private static let indicators = Set("-?:,[]{}#&*!|>'\"%@`".utf8)
    /// Characters that end or change a plain scalar anywhere in it: in a flow collection, and in
    /// block context. `?` inside a flow collection is fine for YAML 1.2, but PyYAML and
    /// ruamel.yaml end a plain scalar there: quoted, every parser reads it.
    private static let specialInFlow = Set("{}[],#`\"'\\?".utf8)
    private static let specialInBlock = Set("#`\"'\\".utf8)
    /// What a YAML 1.1 number, date or time is made of.
    private static let numberLike = Set("0123456789abcdefABCDEFxXoO_.:+-tTzZ ".utf8)
    /// First characters of texts that may read as numbers (`1`, `.5`, `-2`, `+3`, `inf`, `nan` …).
    private static let numberStarts = Set("0123456789.+-iInN".utf8)

    /// Looked at as bytes: imports write every key and value through here (5,000 requests of a
    /// HAR are tens of thousands of scalars).
    private static func needsQuotes(_ text: String, inFlow: Bool = true) -> Bool {
        if reserved.contains(text) { return true }
        let bytes = text.utf8
        guard let first = bytes.first, let last = bytes.last else { return true }
        if first == UInt8(ascii: " ") || last == UInt8(ascii: " ") { return true }
        if indicators.contains(first) { return true }
        if numberStarts.contains(first), Double(text) != nil || text.hasPrefix("0x") || text.hasPrefix("0o") { return true }
        // YAML 1.1 parsers (PyYAML, ruamel.yaml) read more as numbers and dates than 1.2 does:
        // `2024-01-01`, `12:30` (base 60), `1_000`, `0b101`, `10.0.0.1` … quoted, every parser reads a string.
        if first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9") || first == UInt8(ascii: "+") || first == UInt8(ascii: "-") || first == UInt8(ascii: "."),
            bytes.allSatisfy({ numberLike.contains($0) })
        {
            return true
        }
        if text == "=" { return true }
        let special = inFlow ? specialInFlow : specialInBlock
        var previous: UInt8 = 0
        var nonASCII = false
        for byte in bytes {
            if byte < 0x20 || byte == 0x7F || special.contains(byte) { return true }
            if byte >= 0x80 { nonASCII = true }
            // `: ` starts a mapping value, ` #` a comment.
            if (previous == UInt8(ascii: ":") && byte == UInt8(ascii: " ")) || (previous == UInt8(ascii: " ") && byte == UInt8(ascii: "#")) { return true }
            previous = byte
        }
        if nonASCII, text.unicodeScalars.contains(where: { isUnprintable($0) || $0 == "\u{85}" || $0 == "\u{2028}" || $0 == "\u{2029}" }) { return true }
        return last == UInt8(ascii: ":")
    }
}
