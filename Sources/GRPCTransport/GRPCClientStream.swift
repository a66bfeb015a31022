import DispatcherCore
import GRPCCore
import GRPCWire
import NIOCore
import NIOHPACK
import NIOHTTP2

/// What every request HEADERS of a stream shares: everything but the call's metadata.
struct GRPCRequestHead: Sendable {
    var path: String
    var authority: String
    var secure: Bool
    var encoding: GRPCMessageEncoding
    var userAgent: String

    func headers(_ metadata: Metadata) -> HPACKHeaders {
        GRPCHeaders.request(
            path: path, authority: authority, secure: secure, metadata: GRPCMetadata(metadata), encoding: encoding, userAgent: userAgent)
    }
}

/// The request side of a call: metadata as the HEADERS, each message as DATA, the end as an
/// empty DATA with END_STREAM; a failed producer resets the stream.
struct GRPCRequestWriter: ClosableRPCWriterProtocol {
    typealias Element = RPCRequestPart<[UInt8]>

    let outbound: NIOAsyncChannelOutboundWriter<HTTP2Frame.FramePayload>
    let head: GRPCRequestHead
    let allocator: ByteBufferAllocator

    func write(_ element: Element) async throws {
        do {
            switch element {
            case .metadata(let metadata):
                try await outbound.write(.headers(.init(headers: head.headers(metadata))))
            case .message(let message):
                let framed = GRPCMessageFraming.frame(message, encoding: head.encoding, allocator: allocator)
                try await outbound.write(.data(.init(data: .byteBuffer(framed))))
            }
        } catch {
            // The stream is gone (the server answered and closed it, or reset it): the response says why.
            throw RPCError(code: .unavailable, message: "The request could not be sent: the stream is closed.", cause: error)
        }
    }

    func write(contentsOf elements: some Sequence<Element>) async throws {
        for element in elements { try await write(element) }
    }

    func finish() async {
        try? await outbound.write(.data(.init(data: .byteBuffer(ByteBuffer()), endStream: true)))
    }

    func finish(throwing error: any Error) async {
        try? await outbound.write(.rstStream(.cancel))
    }
}

/// The response side of a call as GRPCCore's parts: the first HEADERS as metadata, DATA read into
/// messages (each within the receive limit), the last HEADERS as the status. Whatever breaks the
/// protocol ends it with an `RPCError` that says what came.
struct GRPCResponseParts: AsyncSequence, Sendable {
    typealias Element = RPCResponsePart<[UInt8]>

    let inbound: NIOAsyncChannelInboundStream<HTTP2Frame.FramePayload>
    let connection: GRPCClientConnection
    let receiveLimit: Int

    func makeAsyncIterator() -> Iterator {
        Iterator(frames: inbound.makeAsyncIterator(), connection: connection, receiveLimit: receiveLimit)
    }

    struct Iterator: AsyncIteratorProtocol {
        var frames: NIOAsyncChannelInboundStream<HTTP2Frame.FramePayload>.AsyncIterator
        let connection: GRPCClientConnection
        let receiveLimit: Int
        private var reader: GRPCMessageReader?
        private var ended = false

        init(frames: NIOAsyncChannelInboundStream<HTTP2Frame.FramePayload>.AsyncIterator, connection: GRPCClientConnection, receiveLimit: Int) {
            self.frames = frames
            self.connection = connection
            self.receiveLimit = receiveLimit
        }

        var authority: String { connection.target.authority }

        mutating func next() async throws -> Element? {
            if ended { return nil }
            do {
                return try await nextPart()
            } catch {
                ended = true
                throw error
            }
        }

