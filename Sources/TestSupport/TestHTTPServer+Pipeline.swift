import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOSSL
import NIOTLS

/// Builds the pipeline of every accepted connection.
struct TestServerPipeline: Sendable {
    let state: TestServerState
    let sslContext: NIOSSLContext?
    let jobs: AsyncStream<ResponseJob>.Continuation
    let handler: TestHTTPServer.Handler

    func configure(_ channel: Channel) -> EventLoopFuture<Void> {
        guard let connection = state.openConnection(channel) else { return channel.close() }
        channel.closeFuture.whenComplete { [state] _ in state.connectionClosed(connection.id) }
        // Runs for the connection itself (HTTP/1.1) or for each HTTP/2 stream channel.
        let addRequestHandler: NIOChannelInitializer = { [state, jobs, handler] target in
            target.eventLoop.makeCompletedFuture {
                let requestHandler = TestRequestHandler(
                    connection: connection, isHTTP2: target !== channel, state: state, jobs: jobs, handler: handler
                )
                try target.pipeline.syncOperations.addHandler(requestHandler)
            }
        }
        do {
            let sync = channel.pipeline.syncOperations
            try sync.addHandler(ConnectionHeadHandler(), position: .first)
            guard let sslContext else {
                try sync.configureHTTPServerPipeline()
                return addRequestHandler(channel)
            }
            try sync.addHandler(NIOSSLServerHandler(context: sslContext))
            try sync.addHandler(HandshakeObserver(state: state, connection: connection))
            return channel.configureCommonHTTPServerPipeline(addRequestHandler)
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
    }
}

/// Counts completed TLS handshakes and keeps the client certificate of mutual TLS.
final class HandshakeObserver: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private let state: TestServerState
    private let connection: TestConnection

    init(state: TestServerState, connection: TestConnection) {
        self.state = state
        self.connection = connection
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .handshakeCompleted = event as? TLSUserEvent {
            state.recordHandshake()
            let tls = try? context.pipeline.syncOperations.handler(type: NIOSSLServerHandler.self)
            connection.clientCertificate = tls?.peerCertificate
        }
        context.fireUserInboundEventTriggered(event)
    }
}

/// Collects one request (head, body, end), records it, and queues the response job.
final class TestRequestHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart

    private let connection: TestConnection
    private let isHTTP2: Bool
    private let state: TestServerState
    private let jobs: AsyncStream<ResponseJob>.Continuation
    private let handler: TestHTTPServer.Handler
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []

    init(
        connection: TestConnection, isHTTP2: Bool, state: TestServerState,
        jobs: AsyncStream<ResponseJob>.Continuation, handler: @escaping TestHTTPServer.Handler
    ) {
        self.connection = connection
        self.isHTTP2 = isHTTP2
        self.state = state
        self.jobs = jobs
        self.handler = handler
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body = []
        case .body(let buffer):
            body.append(contentsOf: buffer.readableBytesView)
        case .end:
            guard let head else { return }
            self.head = nil
            let request = TestRequest(
                method: head.method, uri: head.uri, headers: head.headers, body: body,
                version: isHTTP2 ? HTTPVersion(major: 2, minor: 0) : head.version,
                connectionID: connection.id, clientCertificate: connection.clientCertificate
            )
            body = []
            state.record(request)
            let writer = ResponseWriter(
                channel: context.channel, connection: connection, request: request,
                keepAlive: head.isKeepAlive, isHTTP2: isHTTP2
            )
            jobs.yield(ResponseJob(request: request, writer: writer, handler: handler))
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        // A broken peer (bad TLS, malformed HTTP, reset) just loses its connection.
        context.close(promise: nil)
    }
}

/// One request waiting for the test's handler and the response it chose.
struct ResponseJob: Sendable {
    let request: TestRequest
    let writer: ResponseWriter
    let handler: TestHTTPServer.Handler

    func run() async {
        let response = await handler(request)
        await writer.write(response)
    }
}
