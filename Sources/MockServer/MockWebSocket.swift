import Catalog
import DispatcherCore
import FoundationEssentials
import NIOCore
import NIOHTTP1
import NIOWebSocket

/// WebSocket endpoints on the mock server: an upgrade to a `websocket:` endpoint's path is
/// accepted (offering the first subprotocol both sides name) and the endpoint's script plays the
/// server, an echo when it has none. Any other request stays plain HTTP.
enum MockWebSocket {
    /// The largest message the mock takes.
    static let messageLimit = 16 << 20

    static func upgrader(router: MockRouter, log: @escaping @Sendable (MockRequestLog) -> Void) -> NIOWebSocketServerUpgrader {
        NIOWebSocketServerUpgrader(
            maxFrameSize: messageLimit, automaticErrorHandling: true,
            shouldUpgrade: { channel, head in
                guard let route = route(router, head), let settings = route.endpoint.webSocket else {
                    return channel.eventLoop.makeSucceededFuture(nil)
                }
                var headers = HTTPHeaders()
                let offered = head.headers[canonicalForm: "Sec-WebSocket-Protocol"].map(String.init)
                if let chosen = offered.first(where: settings.subprotocols.contains) { headers.add(name: "Sec-WebSocket-Protocol", value: chosen) }
                return channel.eventLoop.makeSucceededFuture(headers)
            },
            upgradePipelineHandler: { channel, head in
                guard let route = route(router, head) else { return channel.close() }
                let script = route.endpoint.webSocket?.script ?? .echo
                let entry = MockRequestLog(
                    method: head.method.rawValue, uri: head.uri, status: 101, endpoint: route.endpoint.key, example: nil,
                    outcome: "websocket", duration: .zero)
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        NIOWebSocketFrameAggregator(minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 1 << 16, maxAccumulatedFrameSize: messageLimit))
                    let socket = try NIOAsyncChannel<WebSocketFrame, WebSocketFrame>(wrappingChannelSynchronously: channel)
                    Task {
                        let started = ContinuousClock.now
                        try? await socket.executeThenClose { inbound, outbound in
                            let peer = ServerPeer(inbound: inbound.makeAsyncIterator(), outbound: outbound, allocator: channel.allocator)
                            await WebSocketScriptPlayer.play(script, with: peer, clock: .continuous)
                        }
                        var done = entry
                        done.duration = ContinuousClock.now - started
                        log(done)
                    }
                }
            })
    }

    private static func route(_ router: MockRouter, _ head: HTTPRequestHead) -> MockRouter.Route? {
        guard case .endpoint(let route) = router.match(method: head.method.rawValue, path: MockPlanner.splitURI(head.uri).path) else { return nil }
        return route
    }
}

/// The server's side of a conversation, for the script player.
private final class ServerPeer: WebSocketScriptPeer, @unchecked Sendable {
    // The player is the only user, one call at a time.
    private var inbound: NIOAsyncChannelInboundStream<WebSocketFrame>.AsyncIterator
    private let outbound: NIOAsyncChannelOutboundWriter<WebSocketFrame>
    private let allocator: ByteBufferAllocator

    init(inbound: NIOAsyncChannelInboundStream<WebSocketFrame>.AsyncIterator, outbound: NIOAsyncChannelOutboundWriter<WebSocketFrame>, allocator: ByteBufferAllocator) {
        self.inbound = inbound
        self.outbound = outbound
        self.allocator = allocator
    }

    func send(_ content: WebSocketFrameContent) async {
        let frame: WebSocketFrame
        switch content {
        case .message(.text(let text)): frame = WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: text))
        case .message(.binary(let data)): frame = WebSocketFrame(fin: true, opcode: .binary, data: ByteBuffer(bytes: data))
        case .ping(let data): frame = WebSocketFrame(fin: true, opcode: .ping, data: ByteBuffer(bytes: data))
        case .pong(let data): frame = WebSocketFrame(fin: true, opcode: .pong, data: ByteBuffer(bytes: data))
        case .close(let close):
            var payload = allocator.buffer(capacity: 2 + close.reason.utf8.count)
            payload.write(webSocketErrorCode: WebSocketErrorCode(codeNumber: close.code.rawValue))
            payload.writeString(close.reason)
            frame = WebSocketFrame(fin: true, opcode: .connectionClose, data: payload)
        }
        try? await outbound.write(frame)
    }

    func receive() async -> WebSocketFrameContent? {
        while let frame = try? await inbound.next() {
            let data = frame.unmaskedData
            switch frame.opcode {
            case .text: return .message(.text(String(decoding: data.readableBytesView, as: UTF8.self)))
            case .binary: return .message(.binary(Data(data.readableBytesView)))
            case .ping: return .ping(Data(data.readableBytesView))
            case .pong: return .pong(Data(data.readableBytesView))
            case .connectionClose:
                var payload = data
                let code = payload.readWebSocketErrorCode().map { WebSocketCloseCode(Int(UInt16(webSocketErrorCode: $0))) } ?? .noStatus
                return .close(WebSocketClose(code: code, reason: payload.readString(length: payload.readableBytes) ?? ""))
            default: continue
            }
        }
        return nil
    }
}
