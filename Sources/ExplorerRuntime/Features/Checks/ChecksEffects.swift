import Catalog
import DispatcherCore
import ExplorerApp
import Sessions
import Synchronization
import TestRunner

/// Runs flows for the Tests tab with the runner `apiexplorer test` uses, reporting each step as
/// it starts and ends.
struct ChecksEffects: Sendable {
    /// The catalogs and their secrets as last loaded; nil before the first load.
    let loaded: @Sendable () -> (CatalogSet, SecretStore)?
    /// Sends live requests.
    let transport: (any Transport)?
    /// Times the steps and paces polling.
    let clock: DispatchClock

    func perform(_ effect: ChecksEffect, _ context: EffectContext) {
        switch effect {
        case .runFlow(let id, let flow, let environment, let mode):
            context.load { [loaded, transport, clock] in
                guard let (catalog, secrets) = loaded(), let service = catalog.service(environment.service),
                    let place = service.environments.first(where: { $0.name == environment.environment })
                else { return .checks(.runFinished(run: id, problem: "the catalog has no environment \(environment)")) }
                var runner = TestRunner(caller: EndpointCaller(catalog: catalog, secrets: secrets, transport: transport), mode: mode, clock: clock)
                let post = context.post
                runner.onStep = { progress in
                    switch progress {
                    case .started(let name): post(.checks(.stepStarted(run: id, name: name)))
                    case .finished(let step, let outcome): post(.checks(.stepFinished(run: id, Self.report(step, outcome))))
                    }
                }
                let result = await runner.run(TestCase(service: service, environment: place, kind: .flow(flow)))
                return .checks(.runFinished(run: id, problem: result.steps.isEmpty ? result.note : nil))
            }
        case .runService(let id, let environment, let mode):
            context.load { [loaded, transport, clock] in
                guard let (catalog, secrets) = loaded() else { return .checks(.runFinished(run: id, problem: "the catalogs are not loaded")) }
                let cases: [TestCase]
                do throws(CatalogLookupError) {
                    cases = try TestSelection.cases([environment.service], environment: environment.environment, in: catalog)
                } catch {
                    return .checks(.runFinished(run: id, problem: error.description))
                }
                let post = context.post
                post(.checks(.runListed(run: id, tests: cases.map { ($0.name, Self.endpoint(of: $0)) })))
                // One test at a time, so the answer a test's steps report is that test's: the
                // first failing step's, else its last.
                let shown = Mutex<(outcome: CallOutcome?, failing: Bool)>((nil, false))
                var runner = TestRunner(caller: EndpointCaller(catalog: catalog, secrets: secrets, transport: transport), mode: mode, clock: clock)
                runner.onStep = { progress in
                    guard case .finished(let step, let outcome) = progress else { return }
                    let failing = step.status == .failed || step.status == .errored
                    shown.withLock { shown in if !shown.failing { shown = (outcome, failing) } }
                }
                _ = await runner.run(cases) { result in
                    let outcome = shown.withLock { shown in
                        defer { shown = (nil, false) }
                        return shown.outcome
                    }
                    post(.checks(.stepFinished(run: id, Self.report(result, outcome))))
                }
                return .checks(.runFinished(run: id, problem: cases.isEmpty ? "\(environment.service) declares no expect: and no flows" : nil))
            }
        }
    }

    /// The endpoint a test row stands for (a flow's: `flow:ID`).
    static func endpoint(of testCase: TestCase) -> EndpointKey {
        switch testCase.kind {
        case .endpoint(let id), .example(endpoint: let id, example: _): EndpointKey(service: testCase.service.id, endpoint: id)
        case .flow(let id): EndpointKey(service: testCase.service.id, endpoint: "flow:" + id)
        }
    }

    /// What the app shows of a test that ended.
    static func report(_ result: TestResult, _ outcome: CallOutcome?) -> StepReport {
        StepReport(
            name: result.testCase.name, state: state(result.status), duration: result.duration, attempts: result.steps.count == 1 ? result.steps[0].attempts : 1,
            reason: result.summary, response: outcome)
    }

    static func state(_ status: TestStatus) -> FlowStepState {
        switch status {
        case .passed: .passed
        case .failed: .failed
        case .errored: .errored
        case .skipped: .skipped
        }
    }

    /// What the app shows of a step that ended.
    static func report(_ step: StepResult, _ outcome: CallOutcome?) -> StepReport {
        let state = state(step.status)
        let reason = step.failures.first?.message ?? step.problem
        return StepReport(name: step.name, state: state, duration: step.duration, attempts: step.attempts, reason: reason, response: outcome)
    }
}
