import Expectations

/// How a test ended.
package enum TestStatus: String, Sendable, Hashable {
    /// Every check held.
    case passed
    /// A check did not hold (an assertion, a mapped error where none was expected, a poll that never held).
    case failed
    /// It could not run: no response (a network error), a request that could not be built.
    case errored
    /// Not run (an example in live mode; after a failure with --fail-fast).
    case skipped
}

/// What one request of a test did: the checks, and the request as curl (secrets masked).
package struct StepResult: Sendable, Hashable {
    /// The step's name (the endpoint's id for an endpoint test).
    package var name: String
    /// How it ended.
    package var status: TestStatus
    /// Each check, in order.
    package var outcomes: [AssertionOutcome] = []
    /// Why it failed or errored when no assertion says it (a mapped error, a network error, a poll out of time).
    package var problem: String?
    /// The request as a curl command line, secrets masked; nil when none was built.
    package var curl: String?
    /// The response status, when there was one.
    package var responseStatus: Int?
    /// Where the response breaks the schema kept for its endpoint (`--contract`), secrets masked.
    package var schemaViolations: [String] = []
    /// How many times it was sent (more than once when polling).
    package var attempts = 1
    /// Time from the first send to the last answer.
    package var duration: Duration = .zero

    /// Makes a result.
    package init(name: String, status: TestStatus) {
        self.name = name
        self.status = status
    }

    /// The checks that did not hold.
    package var failures: [AssertionOutcome] { outcomes.filter { !$0.passed } }
}

/// What one test did.
package struct TestResult: Sendable, Hashable {
    /// The test.
    package var testCase: TestCase
    /// How it ended.
    package var status: TestStatus
    /// Its requests (one for an endpoint, the steps run for a flow), in order.
    package var steps: [StepResult]
    /// Why it was skipped or could not start.
    package var note: String?
    /// How long it took.
    package var duration: Duration

    /// Makes a result.
    package init(testCase: TestCase, status: TestStatus, steps: [StepResult] = [], note: String? = nil, duration: Duration = .zero) {
        self.testCase = testCase
        self.status = status
        self.steps = steps
        self.note = note
        self.duration = duration
    }

    /// The step that failed or errored, else the one skipped for a reason (no fixture).
    package var failingStep: StepResult? {
        steps.first { $0.status == .failed || $0.status == .errored } ?? steps.first { $0.status == .skipped && $0.problem != nil }
    }

    /// One line saying why it did not pass (nil when it passed).
    package var summary: String? {
        if let note, status != .passed { return note }
        guard let step = failingStep else { return nil }
        let prefix = step.name == testCase.name ? "" : "step '\(step.name)': "
        if let failure = step.failures.first { return prefix + failure.message }
        return step.problem.map { prefix + $0 }
    }
}

/// The counts of a run, and the exit status they make.
package struct TestTally: Sendable, Hashable {
    package var passed = 0
    package var failed = 0
    package var errored = 0
    package var skipped = 0

    /// Counts `results`.
    package init(_ results: [TestResult]) {
        for result in results {
            switch result.status {
            case .passed: passed += 1
            case .failed: failed += 1
            case .errored: errored += 1
            case .skipped: skipped += 1
            }
        }
    }

    /// Every test.
    package var total: Int { passed + failed + errored + skipped }

    /// 0 every test that ran passed; 1 a test failed; 3 none failed but one could not run; 4 no
    /// test ran (none matched, or all were skipped). 2 is left to usage and catalog errors.
    package var exitStatus: Int32 {
        if failed > 0 { return 1 }
        if errored > 0 { return 3 }
        if passed == 0 { return 4 }
        return 0
    }
}
