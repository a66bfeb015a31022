/// What a key does to the message log.
package enum MessagesCommand: Sendable, Hashable {
    /// Every notice and error of this run, in full.
    case showMessages
}

extension MessagesFeature {
    static let keys: [KeyBinding] = [
        KeyBinding("M", .messages(.showMessages), .other, help: "messages: every notice and error of this run, in full (the status bar cuts the latest)")
    ]
}
