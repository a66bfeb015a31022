import Catalog
import DispatcherCore
import Expectations
import FoundationEssentials
import RequestExport
import Sessions

/// Runs tests: each endpoint, example or flow through an `EndpointCaller` (stub, the mock or
/// live), checking `expect:`, carrying captures from step to step and polling `until:` on an
/// injected clock.
package struct TestRunner: Sendable {
    /// Sends the requests.
    package var caller: EndpointCaller
    /// Stub or live; nil: each environment's own (live when its fixtures are `never`).
    package var mode: RequestMode?
    /// Measures and sleeps (polling): a manual clock in tests.
    package var clock: DispatchClock
    /// How many tests run at the same time.
    package var jobs: Int
    /// Whether the first failure or error stops the run (tests not started are skipped).
    package var failFast: Bool
    /// Run-time values (`--var`) for every request, below a step's own.
    package var values: [String: String]
    /// Checks responses against the schemas kept for their endpoints (`--contract`); an endpoint
    /// without `expect:` is then checked by its schema alone.
    package var contract: ContractChecking?
    /// Sees each request of a test start and end, with the last response (the explorer's flow view).
    package var onStep: (@Sendable (StepProgress) -> Void)?

    /// Makes a runner.
    package init(
        caller: EndpointCaller, mode: RequestMode? = nil, clock: DispatchClock = .continuous, jobs: Int = 1, failFast: Bool = false,
        values: [String: String] = [:]
    ) {
        self.caller = caller
        self.mode = mode
        self.clock = clock
        self.jobs = max(1, jobs)
        self.failFast = failFast
        self.values = values
    }

    /// Runs `cases`, at most `jobs` at a time; `onFinished` sees each result as it ends. The
    /// results come back in the order of `cases`.
    package func run(_ cases: [TestCase], onFinished: @escaping @Sendable (TestResult) -> Void = { _ in }) async -> [TestResult] {
        var results: [TestResult?] = Array(repeating: nil, count: cases.count)
        var stopped = false
        await withTaskGroup(of: (Int, TestResult).self) { group in
            var next = 0
            func skipRest() {
                while next < cases.count {
                    let result = TestResult(testCase: cases[next], status: .skipped, note: "not run: --fail-fast stopped after a failure")
                    results[next] = result
                    onFinished(result)
                    next += 1
                }
            }
            while next < min(jobs, cases.count) {
                let index = next
                group.addTask { (index, await run(cases[index])) }
                next += 1
            }
            for await (index, result) in group {
                results[index] = result
                onFinished(result)
                if failFast, result.status == .failed || result.status == .errored { stopped = true }
                if stopped {
                    skipRest()
                } else if next < cases.count {
                    let index = next
                    group.addTask { (index, await run(cases[index])) }
                    next += 1
                }
            }
        }
        return results.compactMap { $0 }
    }

    /// Runs one test.
    package func run(_ testCase: TestCase) async -> TestResult {
        let started = clock.now()
        let service = testCase.service
        let mode = self.mode ?? EndpointCaller.defaultMode(of: testCase.environment)
        switch testCase.kind {
        case .endpoint(let id), .example(endpoint: let id, example: _):
            guard let endpoint = service.endpoint(id) else {
                return TestResult(testCase: testCase, status: .errored, note: "service '\(service.id)' has no endpoint '\(id)'")
            }
            var example: CatalogExample?
            if case .example(_, let name) = testCase.kind {
                guard mode == .stub else {
                    return TestResult(testCase: testCase, status: .skipped, note: "an example answers in stub mode only")
                }
                example = endpoint.examples.first { $0.name == name }
            }
            let plan = StepPlan(
                name: testCase.name, selection: EndpointSelection(service: service, endpoint: endpoint, environment: testCase.environment),
                example: example?.name, values: values, expectations: example?.expectations ?? endpoint.expectations)
            let (step, _) = await send(plan, mode: mode, captured: [:])
            return TestResult(
                testCase: testCase, status: step.status, steps: [step], note: step.status == .skipped ? step.problem : nil,
                duration: clock.now() - started)
        case .flow(let id):
            guard let flow = service.flow(id) else {
                return TestResult(testCase: testCase, status: .errored, note: "service '\(service.id)' has no flow '\(id)'")
            }
            let steps = await run(flow, in: testCase, mode: mode)
            // A step skipped for want of a fixture leaves the flow unchecked: skipped, not passed.
            let status: TestStatus = steps.first { $0.status == .failed || $0.status == .errored }?.status
                ?? (steps.contains { $0.status == .skipped } ? .skipped : .passed)
            let reason = status == .skipped ? steps.first { $0.status == .skipped }.map { "step '\($0.name)': \($0.problem ?? "not run")" } : nil
            return TestResult(testCase: testCase, status: status, steps: steps, note: reason, duration: clock.now() - started)
        }
    }

    /// A flow's steps in order, captures feeding later stages; after a step that does not pass,
    /// the rest are skipped (they would run without what it should have captured).
    func run(_ flow: Flow, in testCase: TestCase, mode: RequestMode) async -> [StepResult] {
        var captured: [String: CapturedValue] = [:]
        var results: [StepResult] = []
        var stopped = false
        for stage in flow.stages {
            let steps: [FlowStep] = switch stage {
            case .step(let step): [step]
            case .parallel(let steps): steps
            }
            if stopped {
                results += steps.map { step in
                    var skipped = StepResult(name: step.name, status: .skipped)
                    skipped.attempts = 0
                    skipped.problem = "not run: an earlier step did not pass"
                    return skipped
                }
                continue
            }
            let plans = steps.map { plan(for: $0, in: testCase, mode: mode) }
            var finished: [(StepResult, [String: CapturedValue])] = []
            if plans.count == 1, let plan = plans.first {
                finished = [await send(plan, mode: mode, captured: captured)]
            } else {
                let snapshot = captured
                finished = await withTaskGroup(of: (Int, StepResult, [String: CapturedValue]).self) { group in
                    for (index, plan) in plans.enumerated() {
                        group.addTask {
                            let (result, taken) = await send(plan, mode: mode, captured: snapshot)
                            return (index, result, taken)
                        }
                    }
                    var collected: [(Int, StepResult, [String: CapturedValue])] = []
                    for await item in group { collected.append(item) }
                    return collected.sorted { $0.0 < $1.0 }.map { ($0.1, $0.2) }
                }
            }
            for (result, taken) in finished {
                results.append(result)
                captured.merge(taken) { _, new in new }
                if result.status != .passed { stopped = true }
            }
        }
        return results
    }

    private func plan(for step: FlowStep, in testCase: TestCase, mode: RequestMode) -> StepPlan {
        let service = testCase.service
        // The decoder checked the endpoint exists; a flow built in code may name a missing one.
        let endpoint = service.endpoint(step.endpoint) ?? CatalogEndpoint(id: step.endpoint, serviceID: service.id, path: "")
        // A picked example answers in stub mode only; live, the endpoint's own expectations apply.
        let example = mode == .stub ? endpoint.examples.first { $0.name == step.example } : nil
        let fallback = example.flatMap { $0.expectations.isEmpty ? nil : $0.expectations } ?? endpoint.expectations
        var plan = StepPlan(
            name: step.name, selection: EndpointSelection(service: service, endpoint: endpoint, environment: testCase.environment),
            example: mode == .stub ? step.example : nil, values: values.merging(step.values) { _, own in own },
            expectations: step.expectations ?? fallback)
        plan.edits = step.body.map { EndpointEdits(body: $0) }
        plan.captures = step.captures
        plan.until = step.until
        plan.interval = step.interval
        plan.limit = step.limit
        plan.missingEndpoint = service.endpoint(step.endpoint) == nil
        return plan
    }

    /// One request of a test, sent again while `until` does not hold; the values it captured.
    func send(_ plan: StepPlan, mode: RequestMode, captured: [String: CapturedValue]) async -> (StepResult, [String: CapturedValue]) {
        onStep?(.started(plan.name))
        let (result, taken, last) = await attempt(plan, mode: mode, captured: captured)
        onStep?(.finished(result, last))
        return (result, taken)
    }

    /// `send` without the progress reports: the result, what it captured and the last answer.
    private func attempt(
        _ plan: StepPlan, mode: RequestMode, captured: [String: CapturedValue]
    ) async -> (StepResult, [String: CapturedValue], CallOutcome?) {
        var result = StepResult(name: plan.name, status: .passed)
        guard !plan.missingEndpoint else {
            result.status = .errored
            result.problem = "the service has no endpoint '\(plan.selection.endpoint.id)'"
            return (result, [:], nil)
        }
        // `--contract` and nothing expected: the endpoint's schema is the whole check, so one
        // that keeps none, or a request that cannot be made without input, is not checkable.
        let schemaOnly = contract != nil && plan.expectations.isEmpty && plan.until == nil
        if schemaOnly, let contract {
            if !contract.hasSchemas(plan.selection.service, plan.selection.endpoint.id) {
                return (Self.notCheckable(result, .noSchema, "the import kept no response schema for it"), [:], nil)
            }
            let builder = RequestBuilder(service: plan.selection.service, environment: plan.selection.environment, secrets: caller.secrets)
            do throws(UnresolvedPlaceholderError) {
                _ = try builder.prepare(plan.selection.endpoint, values: plan.values, captured: captured)
            } catch {
                var seen = Set<String>()
                let unique = error.uses.map(\.name).filter { seen.insert($0).inserted }
                let names = unique.map { "{{\($0)}}" }
                let given = unique.map { "--var \($0)=…" }
                return (Self.notCheckable(result, .needsInput, "\(names.joined(separator: ", ")) \(names.count == 1 ? "has" : "have") no value (\(given.joined(separator: " ")))"), [:], nil)
            }
        }
        let started = clock.now()
        // `{{placeholders}}` in expected values are filled as the request's are; one without a
        // value stops the step before anything is sent, as one in the request would.
        let fill: ((String) -> String)?
        switch expectationFiller(plan, captured: captured) {
        case .success(let filler): fill = filler
        case .failure(let error):
            result.status = .errored
            result.problem = error.description
            return (result, [:], nil)
        }
        var attempts = 0
        while true {
            attempts += 1
            let outcome = await caller.call(plan.selection, mode: mode, example: plan.example, values: plan.values, captured: captured, edits: plan.edits)
            let redactor = outcome.redactor
            let exchange = outcome.exchange
            result.attempts = attempts
            if exchange.error?.kind != .invalidRequest { result.curl = exchange.request.curlCommand(redactor: redactor) }
            if let error = exchange.error, error.kind == .noFixture {
                // Nothing answered, so nothing was checked: never a pass.
                result.status = .skipped
                result.problem = redactor.text("no fixture: \(error.message)")
                if contract != nil { result.contract = .notCheckable(.noFixture) }
                result.duration = clock.now() - started
                return (result, [:], outcome)
            }
            if let error = exchange.error, exchange.failedTransfer != nil {
                // A reset, a deadline, a cap: what arrived is not the response, so no `expect:`
                // (nor `until`) is checked against it and the test errs whatever it expected.
                result.status = .errored
                result.responseStatus = exchange.response?.status
                result.problem = redactor.text("\(error.kind.name): \(error.message) (the exchange failed: nothing was checked)")
                result.duration = clock.now() - started
                return (result, [:], outcome)
            }
            guard let response = exchange.response else {
                result.status = .errored
                result.problem = redactor.text(exchange.error.map { "\($0.kind.name): \($0.message)" } ?? "no response")
                result.duration = clock.now() - started
                return (result, [:], outcome)
            }
            result.responseStatus = response.status
            var evaluator = ExpectationEvaluator(ResponseFacts(response), redactor: redactor)
            evaluator.fill = fill
            if let until = plan.until, !evaluator.allHold(until) {
                let spent = clock.now() - started
                if spent + plan.interval > plan.limit {
                    result.status = .failed
                    result.outcomes = evaluator.evaluate(until)
                    result.problem = "'until' did not hold within \(Self.text(plan.limit)) (\(attempts) attempt\(attempts == 1 ? "" : "s"))"
                    result.pollGaveUp = true
                    result.duration = spent
                    return (result, [:], outcome)
                }
                do {
                    try await clock.sleep(for: plan.interval)
                } catch {
                    result.status = .errored
                    result.problem = "cancelled while polling"
                    return (result, [:], outcome)
                }
                continue
            }
            result.duration = clock.now() - started
            if schemaOnly {
                // The schema decides, for error statuses too (a documented 404 is an answer).
            } else if plan.expectations.isEmpty {
                // Nothing expected: the request must succeed (no mapped error).
                if let error = exchange.error {
                    result.status = .failed
                    let code = RPCStatus.code(of: response).map { ", grpc-status \(RPCStatus.name(of: $0))" } ?? ""
                    result.problem = redactor.text("\(error.kind.name): \(error.message) (status \(response.status)\(code))")
                }
            } else {
                result.outcomes = evaluator.evaluate(plan.expectations)
                if result.outcomes.contains(where: { !$0.passed }) { result.status = .failed }
            }
            if let contract {
                switch contract.check(plan.selection.service, plan.selection.endpoint.id, response) {
                case .checked(let found):
                    let violations = found.map(redactor.text)
                    result.contract = .checked(findings: violations.count)
                    if let first = violations.first {
                        result.status = .failed
                        result.schemaViolations = violations
                        let more = violations.count > 1 ? " (and \(violations.count - 1) more)" : ""
                        let breach = "the response breaks its schema at \(first)\(more)"
                        result.problem = result.problem.map { "\($0); \(breach)" } ?? breach
                    }
                case .noSchema(let reason) where schemaOnly:
                    if response.status >= 500 {
                        // A server error is a finding whatever the document says of it.
                        result.status = .failed
                        result.contract = .checked(findings: 1)
                        result.problem = redactor.text("a server error (status \(response.status)), which no kept schema describes")
                    } else {
                        result = Self.notCheckable(result, .noSchemaForAnswer, redactor.text(reason))
                    }
                case .noSchema:
                    break
                }
            }
            let captured = CapturedResponse(response)
            var taken = plan.selection.endpoint.capturedValues(from: captured, at: Date())
            for capture in plan.captures {
                if let value = capture.selector.value(in: captured) {
                    taken[capture.name] = CapturedValue(value: value, endpoint: plan.selection.endpoint.key, date: Date())
                }
            }
            return (result, taken, outcome)
        }
    }

    /// What fills the placeholders of a step's `expect:` and `until:` (nil when they have none), or
    /// the error naming those without a value.
    private func expectationFiller(
        _ plan: StepPlan, captured: [String: CapturedValue]
    ) -> Result<((String) -> String)?, UnresolvedPlaceholderError> {
        let names = plan.expectations.placeholders + (plan.until?.placeholders ?? [])
        guard !names.isEmpty else { return .success(nil) }
        let selection = plan.selection
        let builder = RequestBuilder(service: selection.service, environment: selection.environment, secrets: caller.secrets)
        let values = plan.values
        do throws(UnresolvedPlaceholderError) {
            _ = try builder.renderMessage(
                names.map { "{{\($0)}}" }.joined(), for: selection.endpoint, values: values, captured: captured, at: "expect")
        } catch {
            return .failure(error)
        }
        return .success { text in (try? builder.renderMessage(text, for: selection.endpoint, values: values, captured: captured, at: "expect")) ?? text }
    }

    /// A step `--contract` could not check: skipped, saying why.
    private static func notCheckable(_ result: StepResult, _ reason: ContractOutcome.NotCheckable, _ detail: String) -> StepResult {
        var result = result
        result.status = .skipped
        result.contract = .notCheckable(reason)
        result.problem = "\(reason.rawValue): \(detail)"
        return result
    }

    /// `30 s`, `250 ms`.
    static func text(_ duration: Duration) -> String {
        let milliseconds = Int(duration.milliseconds.rounded())
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(milliseconds) ms"
    }
}

