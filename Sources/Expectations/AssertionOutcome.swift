/// Whether one assertion held, with what was expected and found, secrets masked.
package struct AssertionOutcome: Sendable, Hashable {
    /// The assertion.
    package var assertion: Assertion
    /// Whether it held.
    package var passed: Bool
    /// What was expected, in words (`equals 7`), secrets masked.
    package var expected: String
    /// What the response holds there (`8`, `absent`), secrets masked and shortened.
    package var actual: String
    /// A short line diff of expected and actual, when both are documents of several lines.
    package var diff: [String] = []

    /// Makes an outcome.
    package init(assertion: Assertion, passed: Bool, expected: String, actual: String, diff: [String] = []) {
        self.assertion = assertion
        self.passed = passed
        self.expected = expected
        self.actual = actual
        self.diff = diff
    }

    /// `$.id: expected equals 7, got 8`.
    package var message: String { "\(assertion.subject): expected \(expected), got \(actual)" }
}
