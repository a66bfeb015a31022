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
    /// The status line as the server sent it, for the final head (HTTP/1.1 only).
    private let statusLine: StatusLineRecorder?

    init(statusLine: StatusLineRecorder? = nil) {
        self.statusLine = statusLine
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        guard case .head(var head) = unwrapInboundIn(data) else { return context.fireChannelRead(data) }
        if head.status.code < 100 || head.status.code > 999 {
            refused = true
            context.fireErrorCaught(InvalidStatusLine(code: head.status.code))
            context.close(promise: nil)
            return
        }
        // NIO's decoder drops the reason phrase (a 200 is always "OK"): the one received is put back,
        // so `--include` prints the status line as it came.
        if let statusLine, let phrase = statusLine.take(), head.status.code >= 200, phrase != head.status.reasonPhrase {
            head.status = .custom(code: head.status.code, reasonPhrase: phrase)
            return context.fireChannelRead(wrapInboundOut(.head(head)))
        }
        context.fireChannelRead(data)
    }

    /// Adds the guard after the response decoder of an HTTP/1.1 connection, and the recorder of
    /// status lines before it (on its event loop).
    static func install(on channel: Channel) throws {
        let pipeline = channel.pipeline.syncOperations
        let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPResponseDecoder>.self)
        let recorder = StatusLineRecorder()
        try pipeline.addHandler(recorder, position: .before(decoder))
        try pipeline.addHandler(ResponseStatusGuard(statusLine: recorder), position: .after(decoder))
    }

    /// Adds the guard after the HTTP/2 to HTTP/1 translation of an HTTP/2 stream (on its event loop).
    static func install(onStream channel: Channel) throws {
        let pipeline = channel.pipeline.syncOperations
        let codec = try pipeline.handler(type: HTTP2FramePayloadToHTTP1ClientCodec.self)
        try pipeline.addHandler(ResponseStatusGuard(), position: .after(codec))
    }
}

/// Keeps the reason phrase of the status line that starts each response on an HTTP/1.1
/// connection, read from the bytes before the decoder (which drops it). The client sends one
/// request at a time on a connection, so the first line after a request was written is its
/// response's (an interim 1xx first is taken for it; its final head then keeps NIO's phrase).
/// Sits between the request encoder and the response decoder: it sees each request going out
/// (before encoding) and the response's bytes coming in.
final class StatusLineRecorder: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = HTTPClientRequestPart
    typealias OutboundOut = HTTPClientRequestPart

    /// Longest status line kept (longer ones keep NIO's phrase).
    static let limit = 1024

    private var expecting = true
    private var line: [UInt8] = []
    private var recorded: String?

    /// The phrase recorded for the head now decoded, once.
    func take() -> String? {
        defer { recorded = nil }
        return recorded
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .head = unwrapOutboundIn(data) {
            expecting = true
            line = []
            recorded = nil
        }
        context.write(data, promise: promise)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if expecting {
            let buffer = unwrapInboundIn(data)
            buffer.withUnsafeReadableBytes { bytes in
                for byte in bytes {
                    if byte == UInt8(ascii: "\n") || line.count > Self.limit {
                        expecting = false
                        recorded = Self.phrase(of: line)
                        break
                    }
                    line.append(byte)
                }
            }
        }
        context.fireChannelRead(data)
    }

    /// The reason phrase of `HTTP/1.1 200 Fine\r` (`Fine`; empty for `HTTP/1.1 200`); nil when the
    /// line is not a status line.
    static func phrase(of line: [UInt8]) -> String? {
        var bytes = line[...]
        if bytes.last == UInt8(ascii: "\r") { bytes = bytes.dropLast() }
        guard bytes.starts(with: Array("HTTP/".utf8)), let firstSpace = bytes.firstIndex(of: UInt8(ascii: " ")) else { return nil }
        let afterVersion = bytes[(firstSpace + 1)...]
        guard let secondSpace = afterVersion.firstIndex(of: UInt8(ascii: " ")) else { return "" }
        return String(decoding: afterVersion[(secondSpace + 1)...], as: UTF8.self)
    }
}
