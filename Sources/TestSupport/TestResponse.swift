import NIOCore
import NIOHTTP1

/// What a test server does with one request: a normal response, or a misbehaviour.
///
/// Build one with the static helpers (`.ok("hi")`, `.json(...)`, `.gzip(...)`, `.chunked(...)`,
/// `.truncated(...)`, `.neverRespond`, `.redirect(to:)` …) and adjust with `.delayed(by:)`,
/// `.withHeader(_:_:)`, `.withStatus(_:)`.
package struct TestResponse: Sendable {
    /// The response status (unused by `neverRespond` and `drop`).
    package var status: HTTPResponseStatus
    /// The response headers; the server adds `Content-Length` / `Transfer-Encoding` as the behaviour needs.
    package var headers: HTTPHeaders
    /// What is written on the wire.
    package var behaviour: Behaviour
    /// Real time the server waits after reading the request and before acting.
    package var delay: Duration

    /// A response with every field spelled out.
    package init(status: HTTPResponseStatus = .ok, headers: HTTPHeaders = [:], behaviour: Behaviour, delay: Duration = .zero) {
        self.status = status
        self.headers = headers
        self.behaviour = behaviour
        self.delay = delay
    }

    /// How the server ends a connection on purpose.
    package enum ConnectionEnding: Sendable, Hashable {
        /// An orderly close: TLS close_notify when TLS is on, then TCP FIN.
        case close
        /// An abortive close: SO_LINGER 0, so the peer receives a TCP RST (no TLS close_notify).
        case reset
        /// No end: the connection stays open with nothing more sent, until the server shuts down
        /// (a server that hangs mid-body, or whose Content-Length lies).
        case stall
    }

    /// What is written on the wire after the delay.
    package enum Behaviour: Sendable {
        /// The head and `body` with a matching `Content-Length` (kept if the headers already set one).
        /// No body is sent for HEAD requests or 1xx/204/304 statuses.
        case body([UInt8])
        /// A streamed body: `Transfer-Encoding: chunked` over HTTP/1.1, DATA frames over HTTP/2.
        case chunked(TestChunkedBody)
        /// Declares `Content-Length: declaredLength`, sends `sent`, then ends the connection.
        /// Over HTTP/2 the whole TCP connection ends, not just the stream.
        case truncated(declaredLength: Int, sent: [UInt8], ending: ConnectionEnding)
        /// Reads the request and never answers; the connection stays open until the server shuts down.
        case neverRespond
        /// Ends the connection without writing anything (over HTTP/2: the whole TCP connection).
        case drop(ConnectionEnding)
    }
}
