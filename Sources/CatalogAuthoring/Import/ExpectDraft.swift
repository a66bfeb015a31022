import JSONSupport

/// The `expect:` an import writes on an endpoint: checks other tools state in their own way
/// (Postman's `pm.test`, Hurl's asserts), each a comparison (`equals`, `lessThan` …, as
/// environments/README.md names them) on the status, a header, a JSONPath or the response time.
package struct ExpectDraft: Sendable {
    /// What a check reads.
    package enum Subject: Sendable, Hashable {
        case status
        case header(String)
        case body(String)
        /// Milliseconds.
        case time
    }

    /// Each subject with its comparisons, in the order they came.
    private(set) var checks: [(subject: Subject, comparisons: [(String, JSONValue)])] = []

    /// An empty `expect:`.
    package init() {}

    /// Whether there is no check.
    package var isEmpty: Bool { checks.isEmpty }

    /// Adds `comparison: value` for `subject`; the same comparison said again replaces the first.
    package mutating func add(_ subject: Subject, _ comparison: String, _ value: JSONValue) {
        guard let index = checks.firstIndex(where: { $0.subject == subject }) else {
            checks.append((subject, [(comparison, value)]))
            return
        }
        if let existing = checks[index].comparisons.firstIndex(where: { $0.0 == comparison }) {
            checks[index].comparisons[existing].1 = value
        } else {
            checks[index].comparisons.append((comparison, value))
        }
    }

    /// The `expect:` key and its lines (nested keys indented by `pad`); none when empty.
    func lines(pad: String) -> [String] {
        guard !checks.isEmpty else { return [] }
        var lines = ["expect:"]
        func value(_ comparisons: [(String, JSONValue)], time: Bool = false) -> String {
            func text(_ value: JSONValue) -> String {
                if time, case .number(let literal) = value { return literal + "ms" }
                return YAMLText.flow(value)
            }
            // A lone scalar equals is written alone; documents need `equals:` (a mapping reads as comparisons).
            if comparisons.count == 1, comparisons[0].0 == "equals", !time {
                switch comparisons[0].1 {
                case .array, .object: break
                case let scalar: return YAMLText.flow(scalar)
                }
            }
            return "{ " + comparisons.map { "\($0.0): \(text($0.1))" }.joined(separator: ", ") + " }"
        }
        if let status = checks.first(where: { $0.subject == .status }) { lines.append("\(pad)status: \(value(status.comparisons))") }
        let headers = checks.compactMap { check -> String? in
            guard case .header(let name) = check.subject else { return nil }
            return "\(pad)\(pad)\(YAMLText.key(name)): \(value(check.comparisons))"
        }
        if !headers.isEmpty { lines += ["\(pad)headers:"] + headers }
        let body = checks.compactMap { check -> String? in
            guard case .body(let path) = check.subject else { return nil }
            return "\(pad)\(pad)\(YAMLText.quoted(path)): \(value(check.comparisons))"
        }
        if !body.isEmpty { lines += ["\(pad)body:"] + body }
        if let time = checks.first(where: { $0.subject == .time }) { lines.append("\(pad)time: \(value(time.comparisons, time: true))") }
        return lines
    }
}
