import AsyncHTTPClient
import DispatcherCore
import FoundationEssentials
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a failure message needs to know about the request.
package struct FailureContext: Sendable {
    /// The URL of the hop that failed.
    let url: URL
    /// The request's timeouts (named in timeout messages).
    let timeouts: Timeouts
    /// The proxy the hop went through, if any.
    let proxy: ProxyServer?
    /// Whether the response head had arrived (a TLS or connection failure after it is a lost connection).
    var receivedHead = false
    /// The most connections the transport keeps to one host (named when a request waited for one).
    var connectionLimit: Int?

    init(url: URL, timeouts: Timeouts, proxy: ProxyServer?, receivedHead: Bool = false) {
        self.url = url
        self.timeouts = timeouts
        self.proxy = proxy
        self.receivedHead = receivedHead
    }

    /// A direct connection's context (no proxy), for transports beside HTTP's (gRPC).
    package init(url: URL, timeouts: Timeouts, receivedHead: Bool = false) {
        self.init(url: url, timeouts: timeouts, proxy: nil, receivedHead: receivedHead)
    }

    /// `host:port` of the URL.
    var authority: String { Hop.authority(url) }
}

extension TransportError {
    /// Maps whatever AsyncHTTPClient, NIO or BoringSSL threw into a code and a sentence that says what happened.
    package static func mapping(_ error: any Error, context: FailureContext) -> TransportError {
        let authority = context.authority
        switch error {
        case let error as TransportError:
            return error
        case let mismatch as PinMismatch:
            return mismatch.transportError(host: authority)
        case is CancellationError:
            return TransportError(.cancelled)
        case let error as HTTPClientError:
            return mapping(error, context: context)
        case let error as NIOConnectionError:
            if let first = error.connectionErrors.first {
                return mapping(first.error, context: context)
            }
            let dnsError = error.dnsAError ?? error.dnsAAAAError
            return cannotFindHost(context, detail: dnsError.map(describeDNS))
        case let error as SocketAddressError.UnknownHost:
            return cannotFindHost(context, detail: error.errorDescription)
        case let error as IOError:
            return mapping(errno: error.errnoCode, description: "\(error)", context: context)
        case ChannelError.connectTimeout:
            return timedOut(.connect, context)
        case let error as ChannelError:
            if error == .ioOnClosedChannel || error == .eof || error == .alreadyClosed || error == .outputClosed {
                return connectionLost(context)
            }
            return TransportError(.unknown, message: "The connection to \(authority) failed (\(error)).")
        case let error as NIOSSLError:
            return mapping(error, context: context)
        case let error as NIOSSLExtraError:
            if error == .failedToValidateHostname {
                return TransportError(
                    .serverCertificateUntrusted,
                    message: "The certificate of \(authority) is not valid for the host name \(context.url.host ?? "") (hostname mismatch).")
            }
            return TransportError(.secureConnectionFailed, message: "The TLS connection to \(authority) failed (\(error)).")
        case let error as BoringSSLError:
            return tlsMapping(error, context: context)
        case HTTPParserError.invalidEOFState:
            // The server closed the connection while the message was still incomplete.
            return connectionLost(context)
        case let error as ResponseStatusGuard.InvalidStatusLine:
            return TransportError(
                .badServerResponse, message: "\(authority) answered with the status \(error.code), which is not an HTTP status (100–999).")
                case let error as HTTPParserError:
            return TransportError(.badServerResponse, message: "\(authority) sent a response that is not valid HTTP (\(error)).")
        default:
            return TransportError(.unknown, message: "The request to \(authority) failed: \(String(describing: error))")
        }
    }

    private static func mapping(_ error: HTTPClientError, context: FailureContext) -> TransportError {
        let authority = context.authority
        switch error {
        case .cancelled: return TransportError(.cancelled)
        case .connectTimeout, .tlsHandshakeTimeout: return timedOut(.connect, context)
        // Every connection to the host was busy, and none freed in time: a wait, not a failure to connect.
        case .getConnectionFromPoolTimeout: return timedOut(.connectionWait, context)
        case .socksHandshakeTimeout, .httpProxyHandshakeTimeout:
            return TransportError(
                .timedOut, message: "The proxy \(context.proxy?.description ?? "") did not open a tunnel to \(authority) in time (connect timeout).",
                timeoutPhase: .connect)
        case .readTimeout: return timedOut(.read, context)
        case .deadlineExceeded: return timedOut(.total, context)
        case .remoteConnectionClosed, .uncleanShutdown: return connectionLost(context)
        case .alreadyShutdown: return TransportError(.cancelled, message: "The HTTP transport was shut down.")
        case .invalidProxyResponse:
            return TransportError(
                .cannotConnectToHost, message: "The proxy \(context.proxy?.description ?? "") refused to open a tunnel to \(authority).")
        case .proxyAuthenticationRequired:
            return TransportError(
                .cannotConnectToHost, message: "The proxy \(context.proxy?.description ?? "") requires authentication (407); put user:password in the proxy URL.")
        case .emptyHost: return TransportError(.cannotFindHost, message: "The URL \(context.url.absoluteString) has no host.")
        default:
            return TransportError(.unknown, message: "The request to \(authority) failed (\(error.shortDescription)).")
        }
    }

