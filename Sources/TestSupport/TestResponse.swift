import Foundation
import NIOCore
import NIOHTTP1

/// What a test server does with one request: a normal response, or a misbehaviour.
///
/// Build one with the static helpers (`.ok("hi")`, `.json(...)`, `.gzip(...)`, `.chunked(...)`,
/// `.truncated(...)`, `.neverRespond`, `.redirect(to:)` …) and adjust with `.delayed(by:)`,
/// `.withHeader(_:_:)`, `.withStatus(_:)`.
public struct TestResponse: Sendable {
    /// The response status (unused by `neverRespond` and `drop`).
    public var status: HTTPResponseStatus
    /// The response headers; the server adds `Content-Length` / `Transfer-Encoding` as the behaviour needs.
    public var headers: HTTPHeaders
    /// What is written on the wire.
    public var behaviour: Behaviour
    /// Real time the server waits after reading the request and before acting.
    public var delay: Duration

    /// A response with every field spelled out.
    public init(status: HTTPResponseStatus = .ok, headers: HTTPHeaders = [:], behaviour: Behaviour, delay: Duration = .zero) {
        self.status = status
        self.headers = headers
        self.behaviour = behaviour
        self.delay = delay
    }

    /// How the server ends a connection on purpose.
    public enum ConnectionEnding: Sendable, Hashable {
        /// An orderly close: TLS close_notify when TLS is on, then TCP FIN.
        case close
        /// An abortive close: SO_LINGER 0, so the peer receives a TCP RST (no TLS close_notify).
        case reset
    }

    /// What is written on the wire after the delay.
    public enum Behaviour: Sendable {
        /// The head and `body` with a matching `Content-Length` (kept if the headers already set one).
        /// No body is sent for HEAD requests or 1xx/204/304 statuses.
        case body([UInt8])
        /// A streamed body: `Transfer-Encoding: chunked` over HTTP/1.1, DATA frames over HTTP/2.
        case chunked(TestChunkedBody)
        /// Declares `Content-Length: declaredLength`, sends `sent`, then ends the connection.
        /// Over HTTP/2 the whole TCP connection ends, not just the stream.
        case truncated(declaredLength: Int, sent: [UInt8], ending: ConnectionEnding)
        /// Reads the request and never answers; the connection stays open until the server shuts down.
        case neverRespond
        /// Ends the connection without writing anything (over HTTP/2: the whole TCP connection).
        case drop(ConnectionEnding)
    }
}

/// A streamed response body, written chunk by chunk with optional pauses.
public struct TestChunkedBody: Sendable {
    /// Where the chunks come from.
    public enum Source: Sendable {
        /// `totalBytes` of `TestPattern` bytes in chunks of `chunkSize` (the last may be shorter),
        /// generated chunk by chunk so huge bodies never sit in memory.
        case pattern(totalBytes: Int, chunkSize: Int)
        /// These exact chunks (empty ones are skipped: an empty chunk would end the body).
        case chunks([[UInt8]])
    }

    /// The chunks to send.
    public var source: Source
    /// Real time to wait between two chunks (a slow drip when non-zero).
    public var interval: Duration
    /// When set, the server stops after this many body bytes and ends the connection without
    /// finishing the body; the count is rounded up to the chunk that crosses it.
    public var abortAfterBytes: Int?
    /// How the connection ends when `abortAfterBytes` is set.
    public var abortEnding: TestResponse.ConnectionEnding

    /// A streamed body.
    public init(
        source: Source,
        interval: Duration = .zero,
        abortAfterBytes: Int? = nil,
        abortEnding: TestResponse.ConnectionEnding = .close
    ) {
        self.source = source
        self.interval = interval
        self.abortAfterBytes = abortAfterBytes
        self.abortEnding = abortEnding
    }

    /// The number of chunks the server writes when nothing aborts the stream.
    public var chunkCount: Int {
        switch source {
        case .pattern(let total, let size): size > 0 ? (total + size - 1) / size : 0
        case .chunks(let chunks): chunks.count(where: { !$0.isEmpty })
        }
    }

    /// The total number of body bytes when nothing aborts the stream.
    public var totalBytes: Int {
        switch source {
        case .pattern(let total, _): total
        case .chunks(let chunks): chunks.reduce(0) { $0 + $1.count }
        }
    }
}

/// The deterministic filler used by streamed and truncated bodies: byte `i` is `"a" + i % 26`.
///
/// Printable, so failures read well; position-dependent, so a lost or reordered chunk is detected.
public enum TestPattern {
    /// 512 periods of the pattern: fills copy from it a block at a time instead of byte by byte.
    private static let template: [UInt8] = (0..<(26 * 512)).map { byte(at: $0) }

    /// `count` pattern bytes starting at absolute position `offset` (≥ 0).
    public static func bytes(count: Int, offset: Int = 0) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: max(count, 0)) { buffer, initialized in
            fill(UnsafeMutableRawBufferPointer(buffer), offset: offset)
            initialized = buffer.count
        }
    }

    /// Fills `buffer` with the pattern bytes starting at absolute position `offset` (≥ 0).
    public static func fill(_ buffer: UnsafeMutableRawBufferPointer, offset: Int) {
        template.withUnsafeBytes { source in
            guard let target = buffer.baseAddress, let origin = source.baseAddress else { return }
            var written = 0
            while written < buffer.count {
                let phase = (offset + written) % 26
                let length = min(buffer.count - written, source.count - phase)
                (target + written).copyMemory(from: origin + phase, byteCount: length)
                written += length
            }
        }
    }

    /// The pattern byte at absolute position `index` (≥ 0).
    public static func byte(at index: Int) -> UInt8 {
        UInt8(ascii: "a") &+ UInt8(truncatingIfNeeded: index % 26)
    }
}

/// An HTTP content coding the test server can apply.
public enum TestContentCoding: String, Sendable, CaseIterable {
    /// `Content-Encoding: gzip` (RFC 1952).
    case gzip
    /// `Content-Encoding: deflate`, i.e. the zlib format (RFC 1950), as HTTP defines it.
    case deflate

    /// Encodes `bytes`.
    public func encode(_ bytes: [UInt8]) -> [UInt8] {
        switch self {
        case .gzip: TestCompression.gzip(bytes)
        case .deflate: TestCompression.zlib(bytes)
        }
    }

    /// Encodes `count` copies of `byte` without allocating them.
    public func encode(repeating byte: UInt8, count: Int) -> [UInt8] {
        switch self {
        case .gzip: TestCompression.gzip(repeating: byte, count: count)
        case .deflate: TestCompression.zlib(repeating: byte, count: count)
        }
    }
}