        private mutating func nextPart() async throws(RPCError) -> Element? {
            // Messages already read come first.
            if var reader {
                let message = try rpcError { () throws(GRPCWireError) in try reader.next() }
                self.reader = reader
                if let message { return .message(message) }
            }
            while true {
                let frame: HTTP2Frame.FramePayload?
                do {
                    frame = try await frames.next()
                } catch {
                    throw streamFailure(error)
                }
                guard let frame else { throw streamFailure(nil) }
                switch frame {
                case .headers(let headers):
                    if reader == nil {
                        switch GRPCHeaders.responseHead(headers.headers, endStream: headers.endStream, authority: authority) {
                        case .accepted(let metadata, let encodingName):
                            reader = GRPCMessageReader(limit: receiveLimit, encodingName: encodingName, sender: "the server")
                            return .metadata(metadata.core)
                        case .ended(let status, let metadata):
                            ended = true
                            return .status(Status(code: status.code.core, message: status.message), metadata.core)
                        }
                    }
                    guard headers.endStream else {
                        throw RPCError(code: .internalError, message: "\(authority) sent a second HEADERS that does not end the call.")
                    }
                    if let reader { try rpcError { () throws(GRPCWireError) in try reader.finish() } }
                    let (status, metadata) = GRPCHeaders.trailers(headers.headers, authority: authority)
                    ended = true
                    return .status(Status(code: status.code.core, message: status.message), metadata.core)
                case .data(let data):
                    guard var reader else {
                        throw RPCError(code: .internalError, message: "\(authority) sent a message before its response headers.")
                    }
                    if case .byteBuffer(let bytes) = data.data { reader.append(bytes) }
                    let message = try rpcError { () throws(GRPCWireError) in try reader.next() }
                    self.reader = reader
                    if data.endStream {
                        // A stream that ends on DATA has no trailers, so no status.
                        try rpcError { () throws(GRPCWireError) in try reader.finish() }
                        let count = reader.count
                        throw RPCError(
                            code: .internalError,
                            message: "\(authority) ended the call after \(count) message\(count == 1 ? "" : "s") without a status (no trailers).")
                    }
                    if let message { return .message(message) }
                case .rstStream(let code):
                    throw reset(code)
                default:
                    continue
                }
            }
        }


        /// The stream ended early: reset by the server, or the connection broke or closed.
        private func streamFailure(_ error: (any Error)?) -> RPCError {
            if error is CancellationError || Task.isCancelled {
                return RPCError(code: .cancelled, message: "The call was cancelled.")
            }
            let connectionAlive = connection.channel.isActive && !connection.watch.isClosed
            if let closed = error as? NIOHTTP2Errors.StreamClosed, connectionAlive {
                return reset(closed.errorCode)
            }
            let failure = connection.watch.failure(messagesReceived: reader?.count, timeouts: .init(connect: connection.settings.connectTimeout))
            return RPCError(code: failure.grpcCode, message: failure.message, cause: GRPCTransportFailure(failure))
        }

        /// gRPC's table for a stream the server reset (PROTOCOL-HTTP2, "Errors").
        private func reset(_ code: HTTP2ErrorCode) -> RPCError {
            let (status, meaning): (RPCError.Code, String) =
                switch code {
                case .refusedStream: (.unavailable, "refused the stream (REFUSED_STREAM): it did not start the call")
                case .cancel: (.cancelled, "cancelled the call (RST_STREAM CANCEL)")
                case .enhanceYourCalm: (.resourceExhausted, "asked to slow down (ENHANCE_YOUR_CALM)")
                case .inadequateSecurity: (.permissionDenied, "found the connection's security inadequate (INADEQUATE_SECURITY)")
                default: (.internalError, "reset the stream (\(code))")
                }
            return RPCError(code: status, message: "\(authority) \(meaning).")
        }
    }
}

/// A wire error as the call's error: its code and message as GRPCCore's `RPCError`.
func rpcError<R>(_ body: () throws(GRPCWireError) -> R) throws(RPCError) -> R {
    do {
        return try body()
    } catch {
        throw RPCError(code: RPCError.Code(error.code.core) ?? .internalError, message: error.message)
    }
}

extension TransportError {
    /// The status a call ends with when its connection failed this way: bytes that are not HTTP/2
    /// are the server's fault (INTERNAL); anything else is the connection's (UNAVAILABLE).
    var grpcCode: RPCError.Code { code == .badServerResponse ? .internalError : .unavailable }
}
