/// What a key does to the environments, the filter and the endpoint tree.
package enum NavigationCommand: Sendable, Hashable {
    /// The next environment of the active service.
    case nextEnvironment
    /// The previous one.
    case previousEnvironment
    /// Filter the endpoints as you type.
    case filter
    /// Fold the group under the cursor (on an endpoint: its group, the cursor going to the heading).
    case fold
    /// Unfold the group under the cursor.
    case unfold
    /// Rows lead with titles or with paths.
    case toggleRowStyle
}

extension NavigationFeature {
    static let environmentKeys: [KeyBinding] = [
        KeyBinding("e", .navigation(.nextEnvironment), .requests, help: "next environment"),
        KeyBinding("E", .navigation(.previousEnvironment), .requests, help: "previous environment"),
    ]

    static let filterKeys: [KeyBinding] = [KeyBinding("/", .navigation(.filter), .requests, help: "filter endpoints as you type, best match first")]

    static let treeKeys: [KeyBinding] = [
        KeyBinding("-", .navigation(.fold), .requests, help: "endpoints: fold the group (Enter on a group folds / unfolds it)"),
        KeyBinding("+ =", .navigation(.unfold), .requests, label: "+", help: "endpoints: unfold the group"),
        KeyBinding("t", .navigation(.toggleRowStyle), .requests, help: "endpoints: rows lead with titles or with paths"),
    ]
}
