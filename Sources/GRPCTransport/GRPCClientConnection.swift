import DispatcherCore
import FoundationEssentials
import GRPCCore
import GRPCWire
import LiveTransport
import NIOCore
import NIOHTTP2
import NIOPosix
import NIOSSL

/// One HTTP/2 connection to a gRPC server: opened (TLS checked, pins matched) before any call's
/// headers are written; each call a stream of it.
final class GRPCClientConnection: Sendable {
    typealias StreamChannel = NIOAsyncChannel<HTTP2Frame.FramePayload, HTTP2Frame.FramePayload>

    let target: GRPCTarget
    let settings: GRPCConnectionSettings
    let channel: any Channel
    let multiplexer: NIOHTTP2Handler.AsyncStreamMultiplexer<Void>
    let watch: GRPCConnectionWatch

    private init(
        target: GRPCTarget, settings: GRPCConnectionSettings, channel: any Channel, multiplexer: NIOHTTP2Handler.AsyncStreamMultiplexer<Void>,
        watch: GRPCConnectionWatch
    ) {
        self.target = target
        self.settings = settings
        self.channel = channel
        self.multiplexer = multiplexer
        self.watch = watch
    }

    /// Whether new calls can still go on it.
    var isUsable: Bool { channel.isActive && !watch.isClosed }

    func close() {
        channel.close(promise: nil)
    }

    /// The connection, once TCP is up, TLS (when asked) is done with `h2` agreed, and the pins match.
    /// Failures are GRPCCore's `RPCError(.unavailable)` with the HTTP transport's failure as cause.
    static func open(target: GRPCTarget, settings: GRPCConnectionSettings, tls: NIOSSLContext?, group: any EventLoopGroup) async throws
        -> GRPCClientConnection
    {
        let timeouts = Timeouts(connect: settings.connectTimeout, read: nil, total: nil)
        let url = URL(string: "\(tls == nil ? "http" : "https")://\(target.authority)") ?? URL(filePath: "/")
        let pins = target.trust.pins
        do {
            if tls == nil, !pins.isEmpty {
                throw PinMismatch(presented: [], expected: pins, encrypted: false)
            }
            var bootstrap = ClientBootstrap(group: group).channelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            if let connect = settings.connectTimeout { bootstrap = bootstrap.connectTimeout(TimeAmount(connect)) }
            let serverName = Self.isIPAddress(target.host) ? nil : target.host
            let (channel, multiplexer, watch) = try await bootstrap.connect(host: target.host, port: target.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let watch = GRPCConnectionWatch(authority: target.authority, handshake: channel.eventLoop.makePromise())
                    // A channel that never became active (its connect failed) still ends the wait.
                    channel.closeFuture.whenComplete { _ in watch.handshake.fail(ChannelError.ioOnClosedChannel) }
                    let sync = channel.pipeline.syncOperations
                    if let tls { try sync.addHandler(try NIOSSLClientHandler(context: tls, serverHostname: serverName)) }
                    try sync.addHandler(GRPCConnectionPreface(watch: watch, secure: tls != nil))
                    let multiplexer = try sync.configureAsyncHTTP2Pipeline(mode: .client, configuration: Self.http2Configuration) { stream in
                        // Servers do not open streams to a gRPC client; one that does gets them closed.
                        stream.close()
                    }
                    try sync.addHandler(GRPCConnectionTail(watch: watch))
                    return (channel, multiplexer, watch)
                }
            }
            do {
                let negotiated: String?
                if let connect = settings.connectTimeout {
                    let deadline = channel.eventLoop.scheduleTask(in: TimeAmount(connect)) { watch.handshake.fail(ChannelError.connectTimeout(TimeAmount(connect))) }
                    defer { deadline.cancel() }
                    negotiated = try await watch.handshake.futureResult.get()
                } else {
                    negotiated = try await watch.handshake.futureResult.get()
                }
                if let negotiated, negotiated != "h2" {
                    throw TransportError(
                        .badServerResponse,
                        message: "\(target.authority) agreed on '\(negotiated)' over TLS, not HTTP/2 ('h2'): it is not a gRPC server.")
                }
                if tls != nil, !pins.isEmpty {
                    try await channel.eventLoop.submit { try PinVerifier(pins: pins).check(channel) }.get()
                }
            } catch {
                channel.close(promise: nil)
                throw error
            }
            return GRPCClientConnection(target: target, settings: settings, channel: channel, multiplexer: multiplexer, watch: watch)
        } catch let error as RPCError {
            throw error
        } catch {
            let failure = TransportError.mapping(error, context: FailureContext(url: url, timeouts: timeouts))
            throw RPCError(code: .unavailable, message: failure.message, cause: GRPCTransportFailure(failure))
        }
    }

    /// The HTTP/2 settings a client announces: gRPC's messages can be large, so a generous window.
    static var http2Configuration: NIOHTTP2Handler.Configuration {
        var configuration = NIOHTTP2Handler.Configuration()
        configuration.connection.initialSettings = [
            HTTP2Setting(parameter: .enablePush, value: 0),
            HTTP2Setting(parameter: .maxConcurrentStreams, value: 100),
            HTTP2Setting(parameter: .initialWindowSize, value: 1 << 20),
            // Room for a status with details (a DebugInfo stack), four times NIO's 16 KiB.
            HTTP2Setting(parameter: .maxHeaderListSize, value: 1 << 16),
        ]
        configuration.stream.targetWindowSize = 1 << 20
        return configuration
    }

    /// A call on a new stream of this connection.
    func withStream<T: Sendable>(
        descriptor: MethodDescriptor, receiveLimit: Int, encoding: GRPCMessageEncoding,
        _ closure: (_ stream: RPCStream<GRPCClientTransport.Inbound, GRPCClientTransport.Outbound>, _ context: ClientContext) async throws -> T
    ) async throws -> T {
        let streamChannel: StreamChannel
        do {
            streamChannel = try await multiplexer.openStream { channel in
                channel.eventLoop.makeCompletedFuture { try StreamChannel(wrappingChannelSynchronously: channel) }
            }
        } catch {
            // Garbage that broke the connection before the stream opened is the server's fault, as it is after.
            let failure = watch.failure(messagesReceived: nil, timeouts: Timeouts(connect: settings.connectTimeout))
            throw RPCError(code: failure.grpcCode, message: failure.message, cause: GRPCTransportFailure(failure))
        }
        let head = GRPCRequestHead(
            path: "/\(descriptor.service.fullyQualifiedService)/\(descriptor.method)", authority: target.authority, secure: target.secure,
            encoding: encoding, userAgent: settings.userAgent)
        let context = ClientContext(descriptor: descriptor, remotePeer: "ipv4:\(target.authority)", localPeer: "")
        return try await streamChannel.executeThenClose { inbound, outbound in
            let writer = GRPCRequestWriter(outbound: outbound, head: head, allocator: streamChannel.channel.allocator)
            let responses = GRPCResponseParts(inbound: inbound, connection: self, receiveLimit: receiveLimit)
            let stream = RPCStream(
                descriptor: descriptor, inbound: RPCAsyncSequence<RPCResponsePart<[UInt8]>, any Error>(wrapping: responses),
                outbound: RPCWriter<RPCRequestPart<[UInt8]>>.Closable(wrapping: writer))
            return try await closure(stream, context)
        }
    }

    static func isIPAddress(_ host: String) -> Bool {
        (try? SocketAddress(ipAddress: host, port: 0)) != nil
    }
}
