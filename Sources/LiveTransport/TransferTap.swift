import DispatcherCore
import FoundationEssentials
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOSSL
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// What the connections learn of each request, by its transfer number: the connection it went
/// over, when its head was about to be written and when its last byte was.
///
/// AsyncHTTPClient tells a delegate nothing of connections, so each request carries its number
/// in a header (`header`) that the connection's `TransferTap` takes off before the request is
/// encoded: the number never reaches the wire.
final class TransferTaps: Sendable {
    /// The header carrying a request's number from the client to its connection.
    static let header = "x-apiexplorer-transfer"

    /// What a connection saw of one request.
    struct Seen: Sendable {
        var connection: TransferTap.Connection
        var reused: Bool
        var requestStart: ContinuousClock.Instant
        var requestSent: ContinuousClock.Instant?
        var bytesSent = 0
    }

    private let state = Mutex<(next: UInt64, seen: [UInt64: Seen])>((1, [:]))

    /// A new number for a request.
    func number() -> UInt64 {
        state.withLock { state in
            defer { state.next += 1 }
            return state.next
        }
    }

    /// Records what a connection saw of request `number`.
    func update(_ number: UInt64, _ change: (inout Seen?) -> Void) {
        state.withLock { change(&$0.seen[number]) }
    }

    /// Takes what was recorded of request `number` (nothing is kept after).
    func take(_ number: UInt64) -> Seen? {
        state.withLock { $0.seen.removeValue(forKey: number) }
    }
}

/// Sits on every connection (and every HTTP/2 stream) the transport's clients open: it knows when
/// the connection became ready and over what, takes each request's number off its head, and
/// records the connection, the head's start and the end of the request with `TransferTaps`.
final class TransferTap: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPClientRequestPart
    typealias OutboundOut = HTTPClientRequestPart

    /// A connection as made.
    struct Connection: Sendable {
        /// When the TCP connection was open, when known apart from `ready`.
        var connected: ContinuousClock.Instant?
        /// When it was ready for requests: connected, and with TLS, the handshake done.
        var ready: ContinuousClock.Instant
        /// The kernel's smoothed round-trip time of a TLS connection (what its TCP handshake took).
        var roundTrip: Duration?
        var facts: ConnectionFacts
    }

    private let taps: TransferTaps
    /// The connection's facts, shared by the streams of an HTTP/2 connection.
    private let shared: Shared
    private var current: UInt64?

    /// A connection's facts and how many requests it has carried (the first made it).
    final class Shared {
        let connection: Connection
        var carried = 0
        init(_ connection: Connection) { self.connection = connection }
    }

    private init(taps: TransferTaps, shared: Shared) {
        self.taps = taps
        self.shared = shared
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head):
            guard let value = head.headers.first(name: TransferTaps.header) else { return context.write(data, promise: promise) }
            head.headers.remove(name: TransferTaps.header)
            let now = ContinuousClock.now
            if let number = UInt64(value) {
                current = number
                let reused = shared.carried > 0
                shared.carried += 1
                let connection = shared.connection
                taps.update(number) { $0 = TransferTaps.Seen(connection: connection, reused: reused, requestStart: now) }
            }
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .body(let body):
            if let number = current {
                let count = body.readableBytes
                taps.update(number) { $0?.bytesSent += count }
            }
            context.write(data, promise: promise)
        case .end:
            guard let number = current else { return context.write(data, promise: promise) }
            current = nil
            // Sent once the end reached the socket, not when it was handed to the pipeline.
            let written = promise ?? context.eventLoop.makePromise()
            let taps = self.taps
            written.futureResult.whenSuccess { taps.update(number) { $0?.requestSent = .now } }
            context.write(data, promise: written)
        }
    }

    /// Installs the tap on a new HTTP/1.1 connection, after its response decoder (on its event
    /// loop), once the facts of the connection are read.
    static func install(on channel: Channel, taps: TransferTaps, httpVersion: String) -> EventLoopFuture<Void> {
        connection(of: channel, httpVersion: httpVersion).flatMapThrowing { connection in
            let pipeline = channel.pipeline.syncOperations
            let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPResponseDecoder>.self)
            try pipeline.addHandler(TransferTap(taps: taps, shared: Shared(connection)), position: .after(decoder))
        }
    }

    /// Keeps the facts of a new HTTP/2 connection for its streams.
    static func register(http2 channel: Channel) -> EventLoopFuture<Void> {
        connection(of: channel, httpVersion: "HTTP/2").flatMapThrowing { connection in
            try channel.pipeline.syncOperations.addHandler(StreamFacts(Shared(connection)))
        }
    }

    /// Installs the tap on an HTTP/2 stream, before its translation to HTTP/1 parts.
    static func install(onStream channel: Channel, taps: TransferTaps) throws {
        guard let parent = channel.parent, let facts = try? parent.pipeline.syncOperations.handler(type: StreamFacts.self) else { return }
        let pipeline = channel.pipeline.syncOperations
        let codec = try pipeline.handler(type: HTTP2FramePayloadToHTTP1ClientCodec.self)
        try pipeline.addHandler(TransferTap(taps: taps, shared: facts.shared), position: .after(codec))
    }

    /// Holds an HTTP/2 connection's facts where its streams find them.
    final class StreamFacts: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = NIOAny
        let shared: Shared
        init(_ shared: Shared) { self.shared = shared }
    }

    /// The facts of a connection that has just become ready (on its event loop). With TLS, the
    /// handshake is over by now: AsyncHTTPClient calls nothing earlier. The moment TCP connected
    /// is then the kernel's round-trip time (the SYN's answer) before the handshake could start:
    /// an estimate from the kernel's own measure, where plain HTTP's moment is read directly.
    private static func connection(of channel: Channel, httpVersion: String) -> EventLoopFuture<Connection> {
        let ready = ContinuousClock.now
        var tlsVersion: String?
        if let handler = try? channel.pipeline.syncOperations.handler(type: NIOSSLHandler.self) {
            tlsVersion = handler.tlsVersion.map(Self.name)
        }
        let facts = ConnectionFacts(
            reused: false, remoteAddress: channel.remoteAddress?.ipAddress, remotePort: channel.remoteAddress?.port,
            localAddress: channel.localAddress?.ipAddress, localPort: channel.localAddress?.port, tlsVersion: tlsVersion,
            httpVersion: httpVersion)
        let connection = Connection(connected: tlsVersion == nil ? ready : nil, ready: ready, facts: facts)
        #if os(Linux)
        if tlsVersion != nil, let provider = channel as? any SocketOptionProvider {
            return provider.getTCPInfo().map { info in
                var measured = connection
                measured.roundTrip = .microseconds(Int64(info.tcpi_rtt))
                return measured
            }.recover { _ in connection }
        }
        #endif
        return channel.eventLoop.makeSucceededFuture(connection)
    }

    private static func name(_ version: TLSVersion) -> String {
        switch version {
        case .tlsv1: "TLSv1.0"
        case .tlsv11: "TLSv1.1"
        case .tlsv12: "TLSv1.2"
        case .tlsv13: "TLSv1.3"
        }
    }
}

