/// Sends a request over the network. The live transport (AsyncHTTPClient) implements it; tests
/// may give their own. Stubs never reach a transport.
public protocol Transport: Sendable {
    /// Sends `request` and returns the response, or the failure below HTTP.
    /// A cancelled task ends with `TransportError(.cancelled)`.
    func send(_ request: Request) async throws(TransportError) -> Response
}
