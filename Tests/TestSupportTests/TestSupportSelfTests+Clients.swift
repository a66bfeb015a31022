import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOHTTPCompression
import NIOPosix
import NIOSSL
import TestSupport

/// A response as a NIO HTTP client (HTTP/1.1 codec or an HTTP/2 stream) decoded it.
struct DecodedResponse: Sendable {
    var head: HTTPResponseHead
    var body: [UInt8]
    var text: String { String(decoding: body, as: UTF8.self) }
}

/// Minimal NIO clients, independent of AsyncHTTPClient and of TestSupport's own `RawTestClient`.
enum NIOTestClient {
    /// One request over a fresh HTTP/1.1 connection, optionally through NIO's zlib-based decompressor.
    static func http1(
        port: Int, tls: RawTestClient.TLS? = nil, method: HTTPMethod = .GET, path: String,
        headers: HTTPHeaders = [:], decompress: Bool = false
    ) async throws -> DecodedResponse {
        let sslContext = try tls?.makeContext()
        let promise = MultiThreadedEventLoopGroup.singleton.next().makePromise(of: DecodedResponse.self)
        var requestHeaders = headers
        requestHeaders.replaceOrAdd(name: "Host", value: "127.0.0.1:\(port)")
        requestHeaders.replaceOrAdd(name: "Connection", value: "close")
        let head = HTTPRequestHead(version: .http1_1, method: method, uri: path, headers: requestHeaders)
        return try await exchange(port: port, promise: promise) { channel in
            let sync = channel.pipeline.syncOperations
            if let sslContext { try sync.addHandler(NIOSSLClientHandler(context: sslContext, serverHostname: nil)) }
            try sync.addHTTPClientHandlers()
            if decompress { try sync.addHandler(NIOHTTPResponseDecompressor(limit: .none)) }
            try sync.addHandler(DecodingCollector(request: head, promise: promise))
        }
    }

    /// One GET on an HTTP/2 stream over TLS with ALPN `h2` only.
    static func http2(port: Int, path: String, headers: HTTPHeaders = [:]) async throws -> DecodedResponse {
        let sslContext = try RawTestClient.TLS(applicationProtocols: ["h2"]).makeContext()
        let promise = MultiThreadedEventLoopGroup.singleton.next().makePromise(of: DecodedResponse.self)
        var requestHeaders = headers
        requestHeaders.replaceOrAdd(name: "Host", value: "127.0.0.1:\(port)")
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: requestHeaders)
        return try await exchange(port: port, promise: promise) { channel in
            let sync = channel.pipeline.syncOperations
            try sync.addHandler(NIOSSLClientHandler(context: sslContext, serverHostname: nil))
            let multiplexer = try sync.configureHTTP2Pipeline(
                mode: .client, connectionConfiguration: .init(), streamConfiguration: .init(),
                inboundStreamInitializer: { $0.close() }
            )
            multiplexer.createStreamChannel(promise: nil) { stream in
                stream.eventLoop.makeCompletedFuture {
                    try stream.pipeline.syncOperations.addHandlers(
                        HTTP2FramePayloadToHTTP1ClientCodec(httpProtocol: .https),
                        DecodingCollector(request: head, promise: promise)
                    )
                }
            }
        }
    }

    /// Connects, lets `configure` build the pipeline (on the event loop), and awaits `promise`.
    private static func exchange(
        port: Int, promise: EventLoopPromise<DecodedResponse>,
        configure: @escaping @Sendable (Channel) throws -> Void
    ) async throws -> DecodedResponse {
        do {
            // NIO's default connect timeout (10 s) is shorter than a starved start of the whole suite.
            let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(.seconds(60))
                .channelInitializer { channel in channel.eventLoop.makeCompletedFuture { try configure(channel) } }
                .connect(host: "127.0.0.1", port: port)
                .get()
            defer { channel.close(promise: nil) }
            return try await promise.futureResult.get()
        } catch {
            promise.fail(error)
            throw error
        }
    }
}

/// Sends one request when the channel becomes active and collects the decoded response.
final class DecodingCollector: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    private let request: HTTPRequestHead
    private let promise: EventLoopPromise<DecodedResponse>
    private var head: HTTPResponseHead?
    private var body: [UInt8] = []
    private var done = false
    private var sent = false

    init(request: HTTPRequestHead, promise: EventLoopPromise<DecodedResponse>) {
        self.request = request
        self.promise = promise
    }

    func channelActive(context: ChannelHandlerContext) {
        sendOnce(context)
        context.fireChannelActive()
    }

    func handlerAdded(context: ChannelHandlerContext) {
        // HTTP/2 stream channels may already be active when the initializer adds us.
        if context.channel.isActive { sendOnce(context) }
    }

    private func sendOnce(_ context: ChannelHandlerContext) {
        guard !sent else { return }
        sent = true
        context.write(wrapOutboundOut(.head(request)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): self.head = head
        case .body(let buffer): body.append(contentsOf: buffer.readableBytesView)
        case .end:
            guard let head, !done else { return }
            done = true
            promise.succeed(DecodedResponse(head: head, body: body))
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        guard !done else { return }
        done = true
        promise.fail(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if !done {
            done = true
            promise.fail(ChannelError.eof)
        }
        context.fireChannelInactive()
    }
}

/// SHA-256 (FIPS 180-4), written here so the openssl-computed pins are checked by a second,
/// independent implementation without a crypto dependency in this test target.
enum SHA256 {
    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    static func hash(_ message: [UInt8]) -> [UInt8] {
        var h: [UInt32] = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]
        var padded = message + [0x80]
        while padded.count % 64 != 56 { padded.append(0) }
        let bitLength = UInt64(message.count) * 8
        padded += (0..<8).map { UInt8(truncatingIfNeeded: bitLength >> (56 - 8 * UInt64($0))) }
        func rotate(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }
        for blockStart in stride(from: 0, to: padded.count, by: 64) {
            var w = [UInt32](repeating: 0, count: 64)
            for i in 0..<16 {
                w[i] = (0..<4).reduce(0) { $0 << 8 | UInt32(padded[blockStart + 4 * i + $1]) }
            }
            for i in 16..<64 {
                let s0 = rotate(w[i - 15], 7) ^ rotate(w[i - 15], 18) ^ (w[i - 15] >> 3)
                let s1 = rotate(w[i - 2], 17) ^ rotate(w[i - 2], 19) ^ (w[i - 2] >> 10)
                w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
            }
            var (a, b, c, d, e, f, g, hh) = (h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7])
            for i in 0..<64 {
                let t1 = hh &+ (rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)) &+ ((e & f) ^ (~e & g)) &+ k[i] &+ w[i]
                let t2 = (rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)) &+ ((a & b) ^ (a & c) ^ (b & c))
                (hh, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
            }
            for (index, value) in [a, b, c, d, e, f, g, hh].enumerated() { h[index] = h[index] &+ value }
        }
        return h.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (24 - 8 * UInt32($0))) } }
    }
}
