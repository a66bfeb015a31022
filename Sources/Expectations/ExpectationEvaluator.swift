import DispatcherCore
import FoundationEssentials
import JSONSupport
import TextSupport

/// Checks assertions against one response. The body is parsed once, on the first body assertion.
/// Every text it reports goes through the redactor: secret headers and JSON members, and known
/// secret values, are masked in failure messages as everywhere else.
package struct ExpectationEvaluator {
    /// The response.
    package let facts: ResponseFacts
    /// Masks secrets in what is reported.
    package let redactor: Redactor
    /// Fills the `{{placeholders}}` of expected values as a request's are filled (run-time values,
    /// captures, variables, secrets); nil compares them as written.
    package var fill: ((String) -> String)?
    private var parsedBody: JSONValue??

    /// Most characters of an actual value shown.
    static let shownLimit = 200
    /// Longest text `matches` runs a regular expression over (the expression is the catalog's).
    static let matchLimit = 256 * 1024

    /// An evaluator for `facts`.
    package init(_ facts: ResponseFacts, redactor: Redactor = .standard) {
        self.facts = facts
        self.redactor = redactor
    }

    /// The outcome of each assertion, in order.
    package mutating func evaluate(_ expectations: ResponseExpectations) -> [AssertionOutcome] {
        expectations.assertions.map { evaluate($0) }
    }

    /// Whether every assertion holds (for polling: nothing is formatted).
    package mutating func allHold(_ expectations: ResponseExpectations) -> Bool {
        expectations.assertions.allSatisfy { evaluate($0).passed }
    }

    /// The outcome of one assertion.
    package mutating func evaluate(_ assertion: Assertion) -> AssertionOutcome {
        guard let fill, assertion.predicate.hasPlaceholders else { return evaluateFilled(assertion, wholePlaceholder: false) }
        var filled = assertion
        filled.predicate = assertion.predicate.filled(fill)
        // `$.id: "{{petId}}"`: a value that is one placeholder is its text, which a number or a
        // boolean written the same way equals too (captured and run-time values are text).
        let whole: Bool = if case .equals(.string(let text)) = assertion.predicate { Template(text).isOnePlaceholder } else { false }
        var outcome = evaluateFilled(filled, wholePlaceholder: whole)
        outcome.assertion = assertion
        return outcome
    }

    private mutating func evaluateFilled(_ assertion: Assertion, wholePlaceholder: Bool) -> AssertionOutcome {
        let expected = redactor.text(assertion.predicate.description)
        if !facts.isComplete, assertion.subject.readsBody {
            return outcome(assertion, expected, passed: false, actual: "an incomplete body (\(facts.body.count) bytes kept of more)")
        }
        switch assertion.subject {
        case .status:
            let value = JSONValue.integer(facts.status)
            // A gRPC call's HTTP status is its code's meaning: the code is said beside it.
            let code = facts.rpcStatus.map { " (grpc-status \(RPCStatus.name(of: $0)))" } ?? ""
            return outcome(assertion, expected, passed: Self.holds(assertion.predicate, value), actual: String(facts.status) + code)
        case .rpcStatus:
            let wanted = if case .statusIn(let patterns) = assertion.predicate { StatusPattern.rpcText(patterns) } else { expected }
            guard let code = facts.rpcStatus else { return outcome(assertion, wanted, passed: false, actual: "absent (not a gRPC response)") }
            let passed = Self.holds(assertion.predicate, .integer(code))
            return outcome(assertion, wanted, passed: passed, actual: "\(RPCStatus.name(of: code)) (\(code))")
        case .bodySize:
            let value = JSONValue.integer(facts.body.count)
            return outcome(assertion, expected, passed: Self.holds(assertion.predicate, value), actual: "\(facts.body.count) bytes")
        case .time:
            let value = JSONValue.double(facts.time.milliseconds.rounded())
            return outcome(assertion, expected, passed: Self.holds(assertion.predicate, value), actual: "\(value.compactText) ms")
        case .header(let name):
            let values = facts.headers.filter { Headers.sameName($0.name, name) }.map(\.value)
            let passed = Self.holds(assertion.predicate, headerValues: values)
            let shown = values.isEmpty ? "absent" : values.map { redactor.header(name: name, value: $0) }.joined(separator: ", ")
            let cost = passed ? nil : Self.costNote(assertion.predicate, values)
            return outcome(assertion, expected, passed: passed, actual: Self.shortened(shown) + (cost.map { " (\($0))" } ?? ""))
        case .body(let path):
            guard let root = body() else {
                let passed = assertion.predicate == .exists(false)
                let actual = facts.body.isEmpty ? "an empty body" : "a body that is not JSON"
                return outcome(assertion, expected, passed: passed, actual: actual)
            }
            let value: JSONValue? = path.isSingular ? path.first(in: root) : .array(path.evaluate(root))
            let passed = Self.holds(assertion.predicate, value) || (wholePlaceholder && Self.sameText(assertion.predicate, value))
            guard let value else { return outcome(assertion, expected, passed: passed, actual: "absent") }
            let shown = masked(value, at: path)
            let cost = passed ? nil : Self.costNote(assertion.predicate, Self.text(value).map { [$0] } ?? [])
            var result = outcome(assertion, expected, passed: passed, actual: Self.shortened(shown.compactText) + (cost.map { " (\($0))" } ?? ""))
            if !passed, case .equals(let wanted) = assertion.predicate, wanted.isContainer || shown.isContainer {
                result.diff = ShortDiff.lines(expected: redactor.text(wanted.prettyText()), actual: shown.prettyText()).map(redactor.text)
            }
            return result
        }
    }

    private func outcome(_ assertion: Assertion, _ expected: String, passed: Bool, actual: String) -> AssertionOutcome {
        AssertionOutcome(assertion: assertion, passed: passed, expected: expected, actual: redactor.text(actual))
    }

    private mutating func body() -> JSONValue? {
        if let parsedBody { return parsedBody }
        let value = facts.body.isEmpty ? nil : try? JSONValue.parse(facts.body)
        parsedBody = .some(value)
        return value
    }

    /// A value as it may be shown: secret members masked, and the value itself when the path's
    /// last name is secret (`$.token`).
    private func masked(_ value: JSONValue, at path: JSONPath) -> JSONValue {
        if let name = path.lastName, redactor.isSensitive(name: name), !value.isContainer { return .string(Redactor.mask) }
        return redactor.json(value)
    }

    static func shortened(_ text: String) -> String {
        text.count > shownLimit ? String(text.prefix(shownLimit)) + "…" : text
    }

    // MARK: Predicates

    /// Whether `predicate` holds of a header's values: any value for a comparison, none for `not`.
    static func holds(_ predicate: ValuePredicate, headerValues values: [String]) -> Bool {
        switch predicate {
        case .exists(let present): return values.isEmpty != present
        case .count(let inner): return holds(inner, .integer(values.count))
        case .notEquals: return !values.isEmpty && values.allSatisfy { holds(predicate, headerValue($0, for: predicate)) }
        default: return values.contains { holds(predicate, headerValue($0, for: predicate)) }
        }
    }

    /// A header's text, read as a number when the predicate compares numbers or statuses.
    private static func headerValue(_ text: String, for predicate: ValuePredicate) -> JSONValue {
        switch predicate {
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual, .equals(.number), .notEquals(.number):
            Double(text) != nil ? .number(text) : .string(text)
        default: .string(text)
        }
    }

    /// Whether `predicate` holds of `value` (nil: absent; only `exists: false` holds of that).
    package static func holds(_ predicate: ValuePredicate, _ value: JSONValue?) -> Bool {
        guard let value else { return predicate == .exists(false) }
        switch predicate {
        case .exists(let present): return present
        case .equals(let wanted): return same(value, wanted)
        case .notEquals(let unwanted): return !same(value, unwanted)
        case .lessThan(let bound): return number(value).map { $0 < bound } ?? false
        case .lessThanOrEqual(let bound): return number(value).map { $0 <= bound } ?? false
        case .greaterThan(let bound): return number(value).map { $0 > bound } ?? false
        case .greaterThanOrEqual(let bound): return number(value).map { $0 >= bound } ?? false
        case .matches(let pattern):
            guard let text = text(value), text.utf8.count <= matchLimit else { return false }
            return search(pattern, text) == .found
        case .isKind(let kind): return kind.matches(value)
        case .count(let inner):
            switch value {
            case .array(let elements): return holds(inner, .integer(elements.count))
            case .object(let object): return holds(inner, .integer(object.count))
            case .string(let text): return holds(inner, .integer(text.count))
            default: return false
            }
        case .contains(let wanted):
            switch value {
            case .array(let elements): return elements.contains { same($0, wanted) }
            case .string(let text): return wanted.stringValue.map { text.contains($0) } ?? false
            default: return false
            }
        case .includesAll(let wanted):
            guard case .array(let elements) = value else { return false }
            return wanted.allSatisfy { item in elements.contains { same($0, item) } }
        case .startsWith(let prefix): return text(value)?.hasPrefix(prefix) ?? false
        case .endsWith(let suffix): return text(value)?.hasSuffix(suffix) ?? false
        case .statusIn(let patterns): return value.intValue.map { status in patterns.contains { $0.matches(status) } } ?? false
        }
    }

    /// Whether `value` is a number or boolean written as the expected text (`42` for `"42"`).
    static func sameText(_ predicate: ValuePredicate, _ value: JSONValue?) -> Bool {
        guard case .equals(.string(let text)) = predicate, let value else { return false }
        switch value {
        case .number(let literal): return literal == text || (Double(text) != nil && Double(text) == Double(literal))
        case .bool(let flag): return text == (flag ? "true" : "false")
        default: return false
        }
    }

    /// A bounded search: a catalog's pattern never hangs the run (`^(a+)+$` on a long text).
    static func search(_ pattern: String, _ text: String) -> BoundedRegex.Outcome {
        guard let regex = try? BoundedRegex(pattern) else { return .tooCostly }
        return regex.search(text)
    }

    /// Why a `matches` did not hold when its pattern, not the text, is the reason: the search
    /// stopped at its budget, or the pattern's shape is refused.
    static func costNote(_ predicate: ValuePredicate, _ texts: [String]) -> String? {
        guard case .matches(let pattern) = predicate else { return nil }
        do throws(BoundedRegex.Refusal) {
            let regex = try BoundedRegex(pattern)
            guard texts.contains(where: { $0.utf8.count <= matchLimit && regex.search($0) == .tooCostly }) else { return nil }
            return "pattern too costly: the search stopped after \(regex.budget) steps"
        } catch {
            return "\(error)"
        }
    }

    /// JSON equality with numbers compared by value and object members in any order.
    package static func same(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.number(let x), .number(let y)): return x == y || (Double(x) != nil && Double(x) == Double(y))
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (.object(let x), .object(let y)):
            return x.count == y.count && x.allSatisfy { member in y[member.key].map { same(member.value, $0) } ?? false }
        default: return a == b
        }
    }

    private static func number(_ value: JSONValue) -> Double? {
        value.doubleValue
    }

    private static func text(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): text
        case .number(let literal): literal
        default: nil
        }
    }
}

extension JSONValue {
    var isContainer: Bool {
        switch self {
        case .array, .object: true
        default: false
        }
    }
}

extension JSONPath {
    /// The member name of the last segment, when it selects one by name (`token` of `$.auth.token`).
    var lastName: String? {
        guard case .child(let selectors)? = segments.last, selectors.count == 1, case .name(let name) = selectors[0] else { return nil }
        return name
    }
}
