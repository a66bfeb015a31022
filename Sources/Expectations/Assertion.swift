import DispatcherCore
import JSONSupport

/// What a response should be: the `expect:` of an endpoint, an example or a flow step, as a list
/// of assertions that must all hold.
package struct ResponseExpectations: Sendable, Hashable {
    /// Every assertion, in the order the catalog wrote them.
    package var assertions: [Assertion]

    /// Makes a list.
    package init(_ assertions: [Assertion] = []) {
        self.assertions = assertions
    }

    /// Whether nothing is expected.
    package var isEmpty: Bool { assertions.isEmpty }
}

/// One thing a response must satisfy: a predicate on a part of it.
package struct Assertion: Sendable, Hashable, CustomStringConvertible {
    /// The part of the response it reads.
    package var subject: Subject
    /// What must hold of it.
    package var predicate: ValuePredicate
    /// Where the catalog says it (`environments/petstore.yaml:12:7`), for failure messages.
    package var place: String

    /// Makes an assertion.
    package init(_ subject: Subject, _ predicate: ValuePredicate, place: String = "") {
        self.subject = subject
        self.predicate = predicate
        self.place = place
    }

    /// `$.id equals 7`, `status is 2xx`, `grpc-status is NOT_FOUND`.
    package var description: String {
        if subject == .rpcStatus, case .statusIn(let patterns) = predicate { return "\(subject) \(StatusPattern.rpcText(patterns))" }
        return "\(subject) \(predicate)"
    }

    // Where it is written is not what it checks: an edit above it moves it, and the catalog's
    // write-back compares endpoints before and after.
    package static func == (lhs: Assertion, rhs: Assertion) -> Bool {
        lhs.subject == rhs.subject && lhs.predicate == rhs.predicate
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(subject)
        hasher.combine(predicate)
    }
}

/// The part of a response an assertion reads.
package enum Subject: Sendable, Hashable, CustomStringConvertible {
    /// The status code, as a number.
    case status
    /// A header's values (a name may repeat).
    case header(String)
    /// What a JSONPath selects in the JSON body: the value for a singular path, the list of
    /// matches for one with wildcards, slices or filters.
    case body(JSONPath)
    /// The body's length in bytes.
    case bodySize
    /// The response time in milliseconds.
    case time
    /// A gRPC call's status code (`grpc-status`), compared by `statusIn` and shown by name.
    case rpcStatus

    /// Whether it reads the body (which must then be whole).
    package var readsBody: Bool {
        switch self {
        case .body, .bodySize: true
        case .status, .header, .time, .rpcStatus: false
        }
    }

    package var description: String {
        switch self {
        case .status: "status"
        case .header(let name): "header \(name)"
        case .body(let path): path.description
        case .bodySize: "bodySize"
        case .time: "time"
        case .rpcStatus: "grpc-status"
        }
    }
}

/// A status or a class of statuses (`2xx`).
package enum StatusPattern: Sendable, Hashable, CustomStringConvertible {
    /// Exactly this status.
    case code(Int)
    /// Any status of this hundred (2 for `2xx`).
    case hundreds(Int)

    /// Whether `status` matches.
    package func matches(_ status: Int) -> Bool {
        switch self {
        case .code(let code): status == code
        case .hundreds(let digit): status / 100 == digit
        }
    }

    /// Reads `200` or `2xx`; nil for anything else.
    package init?(_ text: String) {
        let lower = text.lowercased()
        if lower.count == 3, lower.hasSuffix("xx"), let digit = lower.first?.wholeNumberValue, (1...5).contains(digit) {
            self = .hundreds(digit)
        } else if let code = Int(text), (100...599).contains(code) {
            self = .code(code)
        } else {
            return nil
        }
    }

    package var description: String {
        switch self {
        case .code(let code): String(code)
        case .hundreds(let digit): "\(digit)xx"
        }
    }

    /// `is NOT_FOUND`, `is one of OK, NOT_FOUND`: gRPC codes by name.
    package static func rpcText(_ patterns: [StatusPattern]) -> String {
        let names = patterns.map { pattern in
            switch pattern {
            case .code(let code): RPCStatus.name(of: code)
            case .hundreds(let digit): "\(digit)xx"
            }
        }
        return names.count == 1 ? "is \(names[0])" : "is one of \(names.joined(separator: ", "))"
    }
}

/// The JSON types `type:` names (`integer` is a number without a fraction).
package enum JSONKind: String, Sendable, Hashable, CaseIterable {
    case string, number, integer, boolean, array, object, null

    /// Whether `value` is of this kind.
    package func matches(_ value: JSONValue) -> Bool {
        switch (self, value) {
        case (.string, .string), (.number, .number), (.boolean, .bool), (.array, .array), (.object, .object), (.null, .null): true
        case (.integer, .number(let literal)): !literal.contains(where: { $0 == "." || $0 == "e" || $0 == "E" })
        default: false
        }
    }
}

