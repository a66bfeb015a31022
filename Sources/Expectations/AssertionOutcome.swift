/// Whether one assertion held, with what was expected and found, secrets masked.
public struct AssertionOutcome: Sendable, Hashable {
    /// The assertion.
    public var assertion: Assertion
    /// Whether it held.
    public var passed: Bool
    /// What was expected, in words (`equals 7`), secrets masked.
    public var expected: String
    /// What the response holds there (`8`, `absent`), secrets masked and shortened.
    public var actual: String
    /// A short line diff of expected and actual, when both are documents of several lines.
    public var diff: [String] = []

    /// Makes an outcome.
    public init(assertion: Assertion, passed: Bool, expected: String, actual: String, diff: [String] = []) {
        self.assertion = assertion
        self.passed = passed
        self.expected = expected
        self.actual = actual
        self.diff = diff
    }

    /// `$.id: expected equals 7, got 8`.
    public var message: String { "\(assertion.subject): expected \(expected), got \(actual)" }
}
