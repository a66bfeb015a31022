import DispatcherCore
import FoundationEssentials
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOTLS
import NIOWebSocket
import Synchronization

/// Carries a WebSocket conversation over the network with SwiftNIO's WebSocket codec and upgrader
/// (RFC 6455): TLS with the environment's trust, its pins checked before the upgrade request (and
/// its headers: Authorization, cookies) is written; fragmented messages reassembled; pings answered;
/// the closing handshake completed. A server that does not upgrade gives its response back as it
/// came, so a 401 is mapped and refreshed like any other.
struct WebSocketConnector: Sendable {
    /// How long the server has to answer a close before the connection is dropped.
    static let closeTimeout: Duration = .seconds(3)
    /// The largest message taken (NIO's frame length field is 32-bit here).
    static let messageLimit = 64 << 20

    let group: any EventLoopGroup

    /// Opens the conversation, carries it until it closes, and answers the handshake's response with
    /// the transcript as its body; a refused upgrade answers the server's response.
    func converse(_ request: Request, _ conversation: WebSocketConversation) async throws(TransportError) -> Response {
        let context = FailureContext(url: request.url, timeouts: request.settings.timeouts, proxy: nil)
        do {
            return try await run(request, conversation)
        } catch {
            conversation.finish()
            throw TransportError.mapping(error, context: context)
        }
    }

    private enum Upgrade: Sendable {
        case upgraded(NIOAsyncChannel<WebSocketFrame, WebSocketFrame>, HTTPResponseHead)
        case refused(EventLoopFuture<RefusedResponse>)
    }

    private func run(_ request: Request, _ conversation: WebSocketConversation) async throws -> Response {
        let url = request.url
        let secure = url.scheme == "https" || url.scheme == "wss"
        guard let host = url.host(percentEncoded: false), !host.isEmpty else {
            throw TransportError(.badServerResponse, message: "\(url) has no host to open a WebSocket to.")
        }
        let port = url.port ?? (secure ? 443 : 80)
        let trust = request.settings.trust
        let pins = trust.pins.isEmpty ? nil : PinVerifier(pins: trust.pins)
        if pins != nil, !secure { throw PinMismatch(presented: [], expected: trust.pins, encrypted: false) }
        let tls = secure ? try NIOSSLContext(configuration: try trust.tlsConfiguration()) : nil
        let head = Self.upgradeHead(request, conversation: conversation, host: host, port: port, secure: secure)
        let limit = min(request.settings.maximumBodySize, Self.messageLimit)
        let sent = ContinuousClock.now

        var bootstrap = ClientBootstrap(group: group)
        if let connect = request.settings.timeouts.connect {
            bootstrap = bootstrap.connectTimeout(TimeAmount(connect))
        }
        let pending: EventLoopFuture<Upgrade> = try await bootstrap.connect(host: host, port: port) { channel in
            channel.eventLoop.makeCompletedFuture {
                var ready = channel.eventLoop.makeSucceededVoidFuture()
                if let tls {
                    let handshake = TLSHandshakeWatcher(promise: channel.eventLoop.makePromise())
                    let serverName = Self.isIPAddress(host) ? nil : host
                    try channel.pipeline.syncOperations.addHandler(try NIOSSLClientHandler(context: tls, serverHostname: serverName))
                    try channel.pipeline.syncOperations.addHandler(handshake)
                    ready = handshake.promise.futureResult
                }
                // Nothing is written until the server's key matched a pin.
                return ready.flatMapThrowing {
                    try pins?.check(channel)
                    return try Self.configureUpgrade(channel, head: head, limit: limit)
                }.flatMap { $0 }
            }
        }
        switch try await pending.get() {
        case .refused(let response):
            let refused = try await response.get()
            let elapsed = sent.duration(to: .now)
            conversation.finish()
            return Response(
                status: Int(refused.head.status.code), headers: Headers(refused.head.headers.map { ($0.name, $0.value) }, origin: .server),
                body: Data(refused.body.readableBytesView), url: url, httpVersion: "HTTP/\(refused.head.version.major).\(refused.head.version.minor)",
                timing: Timing(firstByte: elapsed, total: elapsed))
        case .upgraded(let channel, let responseHead):
            let headers = Headers(responseHead.headers.map { ($0.name, $0.value) }, origin: .server)
            let opened = sent.duration(to: .now)
            conversation.recordOpened(headers: headers, subprotocol: responseHead.headers.first(name: "Sec-WebSocket-Protocol"))
            try await carry(conversation, over: channel)
            return Response(
                status: 101, headers: headers, body: conversation.transcriptBody(), url: url, httpVersion: "HTTP/1.1",
                timing: Timing(firstByte: opened, total: sent.duration(to: .now)))
        }
    }

