import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket
import Synchronization

/// A WebSocket server on 127.0.0.1 (a free port) for tests: each accepted conversation runs the
/// test's handler with raw frame access, so fragments, control frames and close codes can be sent
/// exactly as a test needs. An upgrade to a path `refuse` answers is refused with that response.
package final class TestWebSocketServer: Sendable {
    /// What the handler sees of one connection.
    package final class Peer: @unchecked Sendable {
        // Used by the handler's task only.
        private var inbound: NIOAsyncChannelInboundStream<WebSocketFrame>.AsyncIterator
        private let outbound: NIOAsyncChannelOutboundWriter<WebSocketFrame>
        /// The upgrade request's head.
        package let request: HTTPRequestHead

        init(inbound: NIOAsyncChannelInboundStream<WebSocketFrame>.AsyncIterator, outbound: NIOAsyncChannelOutboundWriter<WebSocketFrame>, request: HTTPRequestHead) {
            self.inbound = inbound
            self.outbound = outbound
            self.request = request
        }

        /// The client's next frame (unmasked), nil when it is gone.
        package func receive() async -> (opcode: WebSocketOpcode, data: [UInt8], fin: Bool)? {
            guard let frame = try? await inbound.next() else { return nil }
            return (frame.opcode, Array(frame.unmaskedData.readableBytesView), frame.fin)
        }

        /// Sends one frame as given (a fragment when `fin` is false).
        package func send(_ opcode: WebSocketOpcode, _ bytes: [UInt8], fin: Bool = true) async {
            try? await outbound.write(WebSocketFrame(fin: fin, opcode: opcode, data: ByteBuffer(bytes: bytes)))
        }

        /// Sends a text frame.
        package func send(text: String) async { await send(.text, Array(text.utf8)) }

        /// Sends a close frame with `code` and `reason`.
        package func close(code: Int, reason: String = "") async {
            var bytes = [UInt8(code >> 8), UInt8(code & 0xFF)]
            bytes += Array(reason.utf8)
            await send(.connectionClose, bytes)
        }
    }

    private let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    private let channel: Mutex<(any Channel)?> = Mutex(nil)
    /// The port it listens on.
    package let port: Int

    /// Starts a server; `handler` runs once per conversation; `refuse` answers an upgrade request
    /// with a status and body instead (nil accepts it); `subprotocol` is chosen when offered.
    package init(
        tls: TestServerTLS? = nil, subprotocol: String? = nil,
        refuse: @escaping @Sendable (HTTPRequestHead) -> (status: Int, body: String)? = { _ in nil },
        handler: @escaping @Sendable (Peer) async -> Void
    ) async throws {
        let context = try tls.map { try $0.http1Only().makeContext() }
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let context { try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context)) }
                    let upgrader = NIOWebSocketServerUpgrader(
                        maxFrameSize: 1 << 24, automaticErrorHandling: true,
                        shouldUpgrade: { channel, head in
                            guard refuse(head) == nil else { return channel.eventLoop.makeSucceededFuture(nil) }
                            var headers = HTTPHeaders()
                            if let subprotocol, head.headers[canonicalForm: "Sec-WebSocket-Protocol"].contains(where: { $0 == subprotocol }) {
                                headers.add(name: "Sec-WebSocket-Protocol", value: subprotocol)
                            }
                            return channel.eventLoop.makeSucceededFuture(headers)
                        },
                        upgradePipelineHandler: { channel, head in
                            channel.eventLoop.makeCompletedFuture {
                                let socket = try NIOAsyncChannel<WebSocketFrame, WebSocketFrame>(wrappingChannelSynchronously: channel)
                                Task(executorPreference: DedicatedExecutor.servers) {
                                    try? await socket.executeThenClose { inbound, outbound in
                                        await handler(Peer(inbound: inbound.makeAsyncIterator(), outbound: outbound, request: head))
                                    }
                                }
                            }
                        })
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(
                        withServerUpgrade: (upgraders: [upgrader], completionHandler: { context in
                            context.pipeline.syncOperations.removeHandler(name: "refusal", promise: nil)
                        }))
                    try channel.pipeline.syncOperations.addHandler(RefusalHandler(refuse: refuse), name: "refusal")
                }
            }
        let channel = try await bootstrap.bind(host: "127.0.0.1", port: 0).get()
        self.channel.withLock { $0 = channel }
        port = channel.localAddress?.port ?? 0
    }

    /// `ws://127.0.0.1:PORT` (or `https://…` with TLS, as an environment's base URL would say).
    package func baseURL(scheme: String = "http") -> String { "\(scheme)://127.0.0.1:\(port)" }

    /// Stops listening and closes every connection.
    package func stop() async {
        let channel = self.channel.withLock { $0 }
        try? await channel?.close()
        try? await group.shutdownGracefully()
    }
}

/// Answers the requests the server does not upgrade.
private final class RefusalHandler: ChannelInboundHandler, RemovableChannelHandler, @unchecked Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart
    let refuse: @Sendable (HTTPRequestHead) -> (status: Int, body: String)?
    private var head: HTTPRequestHead?

    init(refuse: @escaping @Sendable (HTTPRequestHead) -> (status: Int, body: String)?) {
        self.refuse = refuse
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): self.head = head
        case .body: break
        case .end:
            guard let head else { return }
            let answer = refuse(head) ?? (status: 400, body: "not a WebSocket upgrade")
            var headers = HTTPHeaders()
            headers.add(name: "Content-Length", value: String(answer.body.utf8.count))
            headers.add(name: "Content-Type", value: "text/plain")
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .init(statusCode: answer.status), headers: headers))), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: answer.body)))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }
}
