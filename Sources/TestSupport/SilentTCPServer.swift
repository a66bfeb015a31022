import NIOCore
import NIOPosix
import Synchronization

/// A server on 127.0.0.1 that accepts TCP connections, reads whatever arrives and never writes —
/// or, started `replying:` bytes, writes exactly those once something arrived, then closes.
///
/// A TLS client connecting here sends its ClientHello and waits forever for the ServerHello:
/// the TLS handshake-timeout case. A plain HTTP client waits forever for a response head. With a
/// reply, it gets bytes no well-behaved server would send (`HTTP/1.1 000 OK`).
package final class SilentTCPServer: Sendable {
    /// The port the server listens on.
    package let port: Int
    private let serverChannel: Channel
    private let counters: SilentCounters

    private init(serverChannel: Channel, port: Int, counters: SilentCounters) {
        self.serverChannel = serverChannel
        self.port = port
        self.counters = counters
    }

    /// Starts listening on 127.0.0.1 at a free port; with `reply`, each connection gets these bytes.
    package static func start(replying reply: [UInt8]? = nil) async throws -> SilentTCPServer {
        let counters = SilentCounters()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                guard counters.accept(channel) else { return channel.close() }
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(DiscardingHandler(counters: counters, reply: reply))
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        guard let port = channel.localAddress?.port else {
            try? await channel.close()
            throw TestServerError.noLocalAddress
        }
        return SilentTCPServer(serverChannel: channel, port: port, counters: counters)
    }

    /// The number of TCP connections accepted so far.
    package var connectionCount: Int { counters.snapshot.connections }
    /// The number of bytes received so far over all connections (a TLS ClientHello is a few hundred).
    package var receivedByteCount: Int { counters.snapshot.bytes }

    /// Stops listening and closes every connection. Safe to call more than once.
    package func shutdown() async throws {
        try? await serverChannel.close()
        let open = counters.closeAll()
        for channel in open {
            try? await channel.close()
        }
    }
}

/// Thread-safe bookkeeping for `SilentTCPServer`.
final class SilentCounters: Sendable {
    private struct State {
        var connections = 0
        var bytes = 0
        var open: [ObjectIdentifier: Channel] = [:]
        var isClosed = false
    }

    private let state = Mutex(State())

    var snapshot: (connections: Int, bytes: Int) { state.withLock { ($0.connections, $0.bytes) } }

    func accept(_ channel: Channel) -> Bool {
        let accepted = state.withLock { state in
            guard !state.isClosed else { return false }
            state.connections += 1
            state.open[ObjectIdentifier(channel)] = channel
            return true
        }
        if accepted {
            channel.closeFuture.whenComplete { [self] _ in
                _ = state.withLock { $0.open.removeValue(forKey: ObjectIdentifier(channel)) }
            }
        }
        return accepted
    }

    func received(_ count: Int) {
        state.withLock { $0.bytes += count }
    }

    func closeAll() -> [Channel] {
        state.withLock { state in
            state.isClosed = true
            return Array(state.open.values)
        }
    }
}

/// Swallows every byte; with a reply, answers the first bytes with it and closes.
final class DiscardingHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer
    private let counters: SilentCounters
    private let reply: [UInt8]?

    init(counters: SilentCounters, reply: [UInt8]? = nil) {
        self.counters = counters
        self.reply = reply
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        counters.received(unwrapInboundIn(data).readableBytes)
        guard let reply else { return }
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: reply))).whenComplete { _ in channel.close(promise: nil) }
    }
}
