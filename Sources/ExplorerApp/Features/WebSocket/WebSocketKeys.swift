/// What a key does to WebSocket conversations.
package enum WebSocketCommand: Sendable, Hashable {
    /// Type a message for the selected endpoint's open WebSocket (its named messages a Tab away).
    case sendMessage
}

extension WebSocketFeature {
    static let keys: [KeyBinding] = [
        KeyBinding("m", .webSocket(.sendMessage), .requests, help: "WebSocket: type a message and send it (Tab: the catalog's named messages)")
    ]
}
