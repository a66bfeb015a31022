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
    /// What `--contract` made of it: checked against its schema, or why it could not be.
    package var contract: ContractOutcome?
    /// Whether it failed because `until` did not hold in the time allowed (`problem` says so).
    package var pollGaveUp = false
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
    /// Why it was skipped (every skip has a reason: no fixture, an example live, --fail-fast) or
    /// could not start.
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
        switch (step.failures.first, step.problem) {
        case (let failure?, let problem?) where step.pollGaveUp: return prefix + problem + ": " + failure.message
        case (let failure?, let problem?): return prefix + failure.message + "; " + problem
        case (let failure?, nil): return prefix + failure.message
        case (nil, let problem): return problem.map { prefix + $0 }
        }
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

/// What `--contract` made of one request.
package enum ContractOutcome: Sendable, Hashable {
    /// Its response was checked against the schema kept for it, finding `findings` breaks (a
    /// violation of the schema, or a server error no schema describes).
    case checked(findings: Int)
    /// It could not be checked, and why.
    case notCheckable(NotCheckable)

    /// Why an operation could not be checked against its schema.
    package enum NotCheckable: String, Sendable, Hashable, CaseIterable {
        /// The import kept no response schema for the endpoint (none in the document, or none JSON).
        case noSchema = "no schema"
        /// Stub mode, and the endpoint has no fixture to answer with.
        case noFixture = "no fixture"
        /// A placeholder of the request has no value (a path parameter without an example …).
        case needsInput = "needs input"
        /// It answered with a status or content type no kept schema describes.
        case noSchemaForAnswer = "no schema for its answer"
    }
}

/// The `--contract` counts of a run: every endpoint test is an operation.
package struct ContractTally: Sendable, Hashable {
    package var operations = 0
    package var checked = 0
    /// Operations whose check found something (a violation, an undocumented server error).
    package var broken = 0
    /// Every break found, over all operations.
    package var findings = 0
    package var notCheckable: [ContractOutcome.NotCheckable: Int] = [:]

    /// Counts the operations of `results`; nil when the run made no contract checks.
    package init?(_ results: [TestResult]) {
        for result in results {
            guard case .endpoint = result.testCase.kind, let outcome = result.steps.first?.contract else { continue }
            operations += 1
            switch outcome {
            case .checked(let found):
                checked += 1
                findings += found
                if found > 0 { broken += 1 }
            case .notCheckable(let reason): notCheckable[reason, default: 0] += 1
            }
        }
        if operations == 0 { return nil }
    }

    /// `Contract: 12 operations; 9 checked, 3 broke their schema (5 findings); 3 not checkable: 1 no schema, 2 needs input`.
    package var line: String {
        let unchecked = notCheckable.values.reduce(0, +)
        var text = "Contract: \(operations) operation\(operations == 1 ? "" : "s"); \(checked) checked, \(broken) broke their schema"
        if findings > broken { text += " (\(findings) findings)" }
        text += "; \(unchecked) not checkable"
        let reasons = ContractOutcome.NotCheckable.allCases.compactMap { reason in notCheckable[reason].map { "\($0) \(reason.rawValue)" } }
        if !reasons.isEmpty { text += ": " + reasons.joined(separator: ", ") }
        return text
    }
}
