import DispatcherCore
import FoundationEssentials
import LiveTransport
import NIOCore
import NIOHTTP2
import NIOSSL
import NIOTLS
import Synchronization

/// What one connection went through, for the message of a call that failed on it: the first
/// error its pipeline saw, whether the peer answered in HTTP/1, whether it closed.
final class GRPCConnectionWatch: Sendable {
    private struct State {
        var firstError: (any Error)?
        var answeredHTTP1 = false
        var closed = false
    }

    private let state = Mutex(State())
    /// `host:port`, for messages.
    let authority: String
    /// The TLS handshake's end (with the ALPN protocol agreed), or its failure; succeeded at once without TLS.
    let handshake: EventLoopPromise<String?>

    init(authority: String, handshake: EventLoopPromise<String?>) {
        self.authority = authority
        self.handshake = handshake
    }

    func record(_ error: any Error) {
        state.withLock { if $0.firstError == nil { $0.firstError = error } }
        handshake.fail(error)
    }

    func recordHTTP1() {
        state.withLock { $0.answeredHTTP1 = true }
    }

    func recordClosed() {
        state.withLock { $0.closed = true }
        handshake.fail(ChannelError.eof)
    }

    var isClosed: Bool { state.withLock { $0.closed } }

    /// Why a call on this connection could not finish, in the HTTP transport's terms.
    func failure(messagesReceived: Int?, timeouts: Timeouts) -> TransportError {
        let (error, answeredHTTP1) = state.withLock { ($0.firstError, $0.answeredHTTP1) }
        if answeredHTTP1 {
            return TransportError(
                .badServerResponse,
                message: "\(authority) answered in HTTP/1.1, not HTTP/2: it is not a gRPC server, or it speaks TLS on this port (plaintext gRPC is HTTP/2 without TLS).")
        }
        if let error = error as? any NIOHTTP2Error {
            return TransportError(
                .badServerResponse,
                message: "\(authority) sent bytes that are not valid HTTP/2 (\(Self.name(of: error))): it is not a gRPC server, or it speaks TLS on this port.")
        }
        var how = "closed"
        if let error {
            let context = FailureContext(url: url, timeouts: timeouts, receivedHead: messagesReceived != nil)
            let mapped = TransportError.mapping(error, context: context)
            // A lost connection is told in a call's terms (messages, status), not a body's.
            if mapped.code == .networkConnectionLost {
                how = mapped.message.contains(" reset ") ? "reset" : "closed"
            } else if mapped.code != .unknown {
                return mapped
            }
        }
        let when = messagesReceived.map { $0 == 0 ? "after its response headers" : "after \($0) message\($0 == 1 ? "" : "s")" } ?? "before answering"
        return TransportError(.networkConnectionLost, message: "\(authority) \(how) the connection \(when), before the call's status.")
    }

    /// The URL the HTTP transport's failure messages name.
    var url: URL {
        URL(string: "https://\(authority)") ?? URL(filePath: "/")
    }

    /// A NIOHTTP2 error's type name: `FrameTooLarge`, `BadClientMagic`.
    static func name(of error: any Error) -> String {
        String(describing: type(of: error))
    }
}

/// First in the connection's pipeline after TLS: sees the handshake end (with the protocol ALPN
/// agreed), and the first bytes the server sends, to tell an HTTP/1 answer from HTTP/2 frames.
final class GRPCConnectionPreface: ChannelDuplexHandler, RemovableChannelHandler, Sendable {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let watch: GRPCConnectionWatch
    private let secure: Bool

    init(watch: GRPCConnectionWatch, secure: Bool) {
        self.watch = watch
        self.secure = secure
    }

    func channelActive(context: ChannelHandlerContext) {
        if !secure { watch.handshake.succeed(nil) }
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = unwrapInboundIn(data)
        // An HTTP/1 server answers HTTP/2's preface with a status line (a 400, usually).
        if bytes.readableBytesView.starts(with: "HTTP/1.".utf8) {
            watch.recordHTTP1()
            context.close(promise: nil)
            return
        }
        // Passed on before this handler leaves: a read fired from a removed handler's context is lost.
        context.fireChannelRead(data)
        context.pipeline.syncOperations.removeHandler(self, promise: nil)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case TLSUserEvent.handshakeCompleted(let negotiated) = event {
            watch.handshake.succeed(negotiated)
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        watch.record(error)
        context.fireErrorCaught(error)
    }
}

/// Last in the connection's pipeline: keeps the first error anything before it raised (HTTP/2's
/// protocol errors among them) and the connection's end.
final class GRPCConnectionTail: ChannelInboundHandler, Sendable {
    typealias InboundIn = NIOAny

    private let watch: GRPCConnectionWatch

    init(watch: GRPCConnectionWatch) {
        self.watch = watch
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        watch.record(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        watch.recordClosed()
        context.fireChannelInactive()
    }
}
