/// What a key does to the request history.
package enum HistoryCommand: Sendable, Hashable {
    /// The requests sent before, to send one again.
    case showHistory
}

extension HistoryFeature {
    static let keys: [KeyBinding] = [
        KeyBinding("H", .history(.showHistory), .other, help: "history: requests sent before (Enter sends one again where it went)")
    ]
}