    /// The HTTP/1.1 upgrade pipeline (RFC 6455 §4.1): the request head goes out as soon as it is added.
    private static func configureUpgrade(_ channel: Channel, head: HTTPRequestHead, limit: Int) throws -> EventLoopFuture<Upgrade> {
        let upgrader = NIOTypedWebSocketClientUpgrader<Upgrade>(maxFrameSize: limit, enableAutomaticErrorHandling: true) { channel, response in
            channel.eventLoop.makeCompletedFuture {
                // Fragments become one message; control frames (ping, pong, close) pass through.
                try channel.pipeline.syncOperations.addHandler(
                    NIOWebSocketFrameAggregator(minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 1 << 16, maxAccumulatedFrameSize: limit))
                let async = try NIOAsyncChannel<WebSocketFrame, WebSocketFrame>(wrappingChannelSynchronously: channel)
                return .upgraded(async, response)
            }
        }
        let configuration = NIOTypedHTTPClientUpgradeConfiguration<Upgrade>(
            upgradeRequestHead: head, upgraders: [upgrader],
            notUpgradingCompletionHandler: { channel in
                channel.eventLoop.makeCompletedFuture {
                    let collector = RefusedResponseCollector(promise: channel.eventLoop.makePromise())
                    try channel.pipeline.syncOperations.addHandler(collector)
                    return .refused(collector.promise.futureResult)
                }
            })
        var pipeline = NIOUpgradableHTTPClientPipelineConfiguration(upgradeConfiguration: configuration)
        pipeline.leftOverBytesStrategy = .forwardBytes
        return try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(configuration: pipeline)
    }

    /// The request's method, path and headers as the upgrade request; the upgrader adds the key and version.
    static func upgradeHead(_ request: Request, conversation: WebSocketConversation, host: String, port: Int, secure: Bool) -> HTTPRequestHead {
        let url = request.url
        var target = url.path(percentEncoded: true)
        if target.isEmpty { target = "/" }
        if let query = url.query(percentEncoded: true) { target += "?" + query }
        var headers = HTTPHeaders()
        let defaultPort = secure ? 443 : 80
        let hostName = host.contains(":") ? "[\(host)]" : host
        headers.add(name: "Host", value: port == defaultPort ? hostName : "\(hostName):\(port)")
        for field in request.headers.fields {
            let name = field.name.lowercased()
            // The upgrader owns these; a body's headers mean nothing on a GET upgrade.
            guard !["host", "connection", "upgrade", "sec-websocket-key", "sec-websocket-version", "content-length", "transfer-encoding"].contains(name)
            else { continue }
            headers.add(name: field.name, value: field.value)
        }
        if !conversation.subprotocols.isEmpty, !headers.contains(name: "Sec-WebSocket-Protocol") {
            headers.add(name: "Sec-WebSocket-Protocol", value: conversation.subprotocols.joined(separator: ", "))
        }
        return HTTPRequestHead(version: .http1_1, method: .GET, uri: target, headers: headers)
    }

    /// Moves frames both ways until the conversation closes: the server's close is answered, ours
    /// waits `closeTimeout` for the answer, pings go out every `pingInterval` when asked.
    private func carry(_ conversation: WebSocketConversation, over channel: NIOAsyncChannel<WebSocketFrame, WebSocketFrame>) async throws {
        try await channel.executeThenClose { inbound, outbound in
            let allocator = channel.channel.allocator
            let raw = channel.channel
            let closing = ClosingState()
            try await withThrowingTaskGroup(of: Void.self) { group in
                // The reader ends the conversation: at the server's close, or when the connection drops.
                group.addTask {
                    do {
                        for try await frame in inbound {
                            switch frame.opcode {
                            case .text:
                                conversation.record(.received, .message(.text(String(decoding: frame.unmaskedData.readableBytesView, as: UTF8.self))))
                            case .binary:
                                conversation.record(.received, .message(.binary(Data(frame.unmaskedData.readableBytesView))))
                            case .ping:
                                let payload = Data(frame.unmaskedData.readableBytesView)
                                conversation.record(.received, .ping(payload))
                                conversation.record(.sent, .pong(payload))
                                try await outbound.write(Self.frame(.pong, payload: ByteBuffer(bytes: payload), allocator: allocator))
                            case .pong:
                                conversation.record(.received, .pong(Data(frame.unmaskedData.readableBytesView)))
                            case .connectionClose:
                                var data = frame.unmaskedData
                                let code = data.readWebSocketErrorCode().map { WebSocketCloseCode(Int(UInt16(webSocketErrorCode: $0))) } ?? .noStatus
                                let reason = data.readString(length: data.readableBytes) ?? ""
                                conversation.record(.received, .close(WebSocketClose(code: code, reason: reason)))
                                if closing.beginClosing() {
                                    // Our answer echoes the code (RFC 6455 §5.5.1); none for a close without one.
                                    let answer = WebSocketClose(code: code.isSendable ? code : .normal)
                                    conversation.record(.sent, .close(answer))
                                    try? await outbound.write(Self.closeFrame(answer, allocator: allocator))
                                }
                                conversation.finish()
                                return
                            default:
                                continue
                            }
                        }
                        conversation.finish(droppedWithout: "the server ended the connection without a close frame")
                    } catch {
                        conversation.finish(droppedWithout: Self.describe(error))
                    }
                }
                // The writer sends what the caller queues, in order.
                group.addTask {
                    // Each frame is recorded as it is handed to the connection, before an answer to it
                    // can be read: the transcript's order is the wire's, and who closed first is known.
                    while let outgoing = await conversation.nextOutgoing() {
                        switch outgoing {
                        case .message(.text(let text)):
                            conversation.record(.sent, .message(.text(text)))
                            try await outbound.write(Self.frame(.text, payload: ByteBuffer(string: text), allocator: allocator))
                        case .message(.binary(let data)):
                            conversation.record(.sent, .message(.binary(data)))
                            try await outbound.write(Self.frame(.binary, payload: ByteBuffer(bytes: data), allocator: allocator))
                        case .ping(let payload):
                            conversation.record(.sent, .ping(payload))
                            try await outbound.write(Self.frame(.ping, payload: ByteBuffer(bytes: payload), allocator: allocator))
                        case .close(let close):
                            guard closing.beginClosing() else { continue }
                            conversation.record(.sent, .close(close))
                            try await outbound.write(Self.closeFrame(close, allocator: allocator))
                            // The server has a moment to answer; then the connection goes.
                            try? await Task.sleep(for: Self.closeTimeout)
                            raw.close(promise: nil)
                            return
                        }
                    }
                }
                if let interval = conversation.pingInterval {
                    group.addTask {
                        while !Task.isCancelled {
                            try await Task.sleep(for: interval)
                            conversation.ping()
                        }
                    }
                }
                // The reader's end is the conversation's end.
                _ = try await group.next()
                if !conversation.isFinished { _ = try await group.next() }
                group.cancelAll()
            }
        }
    }

