import FoundationEssentials
import JSONSupport
import TextSupport

/// A response as compared: status, headers and body, and whether the body is whole.
package struct ComparedResponse: Sendable {
    package var status: Int?
    package var headers: [(name: String, value: String)]
    package var body: Data
    /// False when the body was cut (a size cap, a failed transfer, the history's 64 KiB).
    package var bodyIsComplete: Bool

    package init(status: Int?, headers: [(name: String, value: String)] = [], body: Data = Data(), bodyIsComplete: Bool = true) {
        self.status = status
        self.headers = headers
        self.body = body
        self.bodyIsComplete = bodyIsComplete
    }
}

/// What a comparison leaves out: the catalog's `compare: { ignore: [...], arrays: {...} }`.
package struct CompareRules: Sendable {
    /// Locations in the body (`$.meta.requestId`, `$..updatedAt`), `header:NAME`, or `status`.
    package var ignore: [String]
    /// Arrays matched by a key member: their location pattern and the member's name.
    package var arrays: [(location: String, key: String)]
    /// Whether headers that differ on every response (`volatileHeaders`) are compared too.
    package var comparesVolatileHeaders: Bool

    package init(ignore: [String] = [], arrays: [(location: String, key: String)] = [], comparesVolatileHeaders: Bool = false) {
        self.ignore = ignore
        self.arrays = arrays
        self.comparesVolatileHeaders = comparesVolatileHeaders
    }

    /// Headers that change from one response to the next by nature (dates, ids of the request,
    /// timings, connection details), ignored unless asked for.
    package static let volatileHeaders: Set<String> = [
        "date", "age", "expires", "last-modified", "etag", "set-cookie", "server-timing", "x-request-id", "x-correlation-id",
        "x-trace-id", "traceparent", "tracestate", "x-amzn-requestid", "x-amzn-trace-id", "x-amz-cf-id", "x-amz-request-id",
        "cf-ray", "x-runtime", "x-response-time", "via", "connection", "keep-alive", "content-length", "transfer-encoding",
        "report-to", "nel",
    ]

    /// The problems of the rules (an unreadable location), for `validate`.
    package var problems: [String] {
        var problems: [String] = []
        for rule in ignore where rule != "status" && !rule.lowercased().hasPrefix("header:") {
            do throws(LocationPattern.Problem) { _ = try LocationPattern(rule) } catch { problems.append(error.description) }
        }
        for array in arrays {
            do throws(LocationPattern.Problem) { _ = try LocationPattern(array.location) } catch { problems.append(error.description) }
        }
        return problems
    }
}

/// One difference between two responses.
package struct ResponseDifference: Sendable, Hashable {
    /// Where it is.
    package enum Place: Sendable, Hashable {
        case status
        case header(String)
        case body(JSONLocation)
        /// A body that is not JSON (on one side at least), compared as bytes.
        case bodyBytes
    }

    package var kind: JSONDiff.Kind
    package var place: Place
    /// What each side had, as text (nil: absent there).
    package var left: String?
    package var right: String?

    /// `status`, `header Date`, `$.pet.name`, `body`.
    package var location: String {
        switch place {
        case .status: "status"
        case .header(let name): "header \(name)"
        case .body(let location): location.description
        case .bodyBytes: "body"
        }
    }

    /// Whether `other` is this place or below it (a body location's children).
    func covers(_ other: Place) -> Bool {
        switch (place, other) {
        case (.body(let a), .body(let b)): a.contains(b)
        case (.header(let a), .header(let b)): a.lowercased() == b.lowercased()
        default: place == other
        }
    }
}

