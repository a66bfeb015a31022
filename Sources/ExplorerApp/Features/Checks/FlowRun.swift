import Catalog
import DispatcherCore
import Sessions

/// A flow, or every test of a service, run from the palette, step by step (test by test) as its
/// progress arrives.
package struct FlowRun: Sendable {
    /// This run, among the app's runs (reports of an earlier one are stale).
    package var id: Int
    /// The flow's id and title.
    package var flow: String
    package var title: String
    /// `Flow adopt`, `Tests of petstore`.
    package var heading: String
    /// What a row is: `step`, or `test` for a service's tests.
    package var rowNoun = "step"
    /// Where and how it runs.
    package var environment: EnvironmentKey
    package var mode: RequestMode
    /// Its steps, in the flow's order.
    package var steps: [FlowStepRow]
    /// Whether the runner is done.
    package var isFinished = false
    /// The step under the cursor.
    package var selected = 0

    /// The first step that failed or errored.
    package var failingStep: Int? { steps.firstIndex { $0.state == .failed || $0.state == .errored } }
}

/// One step of a flow run.
package struct FlowStepRow: Sendable {
    /// The step's name and endpoint.
    package var name: String
    package var endpoint: EndpointKey
    /// Where it is.
    package var state: FlowStepState = .pending
    /// From the first send to the last answer, once it ended.
    package var duration: Duration?
    /// Why it did not pass (the first failing assertion, or the problem), secrets masked.
    package var reason: String?
    /// How many times it was sent (polling).
    package var attempts = 0
    /// Its last answer, to show in the Body tab.
    package var response: CallOutcome?
}

/// Where a step of a flow run is.
package enum FlowStepState: String, Sendable, Hashable {
    case pending, running, passed, failed, errored, skipped
}
