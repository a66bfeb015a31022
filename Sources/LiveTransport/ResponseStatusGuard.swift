import NIOCore
import NIOHTTP1
import NIOHTTP2

/// Refuses a response whose status is not a three-digit code from 100 up (`HTTP/1.1 000 OK`).
/// AsyncHTTPClient takes such a head for an informational one, waits for the real head, and traps
/// on the body that follows ("How can we receive a response body, if we haven't received a head"):
/// one hostile server would end the process. Found by the FuzzHTTPResponse fuzz target.
///
/// Sits right after the HTTP/1.1 response decoder of every connection, and after the HTTP/2 to
/// HTTP/1 translation of every HTTP/2 stream (`:status: 0` traps the same way); the request fails
/// with `InvalidStatusLine` and the connection (or the stream) is closed.
final class ResponseStatusGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias InboundOut = HTTPClientResponsePart

    /// The status a server sent that no client can read as a response.
    struct InvalidStatusLine: Error, Hashable {
        let code: UInt
    }

    /// Set once a head was refused: the rest of the connection is dropped.
    private var refused = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        if case .head(let head) = unwrapInboundIn(data), head.status.code < 100 || head.status.code > 999 {
            refused = true
            context.fireErrorCaught(InvalidStatusLine(code: head.status.code))
            context.close(promise: nil)
            return
        }
        context.fireChannelRead(data)
    }

    /// Adds the guard after the response decoder of an HTTP/1.1 connection (on its event loop).
    static func install(on channel: Channel) throws {
        let pipeline = channel.pipeline.syncOperations
        let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPResponseDecoder>.self)
        try pipeline.addHandler(ResponseStatusGuard(), position: .after(decoder))
    }

    /// Adds the guard after the HTTP/2 to HTTP/1 translation of an HTTP/2 stream (on its event loop).
    static func install(onStream channel: Channel) throws {
        let pipeline = channel.pipeline.syncOperations
        let codec = try pipeline.handler(type: HTTP2FramePayloadToHTTP1ClientCodec.self)
        try pipeline.addHandler(ResponseStatusGuard(), position: .after(codec))
    }
}
