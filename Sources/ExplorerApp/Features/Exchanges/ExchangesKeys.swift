/// What a key does to the requests the explorer sends.
package enum ExchangesCommand: Sendable, Hashable {
    /// Send the selected endpoint (with its edits) to the active environment, in the current mode.
    case send
    /// Send the last request again as it was sent.
    case resend
    /// Cancel the request (close a stream or a conversation), or what else Esc closes.
    case cancelOrClose
    /// Send the selected endpoint with its body written to a file as it arrives (a download).
    case download
    /// Stub or live in the active environment.
    case toggleMode
    /// A window of the endpoint's named examples, to send one.
    case pickExample
    /// Copy the last request as curl.
    case copyCurl
    /// Copy the last request as code: a window of formats.
    case copyAs
}

extension ExchangesFeature {
    static let sendKeys: [KeyBinding] = [
        KeyBinding(
            "Enter C-s", .exchanges(.send), .requests, label: "Enter/C-s", help: "send the endpoint (with its edits) to the active environment, in the current mode"),
        KeyBinding("r", .exchanges(.resend), .requests, help: "resend the last request as it was sent"),
        KeyBinding("Esc", .exchanges(.cancelOrClose), .requests, help: "cancel the request (close a stream) or the formatting; clear the filter"),
        KeyBinding("d", .exchanges(.download), .requests, help: "download the body to a file as it arrives (any size), then browse it"),
    ]

    static let modeKeys: [KeyBinding] = [KeyBinding("s", .exchanges(.toggleMode), .requests, help: "switch stub / live")]

    static let exampleKeys: [KeyBinding] = [
        KeyBinding("x", .exchanges(.pickExample), .requests, help: "pick a named example and send it"),
        KeyBinding("c", .exchanges(.copyCurl), .requests, help: "copy the request as curl (OSC 52: works over SSH and in tmux)"),
        KeyBinding("C", .exchanges(.copyAs), .requests, help: "copy the request as HTTPie, Python requests or JavaScript fetch"),
    ]
}
