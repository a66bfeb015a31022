import DispatcherCore
import FoundationEssentials
import HTTPEcho
import NIOCore
import NIOHTTP1

/// Serves one connection: reads each request, asks the planner what to do, and does it.
final class MockHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let planner: MockPlanner
    private let log: @Sendable (MockRequestLog) -> Void
    private var head: HTTPRequestHead?
    /// The request's body, kept for examples that echo it (up to `RequestEcho.bodyLimit`).
    private var body = Data()
    private var bodyTruncated = false
    /// A request whose connection is being held or is waiting for its delay: later bytes are ignored.
    private var pending: (entry: MockRequestLog, started: ContinuousClock.Instant)?
    private var busy = false

    init(planner: MockPlanner, log: @escaping @Sendable (MockRequestLog) -> Void) {
        self.planner = planner
        self.log = log
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body = Data()
            bodyTruncated = false
        case .body(let part):
            // Fixtures do not depend on the body; an example that echoes shows it.
            if body.count + part.readableBytes <= RequestEcho.bodyLimit { body.append(contentsOf: part.readableBytesView) } else { bodyTruncated = true }
        case .end:
            guard let head, !busy else { return }
            self.head = nil
            busy = true
            let plan = planner.plan(
                method: head.method.rawValue, uri: head.uri, headers: head.headers.map { ($0.name, $0.value) }, body: body, bodyTruncated: bodyTruncated)
            body = Data()
            let entry = MockRequestLog(
                method: head.method.rawValue, uri: head.uri, status: nil, endpoint: plan.endpoint, example: plan.example,
                outcome: plan.outcome, duration: .zero)
            let started = ContinuousClock.now
            pending = (entry, started)
            let keepAlive = head.isKeepAlive
            if let delay = plan.delay, delay > .zero {
                context.eventLoop.assumeIsolated().scheduleTask(in: Self.timeAmount(delay)) {
                    self.carryOut(plan, context: context, keepAlive: keepAlive)
                }
            } else {
                carryOut(plan, context: context, keepAlive: keepAlive)
            }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        // A held request ends when the client gives up.
        if let pending {
            var entry = pending.entry
            entry.duration = ContinuousClock.now - pending.started
            log(entry)
            self.pending = nil
        }
        context.fireChannelInactive()
    }

    private func carryOut(_ plan: MockPlan, context: ChannelHandlerContext, keepAlive: Bool) {
        guard context.channel.isActive else { return }
        switch plan.action {
        case .respond(let status, let headers, let body):
            // Logged first, so the line exists by the time the client has the response.
            finish(status: status)
            writeHead(status: status, headers: headers, bodyLength: body.count, keepAlive: keepAlive, context: context)
            if !body.isEmpty { context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil) }
            let closing = !keepAlive
            context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
                if closing { context.close(promise: nil) }
            }
        case .hold:
            break  // logged when the client closes
        case .closeMidBody(let status, let headers, let partialBody):
            finish(status: status)
            writeHead(status: status, headers: headers, bodyLength: nil, keepAlive: true, context: context)
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: partialBody))))).assumeIsolated().whenComplete { _ in
                context.close(promise: nil)
            }
        case .declareTooLarge(let headers):
            writeHead(status: 200, headers: headers, bodyLength: nil, keepAlive: true, context: context)
            context.flush()
            if var entry = pending?.entry {
                entry.status = 200
                pending?.entry = entry
            }
        case .close:
            context.close(promise: nil)
        case .stream(let status, let headers, let pieces, let interval):
            finish(status: status)
            writeHead(status: status, headers: headers, bodyLength: nil, keepAlive: keepAlive, context: context)
            context.flush()
            writePieces(pieces[...], interval: interval, keepAlive: keepAlive, context: context)
        }
    }

    /// Writes a stream's pieces one by one, `interval` apart, then ends the response.
    private func writePieces(_ pieces: ArraySlice<Data>, interval: Duration, keepAlive: Bool, context: ChannelHandlerContext) {
        guard context.channel.isActive else { return }
        guard let piece = pieces.first else {
            context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
                if !keepAlive { context.close(promise: nil) }
            }
            return
        }
        guard interval > .zero else {
            for piece in pieces { context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: piece)))), promise: nil) }
            writePieces([], interval: interval, keepAlive: keepAlive, context: context)
            return
        }
        context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: piece)))), promise: nil)
        let rest = pieces.dropFirst()
        context.eventLoop.assumeIsolated().scheduleTask(in: Self.timeAmount(interval)) {
            self.writePieces(rest, interval: interval, keepAlive: keepAlive, context: context)
        }
    }

    static func timeAmount(_ duration: Duration) -> TimeAmount {
        .nanoseconds(Int64(duration.components.seconds) * 1_000_000_000 + Int64(duration.components.attoseconds / 1_000_000_000))
    }

    private func writeHead(status: Int, headers: [(String, String)], bodyLength: Int?, keepAlive: Bool, context: ChannelHandlerContext) {
        var fields = HTTPHeaders(headers)
        if let bodyLength, !fields.contains(name: "Content-Length") {
            fields.replaceOrAdd(name: "Content-Length", value: String(bodyLength))
        }
        if !keepAlive { fields.replaceOrAdd(name: "Connection", value: "close") }
        let head = HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: status), headers: fields)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
    }

    /// Logs a finished response and accepts the next request on the connection.
    private func finish(status: Int) {
        guard let pending else { return }
        var entry = pending.entry
        entry.status = status
        entry.duration = ContinuousClock.now - pending.started
        log(entry)
        self.pending = nil
        busy = false
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