    private static func frame(_ opcode: WebSocketOpcode, payload: ByteBuffer, allocator: ByteBufferAllocator) -> WebSocketFrame {
        // RFC 6455 §5.3: every frame a client sends is masked.
        WebSocketFrame(fin: true, opcode: opcode, maskKey: .random(), data: payload)
    }

    private static func closeFrame(_ close: WebSocketClose, allocator: ByteBufferAllocator) -> WebSocketFrame {
        var payload = allocator.buffer(capacity: 2 + close.reason.utf8.count)
        payload.write(webSocketErrorCode: WebSocketErrorCode(codeNumber: close.code.rawValue))
        payload.writeString(close.reason)
        return frame(.connectionClose, payload: payload, allocator: allocator)
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case NIOWebSocketError.invalidFrameLength: "a message was larger than the limit"
        case is NIOWebSocketError: "the server broke the WebSocket protocol (\(error))"
        case is CancellationError: "cancelled"
        default: "the connection failed (\(error))"
        }
    }

    static func isIPAddress(_ host: String) -> Bool {
        (try? SocketAddress(ipAddress: host, port: 0)) != nil
    }
}

/// Makes sure only one side starts the closing handshake.
private final class ClosingState: Sendable {
    private let started = Mutex(false)

    /// True the first time: the caller sends the close frame.
    func beginClosing() -> Bool {
        started.withLock { started in
            defer { started = true }
            return !started
        }
    }
}

/// Completes when the TLS handshake has (or fails when it could not).
private final class TLSHandshakeWatcher: ChannelInboundHandler, RemovableChannelHandler, Sendable {
    typealias InboundIn = NIOAny
    let promise: EventLoopPromise<Void>

    init(promise: EventLoopPromise<Void>) {
        self.promise = promise
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case TLSUserEvent.handshakeCompleted = event {
            promise.succeed()
            context.pipeline.syncOperations.removeHandler(self, promise: nil)
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        promise.fail(error)
        context.fireErrorCaught(error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        promise.fail(ChannelError.eof)
        context.fireChannelInactive()
    }
}

/// A server's answer that was not an upgrade: its head and (the first MiB of) its body.
struct RefusedResponse: Sendable {
    var head: HTTPResponseHead
    var body: ByteBuffer
}

/// Collects the answer to an upgrade the server refused.
private final class RefusedResponseCollector: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPClientResponsePart
    static let bodyLimit = 1 << 20
    let promise: EventLoopPromise<RefusedResponse>
    // Touched on the channel's event loop only.
    private var head: HTTPResponseHead?
    private var body = ByteBuffer()

    init(promise: EventLoopPromise<RefusedResponse>) {
        self.promise = promise
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): self.head = head
        case .body(var part):
            if body.readableBytes < Self.bodyLimit { body.writeBuffer(&part) }
        case .end:
            finish(context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish(context)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        promise.fail(error)
        context.close(promise: nil)
    }

    private func finish(_ context: ChannelHandlerContext) {
        guard let head else {
            promise.fail(ChannelError.eof)
            return
        }
        promise.succeed(RefusedResponse(head: head, body: body))
        context.close(promise: nil)
    }
}
