import GRPCCalls
import GRPCWire

/// What the mock answers a call with.
package struct GRPCMockAnswer: Sendable, Hashable {
    /// One response message, encoded, sent after `delay`.
    package struct Message: Sendable, Hashable {
        package var bytes: [UInt8]
        package var delay: Duration

        package init(_ bytes: [UInt8], delay: Duration = .zero) {
            self.bytes = bytes
            self.delay = delay
        }
    }

    /// Messages then `OK`, or a status (with its details) instead.
    package enum Reply: Sendable, Hashable {
        case messages([Message])
        case status(GRPCStatus)
    }

    package var reply: Reply
    /// Response headers (initial metadata).
    package var headers: GRPCMetadata
    /// Trailers sent with the status.
    package var trailers: GRPCMetadata

    package init(_ reply: Reply, headers: GRPCMetadata = GRPCMetadata(), trailers: GRPCMetadata = GRPCMetadata()) {
        self.reply = reply
        self.headers = headers
        self.trailers = trailers
    }

    /// One message, then `OK`.
    package static func message(_ bytes: [UInt8]) -> GRPCMockAnswer {
        GRPCMockAnswer(.messages([Message(bytes)]))
    }
}

/// What a call asked: its metadata, and its request messages (all of them; none for a
/// bidirectional call, which is answered as soon as it starts).
package struct GRPCMockRequest: Sendable, Hashable {
    package var metadata: GRPCMetadata
    package var messages: [[UInt8]]
}

/// A method the mock serves, and how it answers.
package struct GRPCMockMethod: Sendable {
    package var path: GRPCMethodPath
    package var kind: GRPCCallKind
    package var answer: @Sendable (GRPCMockRequest) async -> GRPCMockAnswer

    package init(_ path: GRPCMethodPath, kind: GRPCCallKind, answer: @escaping @Sendable (GRPCMockRequest) async -> GRPCMockAnswer) {
        self.path = path
        self.kind = kind
        self.answer = answer
    }

    /// Always the same answer.
    package init(_ path: GRPCMethodPath, kind: GRPCCallKind, answer: GRPCMockAnswer) {
        self.init(path, kind: kind) { _ in answer }
    }
}
