import NIOCore
import NIOPosix
import NIOSSL
import NIOTLS

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A byte-level TCP/TLS client for tests that must see exactly what a server put on the wire
/// (chunk framing, truncation, resets), independent of any HTTP client library.
package enum RawTestClient {
    /// TLS settings for the client side.
    package struct TLS: Sendable {
        /// CAs the client trusts.
        package var trustRoots: [TestCertificates.Identity]
        /// The certificate presented for mutual TLS, if any.
        package var clientIdentity: TestCertificates.Identity?
        /// ALPN protocols offered (none by default).
        package var applicationProtocols: [String]

        /// Client TLS trusting `trustRoots` (default: the test CA).
        package init(
            trustRoots: [TestCertificates.Identity] = [TestCertificates.ca],
            clientIdentity: TestCertificates.Identity? = nil,
            applicationProtocols: [String] = []
        ) {
            self.trustRoots = trustRoots
            self.clientIdentity = clientIdentity
            self.applicationProtocols = applicationProtocols
        }

        /// Builds the NIOSSL client context (full verification, hostname checked against 127.0.0.1).
        package func makeContext() throws -> NIOSSLContext {
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.trustRoots = .certificates(try trustRoots.map { try $0.certificate() })
            configuration.applicationProtocols = applicationProtocols
            if let clientIdentity {
                configuration.certificateChain = [.certificate(try clientIdentity.certificate())]
                configuration.privateKey = .privateKey(try clientIdentity.privateKey())
            }
            return try NIOSSLContext(configuration: configuration)
        }
    }

    /// How the read side of an exchange ended.
    package enum Ending: Sendable, Equatable {
        /// The server closed the connection cleanly (FIN; with TLS, after close_notify).
        case closed
        /// The server reset the connection (ECONNRESET).
        case reset
        /// The connection was still open when the read timeout elapsed.
        case timedOut
        /// `stopWhen` accepted what had arrived; the client then closed the connection itself.
        case stopped
        /// Some other error ended the connection (TLS alerts, unclean TLS shutdown, …).
        case failed(String)
    }

    /// Everything one connection received.
    package struct Exchange: Sendable {
        /// Every byte received (decrypted, with TLS).
        package var received: [UInt8]
        /// How the connection ended.
        package var ending: Ending
        /// The ALPN protocol the TLS handshake selected, if any.
        package var negotiatedProtocol: String?
        /// `received` as UTF-8 text.
        package var text: String { String(decoding: received, as: UTF8.self) }
    }

    /// Connects to 127.0.0.1:`port`, sends `request`, and reads until the server closes, resets,
    /// `stopWhen` accepts what arrived, or `readTimeout` elapses. Connect failures throw
    /// (`ChannelError.connectTimeout`, connection refused `IOError`, …).
    package static func exchange(
        port: Int,
        tls: TLS? = nil,
        sending request: [UInt8],
        connectTimeout: Duration = .seconds(60),
        readTimeout: Duration = .seconds(60),  // patient: tests that need a timeout pass their own
        stopWhen: (@Sendable ([UInt8]) -> Bool)? = nil
    ) async throws -> Exchange {
        let sslContext = try tls?.makeContext()
        let promise = MultiThreadedEventLoopGroup.singleton.next().makePromise(of: Exchange.self)
        let channel: Channel
        do {
            channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(TimeAmount(connectTimeout))
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let sync = channel.pipeline.syncOperations
                        if let sslContext { try sync.addHandler(NIOSSLClientHandler(context: sslContext, serverHostname: nil)) }
                        try sync.addHandler(ExchangeCollector(promise: promise, stopWhen: stopWhen))
                    }
                }
                .connect(host: "127.0.0.1", port: port)
                .get()
        } catch {
            promise.fail(error)
            throw error
        }
        let timeout = channel.eventLoop.scheduleTask(in: TimeAmount(readTimeout)) {
            channel.pipeline.fireUserInboundEventTriggered(ExchangeCollector.ReadTimedOut())
        }
        channel.writeAndFlush(ByteBuffer(bytes: request), promise: nil)
        defer { timeout.cancel() }
        return try await promise.futureResult.get()
    }

    /// `exchange(port:tls:sending:…)` with a UTF-8 request such as `"GET / HTTP/1.1\r\n…\r\n\r\n"`.
    package static func exchange(
        port: Int, tls: TLS? = nil, sending request: String,
        connectTimeout: Duration = .seconds(60), readTimeout: Duration = .seconds(60),
        stopWhen: (@Sendable ([UInt8]) -> Bool)? = nil
    ) async throws -> Exchange {
        try await exchange(
            port: port, tls: tls, sending: Array(request.utf8),
            connectTimeout: connectTimeout, readTimeout: readTimeout, stopWhen: stopWhen
        )
    }
}

/// Collects bytes and the way the connection ended, then completes the exchange.
final class ExchangeCollector: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    /// Fired by the read timer.
    struct ReadTimedOut {}

    private let promise: EventLoopPromise<RawTestClient.Exchange>
    private let stopWhen: (@Sendable ([UInt8]) -> Bool)?
    private var received: [UInt8] = []
    private var negotiatedProtocol: String?
    private var ending: RawTestClient.Ending?
    private var completed = false

    init(promise: EventLoopPromise<RawTestClient.Exchange>, stopWhen: (@Sendable ([UInt8]) -> Bool)?) {
        self.promise = promise
        self.stopWhen = stopWhen
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        received.append(contentsOf: unwrapInboundIn(data).readableBytesView)
        if let stopWhen, stopWhen(received) { finish(context, .stopped) }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .handshakeCompleted(let negotiated) = event as? TLSUserEvent {
            negotiatedProtocol = negotiated
        } else if event is ReadTimedOut {
            finish(context, .timedOut)
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        if let ioError = error as? IOError, ioError.errnoCode == ECONNRESET {
            finish(context, .reset)
        } else {
            finish(context, .failed(String(describing: error)))
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish(context, .closed)
        context.fireChannelInactive()
    }

    /// The first ending wins; later events (the close we trigger ourselves) change nothing.
    private func finish(_ context: ChannelHandlerContext, _ ending: RawTestClient.Ending) {
        guard !completed else { return }
        completed = true
        promise.succeed(RawTestClient.Exchange(received: received, ending: ending, negotiatedProtocol: negotiatedProtocol))
        context.close(promise: nil)
    }
}
