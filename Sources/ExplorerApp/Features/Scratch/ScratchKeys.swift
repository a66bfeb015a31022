/// What a key does to scratch requests.
package enum ScratchCommand: Sendable, Hashable {
    /// A scratch request: `METHOD URL` or a curl command, typed or pasted.
    case newRequest
}

extension ScratchFeature {
    static let keys: [KeyBinding] = [
        KeyBinding("C-n", .scratch(.newRequest), .requests, help: "a scratch request: type METHOD URL or paste a curl command; sent live at once")
    ]
}
