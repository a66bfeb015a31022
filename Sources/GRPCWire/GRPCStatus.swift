import TextSupport

/// How a call ended: the code, the message (`grpc-message`, percent-decoded) and the details of
/// `grpc-status-details-bin` (a `google.rpc.Status`), decoded.
package struct GRPCStatus: Sendable, Hashable, CustomStringConvertible {
    package var code: GRPCStatusCode
    package var message: String
    package var details: [GRPCErrorDetail]
    /// What could not be read of `grpc-status-details-bin`, when some of it was damaged (the rest is in `details`).
    package var detailsProblem: String?

    package init(code: GRPCStatusCode, message: String = "", details: [GRPCErrorDetail] = [], detailsProblem: String? = nil) {
        self.code = code
        self.message = message
        self.details = details
        self.detailsProblem = detailsProblem
    }

    package static let ok = GRPCStatus(code: .ok)

    /// The status a call's trailers give: `grpc-status`, `grpc-message`, and the details of
    /// `grpc-status-details-bin` (whose own code and message fill in only what the trailers lack).
    package init(code: GRPCStatusCode, message: String, detailsBytes: [UInt8]?) {
        self.init(code: code, message: message)
        guard let detailsBytes else { return }
        let decoded = GRPCStatusDetails.decode(detailsBytes)
        details = decoded.details
        detailsProblem = decoded.problem
        if message.isEmpty, let detailed = decoded.message { self.message = detailed }
    }

    /// The message and details as lines a person reads, cleaned of control characters.
    package var lines: [String] {
        var lines: [String] = []
        if !message.isEmpty { lines.append(TerminalText.cleaned(message)) }
        lines += details.flatMap(\.lines)
        if let detailsProblem { lines.append(TerminalText.cleaned(detailsProblem)) }
        return lines
    }

    package var description: String {
        message.isEmpty ? code.name : "\(code.name): \(TerminalText.cleaned(message))"
    }
}

/// `grpc-message`'s percent-encoding: bytes outside printable ASCII, and `%`, as `%XX` of their UTF-8.
package enum GRPCMessageText {
    /// The message as the wire carries it.
    package static func encode(_ message: String) -> String {
        PercentEncoding.encode(message) { byte in byte >= 0x20 && byte <= 0x7E && byte != UInt8(ascii: "%") }
    }

    /// The message a `grpc-message` value carries; one whose escapes are malformed, or whose bytes
    /// are not UTF-8, is kept as it came (gRPC asks receivers not to fail on either).
    package static func decode(_ value: String) -> String {
        PercentEncoding.decode(value) ?? value
    }
}
