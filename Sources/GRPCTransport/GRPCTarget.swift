import DispatcherCore

/// Where a gRPC client connects, and how: plaintext HTTP/2 (h2c) or TLS with an environment's trust.
package struct GRPCTarget: Sendable, Hashable, CustomStringConvertible {
    package var host: String
    package var port: Int
    /// TLS (ALPN `h2`); else plaintext HTTP/2 (h2c, prior knowledge).
    package var secure: Bool
    /// How the server's certificate is checked, and the client certificate: an environment's
    /// `tls:` settings. Pins with a plaintext target refuse the connection, as for http:// URLs.
    package var trust: ServerTrust

    package init(host: String, port: Int, secure: Bool, trust: ServerTrust = ServerTrust()) {
        self.host = host
        self.port = port
        self.secure = secure
        self.trust = trust
    }

    /// `host:port`, IPv6 in brackets: the `:authority` a call carries.
    package var authority: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    package var description: String { authority }
}

/// How a client connection behaves.
package struct GRPCConnectionSettings: Sendable, Hashable {
    /// Time allowed to open the connection (TCP and TLS); nil: no limit.
    package var connectTimeout: Duration?
    /// The `user-agent` of each call (a call's own metadata may replace it).
    package var userAgent: String

    package init(connectTimeout: Duration? = .seconds(10), userAgent: String = "apiexplorer grpc") {
        self.connectTimeout = connectTimeout
        self.userAgent = userAgent
    }
}

/// A failure below gRPC (connecting, TLS, the connection lost or broken), carried as the cause of
/// GRPCCore's `RPCError` so that callers map it as the HTTP transport's failures are mapped.
package struct GRPCTransportFailure: Error, Sendable, Hashable, CustomStringConvertible {
    package var error: TransportError

    package init(_ error: TransportError) {
        self.error = error
    }

    package var description: String { error.message }
}
