import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL

/// One request a test server read completely, as the server saw it.
package struct TestRequest: Sendable {
    /// The request method.
    package var method: HTTPMethod
    /// The request target exactly as sent (`/path?query`; the `:path` pseudo-header over HTTP/2).
    package var uri: String
    /// The percent-encoded path part of `uri`.
    package var path: String
    /// The decoded query items of `uri`, in order; empty when there is no query.
    package var queryItems: [URLQueryItem]
    /// The request headers (over HTTP/2: normalised to HTTP/1 form, `:authority` as `host`).
    package var headers: HTTPHeaders
    /// The complete request body.
    package var body: [UInt8]
    /// The HTTP version: 1.0, 1.1, or 2.0 for a request on an HTTP/2 stream.
    package var version: HTTPVersion
    /// Which accepted TCP connection carried the request, counting from 1 in accept order.
    package var connectionID: Int
    /// The certificate the client presented during a mutual-TLS handshake, if any.
    package var clientCertificate: NIOSSLCertificate?

    /// A request as the server records it.
    package init(
        method: HTTPMethod,
        uri: String,
        headers: HTTPHeaders,
        body: [UInt8] = [],
        version: HTTPVersion = .http1_1,
        connectionID: Int = 0,
        clientCertificate: NIOSSLCertificate? = nil
    ) {
        self.method = method
        self.uri = uri
        let queryStart = uri.firstIndex(of: "?")
        self.path = String(uri[..<(queryStart ?? uri.endIndex)])
        self.queryItems = queryStart.map { Self.parseQuery(uri[uri.index(after: $0)...]) } ?? []
        self.headers = headers
        self.body = body
        self.version = version
        self.connectionID = connectionID
        self.clientCertificate = clientCertificate
    }

    /// Splits `a=1&b` into items like URLComponents does (no `+` to space), but never traps on
    /// malformed percent escapes: a component that does not decode is kept as sent.
    static func parseQuery(_ query: Substring) -> [URLQueryItem] {
        guard !query.isEmpty else { return [] }
        return query.split(separator: "&", omittingEmptySubsequences: false).map { pair in
            let decode = { (part: Substring) in part.removingPercentEncoding ?? String(part) }
            guard let equals = pair.firstIndex(of: "=") else { return URLQueryItem(name: decode(pair), value: nil) }
            return URLQueryItem(name: decode(pair[..<equals]), value: decode(pair[pair.index(after: equals)...]))
        }
    }

    /// The first value of the header `name` (case-insensitive), or nil.
    package func header(_ name: String) -> String? {
        headers.first(name: name)
    }

    /// The first value of the query item `name`, or nil.
    package func query(_ name: String) -> String? {
        queryItems.first { $0.name == name }?.value
    }

    /// The body as `Data`.
    package var bodyData: Data { Data(body) }

    /// The body decoded as UTF-8 (invalid sequences repaired).
    package var bodyText: String { String(decoding: body, as: UTF8.self) }
}
