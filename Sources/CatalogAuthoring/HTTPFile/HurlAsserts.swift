import JSONSupport
import TextSupport

/// Hurl's response part in a `.http`-like file as `expect:`: `HTTP 200`, the header lines under
/// it (equals), and `[Asserts]` lines on `status`, `header "X"`, `jsonpath "$.a"` (also with
/// `count`) and `duration`, with the predicates `expect:` has. Other lines are returned, for the
/// import notes.
enum HurlAsserts {
    /// The checks the lines state, and the lines not understood.
    static func read(_ lines: [HTTPFile.ResponseLine]) -> (expect: ExpectDraft, unknown: [HTTPFile.ResponseLine]) {
        var expect = ExpectDraft()
        var unknown: [HTTPFile.ResponseLine] = []
        for line in lines {
            switch line.section {
            case "status":
                if let match = line.text.wholeMatch(of: /HTTP(?:\/[\d.]+)?\s+(\d{3})/), let code = Int(match.1) {
                    expect.add(.status, "equals", .integer(code))
                }
            case "header":
                guard let colon = line.text.firstIndex(of: ":") else {
                    unknown.append(line)
                    continue
                }
                expect.add(.header(line.text[..<colon].trimmed), "equals", .string(line.text[line.text.index(after: colon)...].trimmed))
            case "Asserts":
                if !read(line.text, into: &expect) { unknown.append(line) }
            default:
                unknown.append(line)
            }
        }
        return (expect, unknown)
    }

    /// Adds one assert; false when it is not one `expect:` can say.
    static func read(_ text: String, into expect: inout ExpectDraft) -> Bool {
        guard let match = text.wholeMatch(of: /(status|duration|header\s+"([^"]*)"|jsonpath\s+"((?:[^"\\]|\\.)*)")\s+(?:(count)\s+)?(?:(not)\s+)?(\S+)(?:\s+(.+))?/)
        else { return false }
        let (_, query, header, jsonPath, counted, not, predicate, valueText) = match.output
        let subject: ExpectDraft.Subject
        switch query {
        case "status": subject = .status
        case "duration": subject = .time
        default:
            if let header {
                subject = .header(String(header))
            } else if let path = jsonPath, (try? JSONPath(String(path))) != nil {
                subject = .body(String(path))
            } else {
                return false
            }
        }
        let negated = not != nil
        let value = valueText.flatMap { Self.value(String($0)) }
        var comparison: (String, JSONValue)?
        switch (String(predicate), negated) {
        case ("==", false): comparison = value.map { ("equals", $0) }
        case ("==", true), ("!=", false): comparison = value.map { ("not", $0) }
        case (">", false): comparison = value.flatMap(number).map { ("greaterThan", $0) }
        case (">=", false): comparison = value.flatMap(number).map { ("greaterThanOrEqual", $0) }
        case ("<", false): comparison = value.flatMap(number).map { ("lessThan", $0) }
        case ("<=", false): comparison = value.flatMap(number).map { ("lessThanOrEqual", $0) }
        case ("startsWith", false), ("endsWith", false), ("matches", false):
            if case .string? = value { comparison = value.map { (String(predicate), $0) } }
        case ("contains", false), ("includes", false): comparison = value.map { ("contains", $0) }
        case ("exists", _) where valueText == nil: comparison = ("exists", .bool(!negated))
        case ("isInteger", false) where valueText == nil: comparison = ("type", .string("integer"))
        case ("isString", false) where valueText == nil: comparison = ("type", .string("string"))
        case ("isBoolean", false) where valueText == nil: comparison = ("type", .string("boolean"))
        case ("isNumber", false) where valueText == nil: comparison = ("type", .string("number"))
        case ("isEmpty", false) where valueText == nil: comparison = ("count", .integer(0))
        default: comparison = nil
        }
        guard var (name, wanted) = comparison else { return false }
        if counted != nil {
            // `count == 3` is `count: 3`; `count > 0` is `count: { greaterThan: 0 }`.
            guard case .body = subject, name != "not", name != "exists", name != "type", name != "count" else { return false }
            wanted = name == "equals" ? wanted : .object([name: wanted])
            name = "count"
        }
        // status and duration take numbers only.
        if subject == .status || subject == .time {
            guard case .number = wanted, name != "not" || subject == .status else { return false }
        }
        expect.add(subject, name, wanted)
        return true
    }

    /// A Hurl value: a JSON literal, or a `/regex/`.
    static func value(_ text: String) -> JSONValue? {
        let trimmed = text.trimmed
        if trimmed.count >= 2, trimmed.hasPrefix("/"), trimmed.hasSuffix("/") {
            return .string(String(trimmed.dropFirst().dropLast()).replacing("\\/", with: "/"))
        }
        return try? JSONValue.parse(trimmed)
    }

    private static func number(_ value: JSONValue) -> JSONValue? {
        if case .number = value { return value }
        return nil
    }
}
