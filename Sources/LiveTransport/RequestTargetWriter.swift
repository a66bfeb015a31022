import NIOCore
import NIOHTTP1
import NIOHTTP2

/// Writes each request's target the way curl does where AsyncHTTPClient would write a path:
/// - `OPTIONS *` (asterisk form, RFC 9112 §3.2.4) for an OPTIONS request to the path `/*`, which
///   is how an endpoint whose path is `*` reaches the transport (a resource literally named `*`
///   is not a thing servers have);
/// - on a connection to an HTTP proxy (`absoluteForm`), the absolute form
///   (`GET http://host:port/path?q HTTP/1.1`, RFC 9112 §3.2.2) that curl sends plain-http requests
///   to a proxy in, where a `CONNECT host:80` tunnel is what many proxies refuse. The origin is the
///   request's `Host` header, which the transport always sets from the URL.
final class RequestTargetWriter: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPClientRequestPart
    typealias OutboundOut = HTTPClientRequestPart

    private let absoluteForm: Bool

    init(absoluteForm: Bool) {
        self.absoluteForm = absoluteForm
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .head(var head) = unwrapOutboundIn(data) else { return context.write(data, promise: promise) }
        let target = Self.target(method: head.method, uri: head.uri, host: absoluteForm ? head.headers.first(name: "Host") : nil)
        guard target != head.uri else { return context.write(data, promise: promise) }
        head.uri = target
        context.write(wrapOutboundOut(.head(head)), promise: promise)
    }

    /// The target for `uri` (origin form, as the client wrote it), given the proxy's origin host
    /// when requests go to a proxy in absolute form.
    static func target(method: HTTPMethod, uri: String, host: String?) -> String {
        let asterisk = method == .OPTIONS && uri == "/*"
        guard let host, uri.hasPrefix("/") else { return asterisk ? "*" : uri }
        // Through a proxy, `OPTIONS *` names its origin alone (RFC 9112 §3.2.4).
        return "http://" + host + (asterisk ? "" : uri)
    }

    /// Adds it after the response decoder of an HTTP/1.1 connection, where the client's requests
    /// pass on their way to the encoder (on the channel's event loop).
    static func install(on channel: Channel, absoluteForm: Bool) throws {
        let pipeline = channel.pipeline.syncOperations
        let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPResponseDecoder>.self)
        try pipeline.addHandler(RequestTargetWriter(absoluteForm: absoluteForm), position: .after(decoder))
    }

    /// Adds it before the HTTP/1 to HTTP/2 translation of an HTTP/2 stream (`:path: *`).
    static func install(onStream channel: Channel) throws {
        let pipeline = channel.pipeline.syncOperations
        let codec = try pipeline.handler(type: HTTP2FramePayloadToHTTP1ClientCodec.self)
        try pipeline.addHandler(RequestTargetWriter(absoluteForm: false), position: .after(codec))
    }
}
