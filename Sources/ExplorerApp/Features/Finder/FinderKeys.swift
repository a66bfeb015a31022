/// What a key does to the finder and the command palette.
package enum FinderCommand: Sendable, Hashable {
    /// The finder: any endpoint of any service, by a part of its id, title, path, method or group.
    case findEndpoint
    /// The command palette: every command with its key.
    case commandPalette
}

extension FinderFeature {
    static let keys: [KeyBinding] = [
        KeyBinding("C-p", .finder(.findEndpoint), .requests, help: "find an endpoint (id, title, path, method, group) or a past request, in any service"),
        KeyBinding("F1 C-k", .finder(.commandPalette), .requests, label: "F1/C-k", help: "the command palette: every command with its key, run from a list"),
    ]
}
