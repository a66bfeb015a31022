import Expectations

/// A named, ordered list of requests of one service (`flows:`): each step sends an endpoint with
/// its own values, captures what later steps use, checks its response and may poll until a
/// condition holds. `apiexplorer test` runs flows in stub mode, against the mock or live.
package struct Flow: Sendable, Hashable, Identifiable {
    /// The id, unique within the service.
    package var id: String
    /// Shown in reports.
    package var title: String
    /// A sentence for people.
    package var summary: String?
    /// What runs, in order: a step, or steps that run at the same time.
    package var stages: [FlowStage]
    /// Where the flow is defined.
    package var location: SourceLocation

    /// Makes a flow.
    package init(id: String, title: String? = nil, summary: String? = nil, stages: [FlowStage], location: SourceLocation) {
        self.id = id
        self.title = title ?? id
        self.summary = summary
        self.stages = stages
        self.location = location
    }

    /// Every step, in order.
    package var steps: [FlowStep] {
        stages.flatMap { stage in
            switch stage {
            case .step(let step): [step]
            case .parallel(let steps): steps
            }
        }
    }
}

/// One stage of a flow.
package enum FlowStage: Sendable, Hashable {
    /// One step.
    case step(FlowStep)
    /// Steps sent at the same time; the next stage starts when all have finished, and sees what
    /// each captured.
    case parallel([FlowStep])
}

/// One request of a flow.
package struct FlowStep: Sendable, Hashable {
    /// The step's name, unique in its flow (the endpoint's id unless given).
    package var name: String
    /// The endpoint's id in the flow's service.
    package var endpoint: String
    /// The example asked for (stub mode, the mock).
    package var example: String?
    /// Run-time values for its placeholders (`variables:`), above captured ones.
    package var values: [String: String] = [:]
    /// A body sent instead of the endpoint's.
    package var body: EndpointEdits.Body?
    /// What it captures for later steps, beside the endpoint's own captures.
    package var captures: [Capture] = []
    /// What the response should be; nil checks the endpoint's (or the example's) `expect:`.
    package var expectations: ResponseExpectations?
    /// Polling: the request is sent again until these hold (`until:`), every `interval`, for at most `limit`.
    package var until: ResponseExpectations?
    /// Time between polls.
    package var interval: Duration = .seconds(1)
    /// Longest time spent polling before the step fails.
    package var limit: Duration = .seconds(30)
    /// Where the step is written.
    package var location: SourceLocation

    /// Makes a step.
    package init(name: String, endpoint: String, location: SourceLocation) {
        self.name = name
        self.endpoint = endpoint
        self.location = location
    }
}

extension Service {
    /// The flow with id `id`.
    package func flow(_ id: String) -> Flow? {
        flows.first { $0.id == id }
    }
}
