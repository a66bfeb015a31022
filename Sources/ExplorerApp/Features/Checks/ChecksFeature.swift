import Catalog
import DispatcherCore
import Expectations
import Sessions
import TerminalKit

/// The Tests tab: each `expect:` assertion of an endpoint checked on its last response, as the
/// response arrives, and the flows and service tests run from the palette, step by step.
package struct ChecksState: Sendable {
    /// The checks of each endpoint's last response.
    package fileprivate(set) var results: [EndpointKey: EndpointChecks] = [:]
    /// The last flow run from the palette.
    package fileprivate(set) var run: FlowRun?
    /// Whether the tab shows the flow run (else the selected endpoint's checks).
    package fileprivate(set) var showsFlow = false
    /// The id the next run gets.
    fileprivate var nextRun = 1
}

/// The assertions of one endpoint checked on its last response.
package struct EndpointChecks: Sendable {
    /// The request the response answered.
    package var call: EndpointCall
    /// Whose `expect:` applied: the picked example's or the endpoint's.
    package var source: ExpectationSource
    /// Each assertion's outcome, in the catalog's order, secrets masked.
    package var outcomes: [AssertionOutcome]
    /// Why nothing could be checked (no response came back), secrets masked.
    package var problem: String?

    /// The assertions that did not hold.
    package var failures: [AssertionOutcome] { outcomes.filter { !$0.passed } }
}

/// Whose `expect:` a response is checked against.
package enum ExpectationSource: Sendable, Hashable {
    /// The endpoint's own.
    case endpoint
    /// A named example's (stub mode, when it declares any).
    case example(String)
}

/// What happens to the Tests tab.
package enum ChecksAction: Sendable {
    /// A response of an endpoint arrived (or its request failed): its assertions are checked.
    case responseArrived(CallOutcome)
    /// A key: "run a flow" (the active service's only flow runs, or a window lists them), "run
    /// every test of the service" (in the active environment and mode), or one of the Tests tab's.
    case command(ChecksCommand)
    /// A key in the window of flows.
    case window(Command)
    /// The tests run `run` holds, named, with their endpoints (a flow's: `flow:ID`), before any runs.
    case runListed(run: Int, tests: [(name: String, endpoint: EndpointKey)])
    /// A step of run `run` was sent.
    case stepStarted(run: Int, name: String)
    /// A step of run `run` ended, with its last answer.
    case stepFinished(run: Int, StepReport)
    /// Run `run` ended; `problem` says why it could not run at all.
    case runFinished(run: Int, problem: String?)
}

/// What the runner said of a step that ended.
package struct StepReport: Sendable {
    package var name: String
    package var state: FlowStepState
    package var duration: Duration
    package var attempts: Int
    package var reason: String?
    package var response: CallOutcome?

    package init(name: String, state: FlowStepState, duration: Duration, attempts: Int, reason: String?, response: CallOutcome?) {
        self.name = name
        self.state = state
        self.duration = duration
        self.attempts = attempts
        self.reason = reason
        self.response = response
    }
}

/// Work the Tests tab asks of the runtime.
package enum ChecksEffect: Sendable, Hashable {
    /// Run flow `flow` of the environment's service in `mode`, reporting each step and the end.
    case runFlow(run: Int, flow: String, environment: EnvironmentKey, mode: RequestMode)
    /// Run every test of the environment's service (`apiexplorer test SERVICE`), reporting each
    /// test as it ends.
    case runService(run: Int, environment: EnvironmentKey, mode: RequestMode)
}

enum ChecksFeature: AppFeature {
    /// The catalogs, and where and how requests go now.
    struct Context {
        var catalog: CatalogSet
        var environment: EnvironmentKey?
        var mode: RequestMode
    }

    static func context(of app: AppState) -> Context {
        Context(catalog: app.catalog, environment: app.activeEnvironmentKey, mode: app.sendMode)
    }

    static func reduce(_ state: inout ChecksState, _ action: ChecksAction, _ shell: inout AppShell, _ context: Context) -> [AppEffect] {
        switch action {
        case .responseArrived(let record):
            state.results[record.call.endpoint] = check(record, in: context.catalog)
        case .command(.runFlow):
            guard let environment = context.environment, let service = context.catalog.service(environment.service) else {
                shell.notice = "Pick an environment first: a flow runs in the active one."
                return []
            }
            switch service.flows.count {
            case 0: shell.notice = "\(service.id) has no flows: add one under flows: in its catalog file (environments/README.md, Tests)."
            case 1: return start(service.flows[0], of: service, in: environment, &state, &shell, context)
            default: shell.present(.checks(flows: ListState(selected: 0)))
            }
        case .command(.runServiceTests):
            guard let environment = context.environment, let service = context.catalog.service(environment.service) else {
                shell.notice = "Pick an environment first: the tests run in the active one."
                return []
            }
            guard let id = begin(service, in: environment, heading: "Tests of \(service.id)", flow: "", title: service.title, rows: [], &state, &shell, context)
            else { return [] }
            state.run?.rowNoun = "test"
            return [.checks(.runService(run: id, environment: environment, mode: context.mode))]
        case .runListed(let id, let tests):
            guard var run = state.run, run.id == id else { return [] }
            run.steps = tests.map { FlowStepRow(name: $0.name, endpoint: $0.endpoint) }
            state.run = run
        case .window(let command):
            guard case .checks(let list)? = shell.window, let environment = context.environment,
                let service = context.catalog.service(environment.service)
            else { return [] }
            switch OverlaysFeature.listKey(command, list, count: service.flows.count) {
            case .moved(let list): shell.present(.checks(flows: list))
            case .chosen(let index):
                shell.dismiss()
                return start(service.flows[index], of: service, in: environment, &state, &shell, context)
            case .closed: shell.dismiss()
            case .ignored: break
            }
        case .command(let command):
            return key(command, &state, &shell)
        case .stepStarted(let id, let name):
            guard var run = state.run, run.id == id, let index = run.steps.firstIndex(where: { $0.name == name }) else { return [] }
            run.steps[index].state = .running
            state.run = run
        case .stepFinished(let id, let report):
            guard var run = state.run, run.id == id, let index = run.steps.firstIndex(where: { $0.name == report.name }) else { return [] }
            run.steps[index].state = report.state
            run.steps[index].duration = report.duration
            run.steps[index].attempts = report.attempts
            run.steps[index].reason = report.reason
            run.steps[index].response = report.response
            state.run = run
        case .runFinished(let id, let problem):
            guard var run = state.run, run.id == id else { return [] }
            run.isFinished = true
            // Steps never reported were not run (after a failing step).
            for index in run.steps.indices where run.steps[index].state == .pending || run.steps[index].state == .running {
                run.steps[index].state = .skipped
            }
            if let failing = run.failingStep { run.selected = failing }
            state.run = run
            let failed = run.steps.count { $0.state == .failed || $0.state == .errored }
            shell.notice = problem.map { "\(run.heading) could not run: \($0)" }
                ?? (failed == 0 ? "\(run.heading): every \(run.rowNoun) passed."
                    : "\(run.heading) failed at \(run.rowNoun) '\(run.steps[run.selected].name)': o shows its response.")
        }
        return []
    }

