import DispatcherCore
import FoundationEssentials

/// What assertions read of a response: its status, headers, body and time.
public struct ResponseFacts: Sendable {
    /// The status code.
    public var status: Int
    /// The headers, in order (a name may repeat).
    public var headers: [HeaderField]
    /// The body.
    public var body: Data
    /// How long the response took (stub responses: their delay, usually zero).
    public var time: Duration

    /// Makes facts.
    public init(status: Int, headers: [HeaderField] = [], body: Data = Data(), time: Duration = .zero) {
        self.status = status
        self.headers = headers
        self.body = body
        self.time = time
    }

    /// The facts of a core response.
    public init(_ response: Response) {
        self.init(status: response.status, headers: response.headers.fields, body: response.body, time: response.timing.total)
    }
}

extension Duration {
    /// The duration in milliseconds (what `time:` compares and reports show).
    package var milliseconds: Double {
        Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
    }
}