/// What must hold of a subject's value.
package indirect enum ValuePredicate: Sendable, Hashable, CustomStringConvertible {
    /// Equal as JSON (numbers by value: `1` equals `1.0`).
    case equals(JSONValue)
    /// Not equal as JSON.
    case notEquals(JSONValue)
    /// A number below.
    case lessThan(Double)
    /// A number at most.
    case lessThanOrEqual(Double)
    /// A number above.
    case greaterThan(Double)
    /// A number at least.
    case greaterThanOrEqual(Double)
    /// Text a regular expression finds a match in (anywhere; anchor with ^ and $).
    case matches(String)
    /// Present (true) or absent (false).
    case exists(Bool)
    /// Of a JSON type.
    case isKind(JSONKind)
    /// The number of elements (array), members (object), characters (string) or values (header).
    case count(ValuePredicate)
    /// Text containing a substring, or an array containing an element.
    case contains(JSONValue)
    /// An array containing every one of the values.
    case includesAll([JSONValue])
    /// Text starting with.
    case startsWith(String)
    /// Text ending with.
    case endsWith(String)
    /// A status among these.
    case statusIn([StatusPattern])

    package var description: String {
        switch self {
        case .equals(let value): "equals \(value.compactText)"
        case .notEquals(let value): "is not \(value.compactText)"
        case .lessThan(let number): "< \(ValuePredicate.text(number))"
        case .lessThanOrEqual(let number): "<= \(ValuePredicate.text(number))"
        case .greaterThan(let number): "> \(ValuePredicate.text(number))"
        case .greaterThanOrEqual(let number): ">= \(ValuePredicate.text(number))"
        case .matches(let pattern): "matches /\(pattern)/"
        case .exists(let present): present ? "exists" : "does not exist"
        case .isKind(let kind): "is of type \(kind.rawValue)"
        case .count(let inner): "count \(inner)"
        case .contains(let value): "contains \(value.compactText)"
        case .includesAll(let values): "includes all of \(JSONValue.array(values).compactText)"
        case .startsWith(let text): "starts with \(JSONValue.string(text).compactText)"
        case .endsWith(let text): "ends with \(JSONValue.string(text).compactText)"
        case .statusIn(let patterns): patterns.count == 1 ? "is \(patterns[0])" : "is one of \(patterns.map(\.description).joined(separator: ", "))"
        }
    }

    /// A number without a needless `.0`.
    static func text(_ number: Double) -> String { JSONValue.double(number).compactText }
}

extension ValuePredicate {
    /// Whether an expected value holds a `{{placeholder}}`.
    package var hasPlaceholders: Bool { !placeholders.isEmpty }

    /// The placeholder names of its expected values, in order (repeats kept).
    package var placeholders: [String] {
        switch self {
        case .equals(let value), .notEquals(let value), .contains(let value): value.placeholders
        case .includesAll(let values): values.flatMap(\.placeholders)
        case .matches(let text), .startsWith(let text), .endsWith(let text): Template(text).placeholders
        case .count(let inner): inner.placeholders
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual, .exists, .isKind, .statusIn: []
        }
    }

    /// The predicate with the placeholders of its expected values filled by `fill`.
    package func filled(_ fill: (String) -> String) -> ValuePredicate {
        switch self {
        case .equals(let value): .equals(value.filled(fill))
        case .notEquals(let value): .notEquals(value.filled(fill))
        case .contains(let value): .contains(value.filled(fill))
        case .includesAll(let values): .includesAll(values.map { $0.filled(fill) })
        case .matches(let text): .matches(fill(text))
        case .startsWith(let text): .startsWith(fill(text))
        case .endsWith(let text): .endsWith(fill(text))
        case .count(let inner): .count(inner.filled(fill))
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual, .exists, .isKind, .statusIn: self
        }
    }
}

extension ResponseExpectations {
    /// The placeholder names its expected values use, each once, in order.
    package var placeholders: [String] {
        var seen = Set<String>()
        return assertions.flatMap(\.predicate.placeholders).filter { seen.insert($0).inserted }
    }
}

extension JSONValue {
    /// The placeholder names in its strings (member names included), in order.
    var placeholders: [String] {
        switch self {
        case .string(let text): text.utf8Contains("{{") ? Template(text).placeholders : []
        case .array(let elements): elements.flatMap(\.placeholders)
        case .object(let object): object.flatMap { Template($0.key).placeholders + $0.value.placeholders }
        default: []
        }
    }

    /// The value with `fill` applied to each string (member names included).
    func filled(_ fill: (String) -> String) -> JSONValue {
        switch self {
        case .string(let text): text.utf8Contains("{{") ? .string(fill(text)) : self
        case .array(let elements): .array(elements.map { $0.filled(fill) })
        case .object(let object): .object(JSONObject(object.map { (fill($0.key), $0.value.filled(fill)) }))
        default: self
        }
    }
}