/// Two responses compared: status, headers (volatile ones left out unless asked) and the body,
/// structurally when both are JSON; what the rules ignore and what the noise (the left side
/// against itself, Diffy's filter) shows to change anyway are set apart, not reported.
package struct ResponseComparison: Sendable {
    /// What differs.
    package var differences: [ResponseDifference]
    /// What differs but the rules (or the volatile headers) leave out.
    package var ignored: [ResponseDifference]
    /// What differs but also differed between two responses of the left side.
    package var noise: [ResponseDifference]
    /// What could not be compared, in words (a cut body).
    package var notes: [String]

    /// Compares `left` with `right`; `leftAgain`, a second response of the left side, gives the noise.
    package init(_ left: ComparedResponse, _ right: ComparedResponse, rules: CompareRules, leftAgain: ComparedResponse? = nil) {
        var notes: [String] = []
        let (ignoredPatterns, ignoredHeaders, ignoresStatus) = Self.ignoring(rules)
        let arrayKeys = rules.arrays.compactMap { array in (try? LocationPattern(array.location)).map { (pattern: $0, key: array.key) } }
        let all = Self.raw(left, right, arrayKeys: arrayKeys, notes: &notes)
        let noisy = leftAgain.map { Self.raw(left, $0, arrayKeys: arrayKeys, notes: &notes) } ?? []
        var differences: [ResponseDifference] = []
        var ignored: [ResponseDifference] = []
        var noise: [ResponseDifference] = []
        for difference in all {
            let isIgnored: Bool
            switch difference.place {
            case .status: isIgnored = ignoresStatus
            case .header(let name):
                let lowered = name.lowercased()
                isIgnored = ignoredHeaders.contains(lowered) || (!rules.comparesVolatileHeaders && CompareRules.volatileHeaders.contains(lowered))
            case .body(let location): isIgnored = ignoredPatterns.contains { $0.covers(location) }
            case .bodyBytes: isIgnored = false
            }
            if isIgnored {
                ignored.append(difference)
            } else if noisy.contains(where: { $0.covers(difference.place) }) {
                noise.append(difference)
            } else {
                differences.append(difference)
            }
        }
        self.differences = differences
        self.ignored = ignored
        self.noise = noise
        self.notes = notes
    }

    /// Whether the responses differ in anything reported.
    package var differ: Bool { !differences.isEmpty }

    private static func ignoring(_ rules: CompareRules) -> (patterns: [LocationPattern], headers: Set<String>, status: Bool) {
        var patterns: [LocationPattern] = []
        var headers: Set<String> = []
        var status = false
        for rule in rules.ignore {
            if rule == "status" {
                status = true
            } else if rule.lowercased().hasPrefix("header:") {
                headers.insert(rule.dropFirst(7).trimmedSpaces.lowercased())
            } else if let pattern = try? LocationPattern(rule) {
                patterns.append(pattern)
            }
        }
        return (patterns, headers, status)
    }

    /// Every difference, nothing left out.
    private static func raw(
        _ left: ComparedResponse, _ right: ComparedResponse, arrayKeys: [(pattern: LocationPattern, key: String)], notes: inout [String]
    ) -> [ResponseDifference] {
        var differences: [ResponseDifference] = []
        if left.status != right.status {
            differences.append(ResponseDifference(kind: .changed, place: .status, left: left.status.map(String.init), right: right.status.map(String.init)))
        }
        differences += headerDifferences(left.headers, right.headers)
        guard left.bodyIsComplete, right.bodyIsComplete else {
            let note = "a body was cut (a size limit, a failed transfer or the history's 64 KiB): the bodies were not compared"
            if !notes.contains(note) { notes.append(note) }
            return differences
        }
        guard left.body != right.body else { return differences }
        if let a = json(left.body), let b = json(right.body) {
            for entry in JSONDiff(arrayKeys: arrayKeys).entries(a, b) {
                differences.append(ResponseDifference(kind: entry.kind, place: .body(entry.location), left: entry.left.map(shown), right: entry.right.map(shown)))
            }
        } else {
            differences.append(ResponseDifference(kind: .changed, place: .bodyBytes, left: "\(left.body.count) bytes", right: "\(right.body.count) bytes"))
        }
        return differences
    }

    /// Header differences, names compared without case, a repeated header's values joined.
    static func headerDifferences(_ left: [(name: String, value: String)], _ right: [(name: String, value: String)]) -> [ResponseDifference] {
        func grouped(_ headers: [(name: String, value: String)]) -> (order: [String], values: [String: (name: String, value: String)]) {
            var order: [String] = []
            var values: [String: (name: String, value: String)] = [:]
            for header in headers {
                let key = header.name.lowercased()
                if let existing = values[key] {
                    values[key] = (existing.name, existing.value + ", " + header.value)
                } else {
                    order.append(key)
                    values[key] = header
                }
            }
            return (order, values)
        }
        let (a, b) = (grouped(left), grouped(right))
        var differences: [ResponseDifference] = []
        for key in a.order {
            let mine = a.values[key]!
            if let theirs = b.values[key] {
                if mine.value != theirs.value {
                    differences.append(ResponseDifference(kind: .changed, place: .header(mine.name), left: mine.value, right: theirs.value))
                }
            } else {
                differences.append(ResponseDifference(kind: .removed, place: .header(mine.name), left: mine.value, right: nil))
            }
        }
        for key in b.order where a.values[key] == nil {
            let theirs = b.values[key]!
            differences.append(ResponseDifference(kind: .added, place: .header(theirs.name), left: nil, right: theirs.value))
        }
        return differences
    }

    /// The body as JSON when it is an object or an array.
    static func json(_ body: Data) -> JSONValue? {
        guard let first = body.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }),
            first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
        else { return nil }
        return try? JSONValue.parse(body)
    }

    /// A value as shown: compact JSON, long ones cut.
    static func shown(_ value: JSONValue) -> String {
        let text = value.compactText
        return text.count <= 120 ? text : String(text.prefix(119)) + "…"
    }
}
