import GRPCCore
import GRPCWire
import NIOCore
import NIOHPACK
import NIOHTTP2
import Synchronization

/// Serves a connection's streams: each one's HEADERS checked, then the call handed to GRPCCore's
/// router with its messages and a writer for the answer. A stream the client resets or drops
/// cancels its handler.
struct GRPCServerStreams: Sendable {
    let receiveLimit: Int
    let handler: @Sendable (_ stream: RPCStream<GRPCServerTransport.Inbound, GRPCServerTransport.Outbound>, _ context: ServerContext) async -> Void

    func serve(_ connection: GRPCServerTransport.Connection) async {
        await withDiscardingTaskGroup { group in
            do {
                for try await stream in connection.multiplexer.inbound {
                    group.addTask { await serve(stream: stream, peer: connection.channel.remoteAddress) }
                }
            } catch {
                // The connection broke; its streams end with it.
            }
        }
        connection.channel.close(promise: nil)
    }

    private func serve(stream: GRPCServerTransport.StreamChannel, peer: SocketAddress?) async {
        try? await stream.executeThenClose { inbound, outbound in
            let frames = GRPCFrameSource(inbound.makeAsyncIterator())
            guard case .headers(let headers)? = try await frames.next() else { return }
            switch GRPCHeaders.requestHead(headers.headers) {
            case .refused(let httpStatus, let status):
                let trailers = GRPCHeaders.trailers(status: status, metadata: GRPCMetadata(), trailersOnly: true, httpStatus: httpStatus)
                try await outbound.write(.headers(.init(headers: trailers, endStream: true)))
            case .accepted(let service, let method, let metadata, let encodingName):
                let descriptor = MethodDescriptor(fullyQualifiedService: service, method: method)
                let requests = GRPCRequestParts(
                    frames: frames, metadata: metadata, ended: headers.endStream,
                    reader: GRPCMessageReader(limit: receiveLimit, encodingName: encodingName, sender: "the client"))
                let writer = GRPCResponseWriter(outbound: outbound, allocator: stream.channel.allocator)
                let cancellation = ServerContext.RPCCancellationHandle()
                let context = ServerContext(
                    descriptor: descriptor, remotePeer: peer.map(Self.describe) ?? "unknown", localPeer: stream.channel.localAddress.map(Self.describe) ?? "unknown",
                    cancellation: cancellation)
                let rpc = RPCStream(
                    descriptor: descriptor, inbound: RPCAsyncSequence<RPCRequestPart<[UInt8]>, any Error>(wrapping: requests),
                    outbound: RPCWriter<RPCResponsePart<[UInt8]>>.Closable(wrapping: writer))
                let handler = self.handler
                let running = Task { await handler(rpc, context) }
                // A client that resets the stream, or a connection that drops, ends the call: the
                // handler may be waiting (a delay between streamed messages) and must stop now.
                stream.channel.closeFuture.whenComplete { _ in
                    if !writer.isFinished {
                        cancellation.cancel()
                        running.cancel()
                    }
                }
                await withTaskCancellationHandler {
                    await running.value
                } onCancel: {
                    running.cancel()
                }
                if writer.isFinished { await Self.settle(stream.channel, frames: frames) }
            }
        }
    }

    /// Waits for an answered stream to close by itself: HTTP/2 flow control may still hold back
    /// its last DATA and trailers, and closing it now would reset it (RST_STREAM CANCEL) and drop
    /// them. The client's unread requests are dropped meanwhile, so a client held back by flow
    /// control can end its side; one that never does is closed after `settleLimit`.
    private static func settle(_ channel: any Channel, frames: GRPCFrameSource) async {
        let limit = channel.eventLoop.scheduleTask(in: settleLimit) { channel.close(promise: nil) }
        defer { limit.cancel() }
        while (try? await frames.next()) != nil {}
        try? await channel.closeFuture.get()
    }

    /// How long an answered stream may stay open for the client to end its side.
    static let settleLimit = TimeAmount.seconds(30)

    static func describe(_ address: SocketAddress) -> String {
        switch address {
        case .v4: "ipv4:\(address.ipAddress ?? ""):\(address.port ?? 0)"
        case .v6: "ipv6:[\(address.ipAddress ?? "")]:\(address.port ?? 0)"
        case .unixDomainSocket: "unix:\(address.pathname ?? "")"
        }
    }
}

/// A stream's frames, read by one task at a time: first the transport (the HEADERS), then the
/// handler's request sequence. Unchecked Sendable for that hand-over, as GRPCCore's own
/// transports hand an iterator to the handler.
final class GRPCFrameSource: @unchecked Sendable {
    private var iterator: NIOAsyncChannelInboundStream<HTTP2Frame.FramePayload>.AsyncIterator

