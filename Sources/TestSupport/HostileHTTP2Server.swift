import NIOCore
import NIOHPACK
import NIOHTTP2
import NIOPosix
import NIOSSL
import Synchronization

/// An HTTP/2 server on 127.0.0.1 that answers every stream with a script: the frames (or raw
/// bytes) a gRPC server would never send, for the client's bad-input tests. The script starts
/// once the request's HEADERS arrived.
package final class HostileHTTP2Server: Sendable {
    /// One thing the server does.
    package enum Step: Sendable {
        /// A HEADERS frame with these fields, in order (pseudo-headers first).
        case headers([(String, String)], endStream: Bool = false)
        /// A DATA frame with these bytes as they are.
        case data([UInt8], endStream: Bool = false)
        /// A gRPC message: flag 0, its length, its bytes, in one DATA frame.
        case message([UInt8])
        /// RST_STREAM with this code.
        case reset(HTTP2ErrorCode)
        /// Bytes written straight onto the connection, outside HTTP/2's framing.
        case raw([UInt8])
        /// The connection closed.
        case close
        /// A pause.
        case wait(Duration)
        /// Nothing more: the stream stays open until the client gives up.
        case hang

        /// `:status 200` and `content-type: application/grpc`, plus `extra`.
        package static func grpcHeaders(_ extra: [(String, String)] = []) -> Step {
            .headers([(":status", "200"), ("content-type", "application/grpc")] + extra)
        }

        /// Trailers with `grpc-status` (and a message).
        package static func status(_ code: Int, message: String? = nil) -> Step {
            .headers([("grpc-status", String(code))] + (message.map { [("grpc-message", $0)] } ?? []), endStream: true)
        }
    }

    typealias StreamChannel = NIOAsyncChannel<HTTP2Frame.FramePayload, HTTP2Frame.FramePayload>

    /// The port it listens on.
    package let port: Int
    private let listener: any Channel
    private let connections: OpenChannels
    private let serving: Task<Void, Never>

    private init(port: Int, listener: any Channel, connections: OpenChannels, serving: Task<Void, Never>) {
        self.port = port
        self.listener = listener
        self.connections = connections
        self.serving = serving
    }

    /// Starts listening at a free port; TLS (offering `h2`) when `tls` is given.
    package static func start(tls: TestServerTLS? = nil, script: [Step]) async throws -> HostileHTTP2Server {
        let context = try tls.map { try $0.makeContext() }
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let sync = channel.pipeline.syncOperations
                    if let context { try sync.addHandler(NIOSSLServerHandler(context: context)) }
                    let injector = RawInjector()
                    try sync.addHandler(injector)
                    let multiplexer = try sync.configureAsyncHTTP2Pipeline(mode: .server) { stream in
                        stream.eventLoop.makeCompletedFuture { try StreamChannel(wrappingChannelSynchronously: stream) }
                    }
                    return (channel, injector, multiplexer)
                }
            }
        guard let port = listener.channel.localAddress?.port else { throw TestServerError.noLocalAddress }
        let connections = OpenChannels()
        let serving = Task<Void, Never> {
            await withDiscardingTaskGroup { group in
                do {
                    try await listener.executeThenClose { inbound in
                        for try await (channel, injector, multiplexer) in inbound {
                            connections.add(channel)
                            group.addTask { await serve(multiplexer, script: script, connection: channel, injector: injector) }
                        }
                    }
                } catch {
                    // The listener closed: stop() was called.
                }
            }
        }
        return HostileHTTP2Server(port: port, listener: listener.channel, connections: connections, serving: serving)
    }

    private static func serve(
        _ multiplexer: NIOHTTP2Handler.AsyncStreamMultiplexer<StreamChannel>, script: [Step], connection: any Channel, injector: RawInjector
    ) async {
        await withDiscardingTaskGroup { streams in
            do {
                for try await stream in multiplexer.inbound {
                    streams.addTask { await run(script, on: stream, connection: connection, injector: injector) }
                }
            } catch {
                // The connection closed.
            }
        }
    }

    private static func run(_ script: [Step], on stream: StreamChannel, connection: any Channel, injector: RawInjector) async {
        try? await stream.executeThenClose { inbound, outbound in
            // The request's HEADERS first; the rest of the request is read and dropped meanwhile.
            var frames = inbound.makeAsyncIterator()
            guard case .headers? = try await frames.next() else { return }
            for step in script {
                switch step {
                case .headers(let fields, let endStream):
                    try await outbound.write(.headers(.init(headers: HPACKHeaders(fields), endStream: endStream)))
                case .data(let bytes, let endStream):
                    try await outbound.write(.data(.init(data: .byteBuffer(ByteBuffer(bytes: bytes)), endStream: endStream)))
                case .message(let bytes):
                    var buffer = ByteBuffer()
                    buffer.writeInteger(UInt8(0))
                    buffer.writeInteger(UInt32(bytes.count))
                    buffer.writeBytes(bytes)
                    try await outbound.write(.data(.init(data: .byteBuffer(buffer))))
                case .reset(let code):
                    try await outbound.write(.rstStream(code))
                case .raw(let bytes):
                    try await injector.write(bytes, on: connection)
                case .close:
                    try await connection.close()
                case .wait(let duration):
                    try await Task.sleep(for: duration)
                case .hang:
                    while try await frames.next() != nil {}
                }
            }
        }
    }

    /// Stops listening and closes every connection.
    package func stop() async {
        try? await listener.close()
        for channel in connections.all { try? await channel.close() }
        await serving.value
    }
}

/// Sits between TLS and HTTP/2 and writes bytes there, so they reach the client outside HTTP/2's framing.
private final class RawInjector: ChannelOutboundHandler, RemovableChannelHandler, Sendable {
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    func write(_ bytes: [UInt8], on channel: any Channel) async throws {
        try await channel.eventLoop.flatSubmit { () -> EventLoopFuture<Void> in
            guard let context = try? channel.pipeline.syncOperations.context(handler: self) else {
                return channel.eventLoop.makeFailedFuture(ChannelError.ioOnClosedChannel)
            }
            return context.writeAndFlush(NIOAny(ByteBuffer(bytes: bytes)))
        }.get()
    }
}

/// The connections a server has open.
private final class OpenChannels: Sendable {
    private let channels = Mutex<[ObjectIdentifier: any Channel]>([:])

    var all: [any Channel] { channels.withLock { Array($0.values) } }

    func add(_ channel: any Channel) {
        channels.withLock { $0[ObjectIdentifier(channel)] = channel }
    }
}