/// A request of a test starting or ending.
package enum StepProgress: Sendable {
    /// The step (by name) is sent.
    case started(String)
    /// It ended, with its last answer (nil when no request was built).
    case finished(StepResult, CallOutcome?)
}

/// One request as a test sends it.
struct StepPlan: Sendable {
    var name: String
    var selection: EndpointSelection
    var example: String?
    var values: [String: String]
    var expectations: ResponseExpectations
    var edits: EndpointEdits?
    var captures: [Capture] = []
    var until: ResponseExpectations?
    var interval: Duration = .seconds(1)
    var limit: Duration = .seconds(30)
    var missingEndpoint = false

    init(name: String, selection: EndpointSelection, example: String?, values: [String: String], expectations: ResponseExpectations) {
        self.name = name
        self.selection = selection
        self.example = example
        self.values = values
        self.expectations = expectations
    }
}

/// How `--contract` checks responses: against the schemas an import kept beside the catalog.
package struct ContractChecking: Sendable {
    /// Whether any response schema is kept for the endpoint (by service and endpoint id).
    package var hasSchemas: @Sendable (_ service: Service, _ endpoint: String) -> Bool
    /// The check of one response of the endpoint.
    package var check: @Sendable (_ service: Service, _ endpoint: String, _ response: Response) -> ContractVerdict

    /// Makes the checks.
    package init(
        hasSchemas: @escaping @Sendable (_ service: Service, _ endpoint: String) -> Bool,
        check: @escaping @Sendable (_ service: Service, _ endpoint: String, _ response: Response) -> ContractVerdict
    ) {
        self.hasSchemas = hasSchemas
        self.check = check
    }
}

/// What checking one response against its schema found.
package enum ContractVerdict: Sendable, Hashable {
    /// Checked: each violation, naming its JSON Pointer and the schema's place (none: it conforms).
    case checked([String])
    /// No kept schema describes this response (its status, its content type), and why.
    case noSchema(String)
}