/// Puts one hop's phases together once it ended: the connection's facts and the request's
/// moments from its `TransferTap`, the name's resolution from `NameLookups`, the response's
/// moments from the collector.
struct TransferClock: Sendable {
    let taps: TransferTaps
    let number: UInt64
    let lookup: NameLookups.Pending?
    let attemptStarted: ContinuousClock.Instant
    let hopStarted: ContinuousClock.Instant
    let url: URL

    /// The hop's timing (taking what its connection recorded).
    func hop(status: Int?, firstByte: ContinuousClock.Instant?, ended: ContinuousClock.Instant?, received: Int) -> HopTiming {
        func since(_ instant: ContinuousClock.Instant?) -> Duration? {
            instant.map { max(hopStarted.duration(to: $0), .zero) }
        }
        var hop = HopTiming(
            url: url.absoluteString, status: status, started: attemptStarted.duration(to: hopStarted), firstByte: since(firstByte),
            lastByte: since(ended), bytesReceived: received)
        guard let seen = taps.take(number) else {
            // Nothing reached a connection: the lookup is all there is to say (a refused connect).
            hop.nameLookup = lookup?.duration
            return hop
        }
        var facts = seen.connection.facts
        facts.reused = seen.reused
        hop.connection = facts
        hop.bytesSent = seen.bytesSent
        hop.requestStart = since(seen.requestStart)
        hop.requestSent = since(seen.requestSent)
        guard !seen.reused, let ready = since(seen.connection.ready) else {
            hop.nameLookup = .zero
            return hop
        }
        let resolved = min(lookup?.duration ?? .zero, ready)
        hop.nameLookup = resolved
        if facts.tlsVersion != nil {
            hop.connect = min(resolved + (seen.connection.roundTrip ?? .zero), ready)
            hop.tlsHandshake = ready
        } else {
            hop.connect = since(seen.connection.connected) ?? ready
        }
        return hop
    }
}
