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

    /// A double-quoted scalar with JSON-style escapes (valid YAML).
    static func quoted(_ text: String) -> String {
        var output = ""
        JSONValue.writeQuoted(text, to: &output)
        return output
    }

    /// A multi-line text as a literal block (`|-` and its lines indented by `indent`), which reads
    /// back exactly and stays readable (GraphQL queries); nil when a double-quoted scalar must do
    /// (one line, a final line break, control characters, or a first line that starts with a space).
    static func literalBlock(_ text: String, indent: String) -> [String]? {
        guard text.contains("\n"), !text.hasSuffix("\n"), !text.hasPrefix(" "), !text.hasPrefix("\t"),
            !text.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\n") || $0.value == 0x7F || $0 == "\u{FEFF}" || $0 == "\u{85}" || $0 == "\u{2028}" || $0 == "\u{2029}" })
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
    /// Characters that end or change a plain scalar anywhere in it: in a flow collection, and in block context.
    private static let specialInFlow = Set("{}[],#`\"'\\".utf8)
    private static let specialInBlock = Set("#`\"'\\".utf8)
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
        let special = inFlow ? specialInFlow : specialInBlock
        var previous: UInt8 = 0
        for byte in bytes {
            if byte < 0x20 || byte == 0x7F || special.contains(byte) { return true }
            // `: ` starts a mapping value, ` #` a comment.
            if (previous == UInt8(ascii: ":") && byte == UInt8(ascii: " ")) || (previous == UInt8(ascii: " ") && byte == UInt8(ascii: "#")) { return true }
            previous = byte
        }
        return last == UInt8(ascii: ":")
    }
}
