import Catalog

/// One request the mock server served, for its log.
package struct MockRequestLog: Sendable, Hashable, CustomStringConvertible {
    /// The method.
    package var method: String
    /// The path and query as requested.
    package var uri: String
    /// The status sent, when a response was sent.
    package var status: Int?
    /// The endpoint that matched, if any.
    package var endpoint: EndpointKey?
    /// The example used, when one was.
    package var example: String?
    /// What happened besides a plain response (a simulated network error, a mock error).
    package var outcome: String?
    /// From the request's end to the response's end (or the connection's close).
    package var duration: Duration

    /// Makes a log entry.
    package init(method: String, uri: String, status: Int?, endpoint: EndpointKey?, example: String?, outcome: String?, duration: Duration) {
        self.method = method
        self.uri = uri
        self.status = status
        self.endpoint = endpoint
        self.example = example
        self.outcome = outcome
        self.duration = duration
    }

    /// `GET /petstore/pet/7 → 200 (example: default, 1 ms)`.
    package var description: String {
        let milliseconds = Int((Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15).rounded())
        let result = [status.map(String.init), outcome].compactMap { $0 }.joined(separator: " ")
        let details = (example.map { ["example: \($0)"] } ?? []) + ["\(milliseconds) ms"]
        return "\(method) \(uri) → \(result) (\(details.joined(separator: ", ")))"
    }
}
