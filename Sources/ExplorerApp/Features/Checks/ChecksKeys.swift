/// What a key does to flows and the Tests tab.
package enum TestsCommand: Sendable, Hashable {
    /// Run a flow of the active service (a window lists them when there are several).
    case runFlow
    /// Run every test of the active service (its `expect:` checks and flows).
    case runServiceTests
    /// The Tests tab: the last flow run, or the selected endpoint's checks.
    case toggleFlow
    /// The Tests tab: the flow's next step.
    case nextStep
    /// The Tests tab: the flow's previous step.
    case previousStep
    /// The Tests tab: the step's response in the Body tab.
    case openStep

    /// Whether it is a key of the Tests tab (rather than of the panes).
    var isTabKey: Bool { self != .runFlow && self != .runServiceTests }
}

extension TestsFeature {
    static let runKeys: [KeyBinding] = [
        KeyBinding("F", .tests(.runFlow), .other, help: "run a flow of the service (its steps pass or fail in the Tests tab)"),
        KeyBinding("V", .tests(.runServiceTests), .other, help: "run every test of the service: its expect: checks and flows, as `apiexplorer test` does"),
    ]

    static let tabKeys: [KeyBinding] = [
        KeyBinding("f", .tests(.toggleFlow), .testsTab, help: "the last flow run / the selected endpoint's checks"),
        KeyBinding("n", .tests(.nextStep), .testsTab, help: "flow: next step"),
        KeyBinding("N", .tests(.previousStep), .testsTab, help: "flow: previous step"),
        KeyBinding("o", .tests(.openStep), .testsTab, help: "flow: the step's response in the Body tab (after a failure: the failing step's)"),
    ]
}
