import Catalog

/// One request the mock server served, for its log.
public struct MockRequestLog: Sendable, Hashable, CustomStringConvertible {
    /// The method.
    public var method: String
    /// The path and query as requested.
    public var uri: String
    /// The status sent, when a response was sent.
    public var status: Int?
    /// The endpoint that matched, if any.
    public var endpoint: EndpointKey?
    /// The example used, when one was.
    public var example: String?
    /// What happened besides a plain response (a simulated network error, a mock error).
    public var outcome: String?
    /// From the request's end to the response's end (or the connection's close).
    public var duration: Duration

    /// Makes a log entry.
    public init(method: String, uri: String, status: Int?, endpoint: EndpointKey?, example: String?, outcome: String?, duration: Duration) {
        self.method = method
        self.uri = uri
        self.status = status
        self.endpoint = endpoint
        self.example = example
        self.outcome = outcome
        self.duration = duration
    }

    /// `GET /petstore/pet/7 → 200 (example: default, 1 ms)`.
    public var description: String {
        let milliseconds = Int((Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15).rounded())
        let result = [status.map(String.init), outcome].compactMap { $0 }.joined(separator: " ")
        let details = (example.map { ["example: \($0)"] } ?? []) + ["\(milliseconds) ms"]
        return "\(method) \(uri) → \(result) (\(details.joined(separator: ", ")))"
    }
}
