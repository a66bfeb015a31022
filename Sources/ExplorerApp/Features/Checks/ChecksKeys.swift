/// What a key does to flows and the Tests tab.
package enum ChecksCommand: Sendable, Hashable {
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

extension ChecksFeature {
    static let runKeys: [KeyBinding] = [
        KeyBinding("F", .checks(.runFlow), .other, help: "run a flow of the service (its steps pass or fail in the Tests tab)"),
        KeyBinding("V", .checks(.runServiceTests), .other, help: "run every test of the service: its expect: checks and flows, as `apiexplorer test` does"),
    ]

    static let tabKeys: [KeyBinding] = [
        KeyBinding("f", .checks(.toggleFlow), .checksTab, help: "the last flow run / the selected endpoint's checks"),
        KeyBinding("n", .checks(.nextStep), .checksTab, help: "flow: next step"),
        KeyBinding("N", .checks(.previousStep), .checksTab, help: "flow: previous step"),
        KeyBinding("o", .checks(.openStep), .checksTab, help: "flow: the step's response in the Body tab (after a failure: the failing step's)"),
    ]
}
