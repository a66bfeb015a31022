import GRPCCore
import GRPCWire
import NIOCore
import NIOHTTP2
import NIOPosix
import NIOSSL
import Synchronization

/// GRPCCore's server transport over HTTP/2 (swift-nio-http2, NIOSSL): h2c, or TLS when given a
/// context. Listens on `host` (127.0.0.1 unless told), port 0 picking a free one (`port()` tells it).
package final class GRPCServerTransport: ServerTransport, Sendable {
    package typealias Bytes = [UInt8]
    typealias StreamChannel = NIOAsyncChannel<HTTP2Frame.FramePayload, HTTP2Frame.FramePayload>
    typealias Connection = (channel: any Channel, multiplexer: NIOHTTP2Handler.AsyncStreamMultiplexer<StreamChannel>)

    package let host: String
    package let requestedPort: Int
    /// The largest request message taken.
    package let receiveLimit: Int
    private let tls: NIOSSLContext?
    private let group: any EventLoopGroup
    private let bound: EventLoopPromise<Int>

    private struct State {
        var listener: (any Channel)?
        var connections: [ObjectIdentifier: any Channel] = [:]
        var shutDown = false
    }

    private let state = Mutex(State())

    /// A server for `host:port`; TLS when `tls` is given (its ALPN is set to `h2`).
    package init(
        host: String = "127.0.0.1", port: Int = 0, tls: TLSConfiguration? = nil, receiveLimit: Int = GRPCMessageFraming.defaultReceiveLimit,
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) throws {
        self.host = host
        requestedPort = port
        self.receiveLimit = receiveLimit
        self.group = group
        bound = group.next().makePromise()
        if var tls {
            tls.applicationProtocols = ["h2"]
            self.tls = try NIOSSLContext(configuration: tls)
        } else {
            self.tls = nil
        }
    }

    /// The port it listens on, once `listen` has bound it (or the bind's failure).
    package func port() async throws -> Int {
        try await bound.futureResult.get()
    }

    package func listen(
        streamHandler: @escaping @Sendable (_ stream: RPCStream<Inbound, Outbound>, _ context: ServerContext) async -> Void
    ) async throws {
        let tls = self.tls
        let listener: NIOAsyncChannel<Connection, Never>
        do {
            listener = try await ServerBootstrap(group: group)
                .serverChannelOption(ChannelOptions.backlog, value: 256)
                .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
                .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
                .bind(host: host, port: requestedPort) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let sync = channel.pipeline.syncOperations
                        if let tls { try sync.addHandler(NIOSSLServerHandler(context: tls)) }
                        let multiplexer = try sync.configureAsyncHTTP2Pipeline(mode: .server, configuration: GRPCClientConnection.http2Configuration) {
                            stream in
                            stream.eventLoop.makeCompletedFuture { try StreamChannel(wrappingChannelSynchronously: stream) }
                        }
                        return (channel, multiplexer)
                    }
                }
        } catch {
            bound.fail(error)
            throw error
        }
        let shutDownAlready = state.withLock { state -> Bool in
            state.listener = listener.channel
            return state.shutDown
        }
        bound.succeed(listener.channel.localAddress?.port ?? requestedPort)
        if shutDownAlready { listener.channel.close(promise: nil) }
        let serving = GRPCServerStreams(receiveLimit: receiveLimit, handler: streamHandler)
        try await withThrowingDiscardingTaskGroup { group in
            try await listener.executeThenClose { connections in
                for try await connection in connections {
                    let id = ObjectIdentifier(connection.channel)
                    let refused = state.withLock { state -> Bool in
                        if state.shutDown { return true }
                        state.connections[id] = connection.channel
                        return false
                    }
                    if refused {
                        connection.channel.close(promise: nil)
                        continue
                    }
                    group.addTask {
                        await serving.serve(connection)
                        _ = self.state.withLock { $0.connections.removeValue(forKey: id) }
                    }
                }
            }
        }
    }

    /// Stops listening and closes every connection (calls in flight end).
    package func beginGracefulShutdown() {
        let (listener, connections) = state.withLock { state in
            state.shutDown = true
            return (state.listener, Array(state.connections.values))
        }
        listener?.close(promise: nil)
        connections.forEach { $0.close(promise: nil) }
    }
}
