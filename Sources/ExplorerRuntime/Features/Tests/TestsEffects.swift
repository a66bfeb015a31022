import Catalog
import DispatcherCore
import ExplorerApp
import TestRunner

/// Runs flows for the Tests tab with the runner `apiexplorer test` uses, reporting each step as
/// it starts and ends.
struct TestsEffects: Sendable {
    /// The catalogs and their secrets as last loaded; nil before the first load.
    let loaded: @Sendable () -> (CatalogSet, SecretStore)?
    /// Sends live requests.
    let transport: (any Transport)?
    /// Times the steps and paces polling.
    let clock: DispatchClock

    func perform(_ effect: TestsEffect, _ context: EffectContext) {
        switch effect {
        case .runFlow(let id, let flow, let environment, let mode):
            context.load { [loaded, transport, clock] in
                guard let (catalog, secrets) = loaded(), let service = catalog.service(environment.service),
                    let place = service.environments.first(where: { $0.name == environment.environment })
                else { return .tests(.runFinished(run: id, problem: "the catalog has no environment \(environment)")) }
                var runner = TestRunner(caller: EndpointCaller(catalog: catalog, secrets: secrets, transport: transport), mode: mode, clock: clock)
                let post = context.post
                runner.onStep = { progress in
                    switch progress {
                    case .started(let name): post(.tests(.stepStarted(run: id, name: name)))
                    case .finished(let step, let outcome): post(.tests(.stepFinished(run: id, Self.report(step, outcome))))
                    }
                }
                let result = await runner.run(TestCase(service: service, environment: place, kind: .flow(flow)))
                return .tests(.runFinished(run: id, problem: result.steps.isEmpty ? result.note : nil))
            }
        }
    }

    /// What the app shows of a step that ended.
    static func report(_ step: StepResult, _ outcome: CallOutcome?) -> StepReport {
        let state: FlowStepState = switch step.status {
        case .passed: .passed
        case .failed: .failed
        case .errored: .errored
        case .skipped: .skipped
        }
        let reason = step.failures.first?.message ?? step.problem
        return StepReport(name: step.name, state: state, duration: step.duration, attempts: step.attempts, reason: reason, response: outcome)
    }
}
