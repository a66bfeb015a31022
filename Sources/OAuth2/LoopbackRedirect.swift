import FoundationEssentials
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// Waits for the authorization server's redirect on 127.0.0.1 at a port the system picks (RFC 8252
/// §7.3): the first request to the redirect path with `code` or `error` ends the wait, and the
/// browser is told it may close the tab.
final class LoopbackRedirect: Sendable {
    /// What the redirect carried.
    struct Result: Sendable {
        var query: [String: String]
    }

    private let channel: any Channel
    private let received: Mutex<CheckedContinuation<Result, Never>?> = Mutex(nil)
    private let early = Mutex<Result?>(nil)

    /// The redirect URI to register: `http://127.0.0.1:PORT/callback`.
    let redirectURI: String

    private init(channel: any Channel, port: Int) {
        self.channel = channel
        redirectURI = "http://127.0.0.1:\(port)/callback"
    }

    /// Starts listening.
    static func start() async throws -> LoopbackRedirect {
        let box = ResultBox()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(Handler(box: box))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let port = channel.localAddress?.port ?? 0
        let redirect = LoopbackRedirect(channel: channel, port: port)
        box.deliver = { result in redirect.deliver(result) }
        return redirect
    }

    /// The redirect's query, when it comes (or at once if it came already).
    func wait() async -> Result {
        await withCheckedContinuation { continuation in
            if let result = early.withLock({ $0 }) {
                continuation.resume(returning: result)
                return
            }
            received.withLock { $0 = continuation }
        }
    }

    /// Stops listening; a wait still pending ends with an empty result.
    func close() async {
        try? await channel.close()
        deliver(Result(query: [:]))
    }

    private func deliver(_ result: Result) {
        if let continuation = received.withLock({ pending -> CheckedContinuation<Result, Never>? in
            defer { pending = nil }
            return pending
        }) {
            continuation.resume(returning: result)
        } else {
            early.withLock { $0 = result }
        }
    }

    /// Where the handler hands what it read (set once the listener exists).
    final class ResultBox: @unchecked Sendable {
        var deliver: (@Sendable (Result) -> Void)?
        let once = Mutex(false)
    }

    private final class Handler: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart
        let box: ResultBox
        var uri = ""

        init(box: ResultBox) { self.box = box }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head): uri = head.uri
            case .body: break
            case .end:
                let components = URLComponents(string: uri)
                let query = Dictionary((components?.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
                let matched = components?.path == "/callback" && (query["code"] != nil || query["error"] != nil)
                let text = matched
                    ? (query["error"] == nil ? "Signed in: you can close this tab and go back to apiexplorer." : "Sign-in refused: \(query["error"] ?? "").")
                    : "apiexplorer is waiting for the sign-in redirect."
                var headers = HTTPHeaders([("Content-Type", "text/plain; charset=utf-8"), ("Connection", "close")])
                headers.add(name: "Content-Length", value: String(text.utf8.count))
                context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: matched ? .ok : .notFound, headers: headers))), promise: nil)
                context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: text)))), promise: nil)
                context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
                if matched, box.once.withLock({ done in defer { done = true }; return !done }) {
                    box.deliver?(Result(query: query))
                }
            }
        }
    }
}