    private static func mapping(errno code: CInt, description: String, context: FailureContext) -> TransportError {
        let authority = context.authority
        switch code {
        case ECONNREFUSED:
            if let proxy = context.proxy {
                return TransportError(.cannotConnectToHost, message: "Could not connect to the proxy \(proxy): connection refused.")
            }
            return TransportError(.cannotConnectToHost, message: "Could not connect to \(authority): connection refused.")
        case ETIMEDOUT:
            return timedOut(.connect, context)
        case ENETUNREACH, ENETDOWN:
            return TransportError(.notConnectedToInternet, message: "Could not connect to \(authority): the network is unreachable.")
        case EHOSTUNREACH, EHOSTDOWN:
            return TransportError(.cannotConnectToHost, message: "Could not connect to \(authority): no route to the host.")
        case ECONNRESET, EPIPE, ECONNABORTED:
            return context.receivedHead
                ? connectionLost(context, how: "reset the connection")
                : TransportError(.networkConnectionLost, message: "\(authority) reset the connection before answering.")
        default:
            return TransportError(.cannotConnectToHost, message: "Could not connect to \(authority): \(description).")
        }
    }

    private static func mapping(_ error: NIOSSLError, context: FailureContext) -> TransportError {
        switch error {
        case .handshakeFailed(let boring):
            return tlsMapping(boring, context: context)
        case .uncleanShutdown:
            return context.receivedHead
                ? connectionLost(context)
                : TransportError(
                    .secureConnectionFailed,
                    message: "\(context.authority) closed the connection during the TLS handshake (does it speak TLS on this port?).")
        default:
            return TransportError(.secureConnectionFailed, message: "The TLS connection to \(context.authority) failed (\(error)).")
        }
    }

    /// Classifies BoringSSL's reason (the last part of `error:…:REASON`).
    static func tlsMapping(_ error: BoringSSLError, context: FailureContext) -> TransportError {
        let authority = context.authority
        let text = "\(error)"
        let reason = tlsReason(in: text)
        switch reason {
        case "CERTIFICATE_VERIFY_FAILED":
            return TransportError(
                .serverCertificateUntrusted,
                message: "The certificate of \(authority) could not be verified: it is expired, self-signed, issued for another host, "
                    + "or signed by a CA this environment does not trust (CERTIFICATE_VERIFY_FAILED).")
        case "TLSV1_ALERT_CERTIFICATE_REQUIRED", "SSLV3_ALERT_HANDSHAKE_FAILURE", "SSLV3_ALERT_BAD_CERTIFICATE",
            "TLSV1_ALERT_UNKNOWN_CA", "SSLV3_ALERT_CERTIFICATE_UNKNOWN", "TLSV1_ALERT_ACCESS_DENIED":
            return TransportError(
                .secureConnectionFailed,
                message: "\(authority) rejected the TLS handshake (\(reason ?? text)): it wants a client certificate it trusts. "
                    + "Set the environment's client certificate and key.")
        case "WRONG_VERSION_NUMBER", "PACKET_LENGTH_TOO_LONG", "HTTP_REQUEST":
            return TransportError(
                .secureConnectionFailed, message: "\(authority) does not speak TLS on this port (\(reason ?? text)); is the URL http:// instead?")
        default:
            return TransportError(.secureConnectionFailed, message: "The TLS handshake with \(authority) failed (\(reason ?? text)).")
        }
    }

    /// The reason token of a BoringSSL error text, e.g. `CERTIFICATE_VERIFY_FAILED`.
    static func tlsReason(in text: String) -> String? {
        guard let range = text.firstRange(of: "OPENSSL_internal:") else { return nil }
        let token = text[range.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        return token.isEmpty ? nil : String(token)
    }

    static func timedOut(_ phase: TimeoutPhase, _ context: FailureContext) -> TransportError {
        let authority = context.authority
        let message: String
        switch phase {
        case .connect:
            let limit = context.timeouts.connect.map { " within \(Self.text(of: $0))" } ?? ""
            message = "Could not connect to \(authority)\(limit) (connect timeout)."
        case .read:
            let limit = context.timeouts.read.map { " for \(Self.text(of: $0))" } ?? ""
            // Before a complete head, lines of it may have trickled in (a slowloris): "nothing" is only the last wait.
            message = context.receivedHead
                ? "\(authority) sent nothing\(limit) (read timeout)."
                : "\(authority) sent nothing\(limit) before a complete response head (read timeout)."
        case .total:
            let limit = context.timeouts.total.map { " within \(Self.text(of: $0))" } ?? ""
            message = "The request to \(authority) did not finish\(limit) (total deadline)."
        case .connectionWait:
            let limit = context.timeouts.connect.map { " within \(Self.text(of: $0))" } ?? ""
            let count = context.connectionLimit.map { "all \($0) connections" } ?? "every connection"
            message = "No connection to \(authority) became free\(limit): \(count) the transport keeps to it were busy with other requests "
                + "(it waited for one; no connection attempt failed)."
        }
        return TransportError(.timedOut, message: message, timeoutPhase: phase)
    }

    private static func connectionLost(_ context: FailureContext, how: String = "closed the connection") -> TransportError {
        let when = context.receivedHead ? "before the body was complete" : "before answering"
        return TransportError(.networkConnectionLost, message: "\(context.authority) \(how) \(when).")
    }

    private static func cannotFindHost(_ context: FailureContext, detail: String?) -> TransportError {
        let host = context.proxy?.host ?? context.url.host ?? context.authority
        let what = context.proxy == nil ? "The host name" : "The proxy's host name"
        return TransportError(.cannotFindHost, message: "\(what) '\(host)' could not be resolved" + (detail.map { " (\($0))." } ?? "."))
    }

    private static func describeDNS(_ error: any Error) -> String {
        if let unknown = error as? SocketAddressError.UnknownHost { return unknown.errorDescription }
        return "\(error)"
    }

    /// `250 ms`, `2 s`, `1.5 s`.
    static func text(of duration: Duration) -> String {
        duration < .seconds(1) ? "\(Int((duration.seconds * 1000).rounded())) ms" : "\(duration.secondsText) s"
    }
}