    init(_ iterator: NIOAsyncChannelInboundStream<HTTP2Frame.FramePayload>.AsyncIterator) {
        self.iterator = iterator
    }

    func next() async throws -> HTTP2Frame.FramePayload? {
        try await iterator.next()
    }
}

/// A call's request as GRPCCore's parts: the HEADERS' metadata, then each message (within the
/// receive limit), until END_STREAM.
struct GRPCRequestParts: AsyncSequence, Sendable {
    typealias Element = RPCRequestPart<[UInt8]>

    let frames: GRPCFrameSource
    let metadata: GRPCMetadata
    let ended: Bool
    let reader: GRPCMessageReader

    func makeAsyncIterator() -> Iterator {
        Iterator(frames: frames, metadata: metadata, ended: ended, reader: reader)
    }

    struct Iterator: AsyncIteratorProtocol {
        let frames: GRPCFrameSource
        var metadata: GRPCMetadata?
        var ended: Bool
        var reader: GRPCMessageReader

        mutating func next() async throws -> Element? {
            if let metadata {
                self.metadata = nil
                return .metadata(metadata.core)
            }
            while true {
                if let message = try rpcError({ () throws(GRPCWireError) in try reader.next() }) { return .message(message) }
                if ended {
                    try rpcError { () throws(GRPCWireError) in try reader.finish() }
                    return nil
                }
                let frame: HTTP2Frame.FramePayload?
                do {
                    frame = try await frames.next()
                } catch {
                    throw RPCError(code: .cancelled, message: "The client ended the call.", cause: error)
                }
                switch frame {
                case nil, .rstStream:
                    throw RPCError(code: .cancelled, message: "The client ended the call.")
                case .data(let data):
                    if case .byteBuffer(let bytes) = data.data { reader.append(bytes) }
                    ended = data.endStream
                case .headers(let headers):
                    // Trailers from a client end its side; gRPC clients send none.
                    guard headers.endStream else { throw RPCError(code: .internalError, message: "The client sent a second HEADERS.") }
                    ended = true
                default:
                    continue
                }
            }
        }

    }
}

/// A call's answer: metadata as the HEADERS, messages as DATA, the status as the trailers
/// (trailers-only when nothing went before).
struct GRPCResponseWriter: ClosableRPCWriterProtocol {
    typealias Element = RPCResponsePart<[UInt8]>

    let outbound: NIOAsyncChannelOutboundWriter<HTTP2Frame.FramePayload>
    let allocator: ByteBufferAllocator
    private let progress = Progress()

    init(outbound: NIOAsyncChannelOutboundWriter<HTTP2Frame.FramePayload>, allocator: ByteBufferAllocator) {
        self.outbound = outbound
        self.allocator = allocator
    }

    private final class Progress: Sendable {
        let state = Mutex((headersSent: false, finished: false))
    }

    /// Whether the status went out.
    var isFinished: Bool { progress.state.withLock { $0.finished } }

    func write(_ element: Element) async throws {
        switch element {
        case .metadata(let metadata):
            progress.state.withLock { $0.headersSent = true }
            try await outbound.write(.headers(.init(headers: GRPCHeaders.responseHeaders(metadata: GRPCMetadata(metadata)))))
        case .message(let message):
            let sendHeaders = progress.state.withLock { state -> Bool in
                defer { state.headersSent = true }
                return !state.headersSent
            }
            if sendHeaders { try await outbound.write(.headers(.init(headers: GRPCHeaders.responseHeaders(metadata: GRPCMetadata())))) }
            try await outbound.write(.data(.init(data: .byteBuffer(GRPCMessageFraming.frame(message, encoding: .identity, allocator: allocator)))))
        case .status(let status, let metadata):
            let trailersOnly = progress.state.withLock { state -> Bool in
                state.finished = true
                return !state.headersSent
            }
            let wireStatus = GRPCStatus(code: GRPCStatusCode(status.code), message: status.message)
            let trailers = GRPCHeaders.trailers(status: wireStatus, metadata: GRPCMetadata(metadata), trailersOnly: trailersOnly)
            try await outbound.write(.headers(.init(headers: trailers, endStream: true)))
        }
    }

    func write(contentsOf elements: some Sequence<Element>) async throws {
        for element in elements { try await write(element) }
    }

    func finish() async {}

    func finish(throwing error: any Error) async {
        try? await outbound.write(.rstStream(.internalError))
    }
}