    /// Starts a flow: every step pending, the Tests tab showing it.
    private static func start(
        _ flow: Flow, of service: Service, in environment: EnvironmentKey, _ state: inout ChecksState, _ shell: inout AppShell, _ context: Context
    ) -> [AppEffect] {
        let steps = flow.steps.map { FlowStepRow(name: $0.name, endpoint: EndpointKey(service: service.id, endpoint: $0.endpoint)) }
        guard let id = begin(service, in: environment, heading: "Flow \(flow.id)", flow: flow.id, title: flow.title, rows: steps, &state, &shell, context)
        else { return [] }
        return [.checks(.runFlow(run: id, flow: flow.id, environment: environment, mode: context.mode))]
    }

    /// A new run, shown in the Tests tab; nil when it may not go live.
    private static func begin(
        _ service: Service, in environment: EnvironmentKey, heading: String, flow: String, title: String, rows: [FlowStepRow],
        _ state: inout ChecksState, _ shell: inout AppShell, _ context: Context
    ) -> Int? {
        if context.mode == .live, !service.isTrusted {
            shell.notice = "Not run: \(service.id) is not trusted to go live; send one of its requests live first (it asks), or run it in stub mode."
            return nil
        }
        let id = state.nextRun
        state.nextRun += 1
        state.run = FlowRun(id: id, flow: flow, title: title, heading: heading, environment: environment, mode: context.mode, steps: rows)
        state.showsFlow = true
        shell.notice = "Running \(heading) in \(environment.environment) (\(context.mode.badge))…"
        shell.requests.append(.showTab(.tests))
        return id
    }

    /// The Tests tab's own keys.
    private static func key(_ command: ChecksCommand, _ state: inout ChecksState, _ shell: inout AppShell) -> [AppEffect] {
        switch command {
        case .runFlow, .runServiceTests:
            break  // handled by `reduce`
        case .toggleFlow:
            guard state.run != nil else {
                shell.notice = "No flow run yet: the palette's \"run a flow\" (F) starts one."
                return []
            }
            state.showsFlow.toggle()
        case .nextStep, .previousStep:
            guard state.showsFlow, var run = state.run, !run.steps.isEmpty else { return [] }
            run.selected = min(run.steps.count - 1, max(0, run.selected + (command == .nextStep ? 1 : -1)))
            state.run = run
        case .openStep:
            guard let run = state.run else {
                shell.notice = "No flow run yet: the palette's \"run a flow\" (F) starts one."
                return []
            }
            let step = run.steps[run.selected]
            guard let response = step.response else {
                shell.notice = "Step '\(step.name)' has no response (\(step.state.rawValue))."
                return []
            }
            shell.requests.append(.showResponse(response))
        }
        return []
    }

    /// The expectations a call is checked against, and whose they are; nil when its endpoint is gone.
    /// As `apiexplorer test` does: a picked example's own `expect:` in stub mode, else the endpoint's.
    static func expectations(
        for key: EndpointKey, mode: RequestMode, example: String?, in catalog: CatalogSet
    ) -> (ResponseExpectations, ExpectationSource)? {
        guard let endpoint = catalog.endpoint(key)?.endpoint else { return nil }
        if mode == .stub, let name = example, let example = endpoint.examples.first(where: { $0.name == name }), !example.expectations.isEmpty {
            return (example.expectations, .example(name))
        }
        return (endpoint.expectations, .endpoint)
    }

    /// Checks a response against its expectations (pure: the body is parsed once, only for body assertions).
    static func check(_ record: CallOutcome, in catalog: CatalogSet) -> EndpointChecks? {
        let call = record.call
        guard let (expectations, source) = expectations(for: call.endpoint, mode: call.mode, example: call.example, in: catalog) else { return nil }
        var checks = EndpointChecks(call: record.call, source: source, outcomes: [])
        guard !expectations.isEmpty else { return checks }
        guard let response = record.exchange.response else {
            let reason = record.exchange.error.map { "\($0.kind.name): \($0.message)" } ?? "nothing came back"
            checks.problem = record.redactor.text(reason)
            return checks
        }
        var evaluator = ExpectationEvaluator(ResponseFacts(response), redactor: record.redactor)
        checks.outcomes = evaluator.evaluate(expectations)
        return checks
    }
}
