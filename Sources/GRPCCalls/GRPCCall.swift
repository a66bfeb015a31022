import DispatcherCore
import GRPCWire

/// The four kinds of call, by whether each side streams.
package enum GRPCCallKind: String, Sendable, Hashable, CaseIterable {
    case unary
    case serverStreaming
    case clientStreaming
    case bidirectionalStreaming

    /// Whether the client sends a stream of messages (else exactly one).
    package var clientStreams: Bool { self == .clientStreaming || self == .bidirectionalStreaming }
    /// Whether the server answers with a stream of messages (else exactly one).
    package var serverStreams: Bool { self == .serverStreaming || self == .bidirectionalStreaming }

    /// The kind of a method whose sides stream as given (a descriptor's `client_streaming`, `server_streaming`).
    package init(clientStreams: Bool, serverStreams: Bool) {
        switch (clientStreams, serverStreams) {
        case (false, false): self = .unary
        case (false, true): self = .serverStreaming
        case (true, false): self = .clientStreaming
        case (true, true): self = .bidirectionalStreaming
        }
    }
}

/// The request messages of a call, encoded.
package enum GRPCRequestMessages: Sendable {
    /// These messages, then the end of the request (unary and server streaming: exactly one).
    case messages([[UInt8]])
    /// Each message as it comes (a composer's), the request ending when the stream finishes.
    case stream(AsyncStream<[UInt8]>)
}

/// How one call is made.
package struct GRPCCallOptions: Sendable, Hashable {
    /// Metadata sent with the request (text, and binary under `-bin` names).
    package var metadata: GRPCMetadata
    /// The deadline, from the start of the call (sent as `grpc-timeout`); nil: none.
    package var timeout: Duration?
    /// The largest response message taken, checked at its length prefix before its bytes are kept
    /// (and again after decompression).
    package var receiveLimit: Int
    /// How request messages are compressed.
    package var compression: GRPCMessageEncoding
    /// Whether the result keeps every response message (a long stream shown as it comes may not need them).
    package var keepsMessages: Bool

    package init(
        metadata: GRPCMetadata = GRPCMetadata(), timeout: Duration? = nil, receiveLimit: Int = GRPCMessageFraming.defaultReceiveLimit,
        compression: GRPCMessageEncoding = .identity, keepsMessages: Bool = true
    ) {
        self.metadata = metadata
        self.timeout = timeout
        self.receiveLimit = receiveLimit
        self.compression = compression
        self.keepsMessages = keepsMessages
    }
}

/// What a call hands its observer as it happens.
package enum GRPCCallEvent: Sendable, Hashable {
    /// The response's headers (initial metadata).
    case headers(GRPCMetadata)
    /// A response message, encoded.
    case message([UInt8])
}

/// How a call ended, with all it received.
package struct GRPCCallResult: Sendable, Hashable {
    /// The method called.
    package var method: GRPCMethodPath
    /// The response's headers (empty for a trailers-only answer or a failure before any).
    package var headers: GRPCMetadata
    /// The response messages, encoded (empty when the options did not keep them).
    package var messages: [[UInt8]]
    /// How many response messages came.
    package var messageCount: Int
    /// The trailers (`grpc-status-details-bin` among them, when sent).
    package var trailers: GRPCMetadata
    /// The status: the server's, or the one the client gave a call that failed below gRPC.
    package var status: GRPCStatus
    /// The failure below gRPC (connect, TLS, lost connection, client deadline), when there was one.
    package var transportError: TransportError?
    /// From the start to the response's headers.
    package var headersAfter: Duration?
    /// From the start to the first response message.
    package var firstMessageAfter: Duration?
    /// From the start to the end.
    package var duration: Duration

    /// Whether the call ended with `OK`.
    package var succeeded: Bool { status.code == .ok && transportError == nil }
}

extension GRPCCallResult: CustomStringConvertible {
    /// `routeguide.Probe/Echo: OK, 1 message (12 bytes)`: the messages counted, not shown.
    package var description: String {
        let bytes = messages.reduce(0) { $0 + $1.count }
        let kept = messages.isEmpty ? "" : " (\(GRPCByteCount(bytes)) kept)"
        return "\(method): \(status), \(messageCount) message\(messageCount == 1 ? "" : "s")\(kept)"
            + (transportError.map { "; transport: \($0.code.rawValue)" } ?? "")
    }
}
