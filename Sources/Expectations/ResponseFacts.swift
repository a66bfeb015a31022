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

    /// Makes facts.
    package init(status: Int, headers: [HeaderField] = [], body: Data = Data(), time: Duration = .zero) {
        self.status = status
        self.headers = headers
        self.body = body
        self.time = time
    }

    /// The facts of a core response.
    package init(_ response: Response) {
        self.init(status: response.status, headers: response.headers.fields, body: response.body, time: response.timing.total)
    }
}

extension Duration {
    /// The duration in milliseconds (what `time:` compares and reports show).
    package var milliseconds: Double {
        Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
    }
}
