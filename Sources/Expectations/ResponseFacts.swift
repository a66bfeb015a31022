import DispatcherCore
import FoundationEssentials

/// What assertions read of a response: its status, headers, body and time.
package struct ResponseFacts: Sendable {
    /// The status code.
    package var status: Int
    /// The headers, in order (a name may repeat).
    package var headers: [HeaderField]
    /// The body.
    package var body: Data
    /// How long the response took (stub responses: their delay, usually zero).
    package var time: Duration
    /// Whether `body` is the whole body: false when it was cut (at the size cap, or kept short
    /// while it streamed past). Body checks never pass on part of a body.
    package var isComplete: Bool

    /// Makes facts.
    package init(status: Int, headers: [HeaderField] = [], body: Data = Data(), time: Duration = .zero, isComplete: Bool = true) {
        self.status = status
        self.headers = headers
        self.body = body
        self.time = time
        self.isComplete = isComplete
    }

    /// The gRPC status code of a call's response (`grpc-status`); nil for any other response.
    package var rpcStatus: Int? {
        headers.last { Headers.sameName($0.name, RPCStatus.header) }.flatMap { Int($0.value) }
    }

    /// The facts of a core response.
    package init(_ response: Response) {
        self.init(
            status: response.status, headers: response.headers.fields, body: response.body, time: response.timing.total,
            isComplete: !response.isTruncated)
    }
}

extension Duration {
    /// The duration in milliseconds (what `time:` compares and reports show).
    package var milliseconds: Double {
        Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
    }
}
