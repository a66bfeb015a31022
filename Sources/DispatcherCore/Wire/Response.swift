import FoundationEssentials

/// What came back for a request: from the network, a stub, or the cache.
///
/// Copy-on-write (`CopyOnWrite`): a response passes through results, plugins, handlers and the
/// exchange, and copying its seven references at each step was a sixth of a stub request's time.
public struct Response: Sendable, Hashable {
    private var storage: CopyOnWrite<Fields>

    /// The HTTP status code.
    public var status: Int {
        get { storage.value.status }
        _modify { yield &storage.value.status }
    }
    /// The response headers, in the order received.
    public var headers: Headers {
        get { storage.value.headers }
        _modify { yield &storage.value.headers }
    }
    /// The (decompressed) body.
    public var body: Data {
        get { storage.value.body }
        _modify { yield &storage.value.body }
    }
    /// The URL that answered, after redirects.
    public var url: URL? {
        get { storage.value.url }
        _modify { yield &storage.value.url }
    }
    /// Where the response came from.
    public var source: ResponseSource {
        get { storage.value.source }
        _modify { yield &storage.value.source }
    }
    /// The HTTP version, e.g. `HTTP/1.1` or `HTTP/2`.
    public var httpVersion: String? {
        get { storage.value.httpVersion }
        _modify { yield &storage.value.httpVersion }
    }
    /// How long it took.
    public var timing: Timing {
        get { storage.value.timing }
        _modify { yield &storage.value.timing }
    }
    /// Where the time went, phase by phase and hop by hop, for a response from the network.
    public var transfer: TransferTiming? {
        get { storage.value.transfer }
        _modify { yield &storage.value.transfer }
    }
    /// The redirects followed to get here, in order.
    public var redirects: [Redirect] {
        get { storage.value.redirects }
        _modify { yield &storage.value.redirects }
    }
    /// Whether `body` holds only part of the body: cut at the size limit (`bodyTooLarge`), or what
    /// arrived before the transfer failed (a reset, a deadline), or only the start of a body that
    /// streamed past (`RequestOptions.streamedBodyKept`).
    public var isTruncated: Bool {
        get { storage.value.isTruncated }
        _modify { yield &storage.value.isTruncated }
    }
    /// Set when the body went to a file (`RequestOptions.download`) instead of `body`.
    package var downloadedFile: DownloadedFile? {
        get { storage.value.downloadedFile }
        _modify { yield &storage.value.downloadedFile }
    }

    /// Set when a successful body passed through `RequestOptions.onResponsePart` without being held
    /// (`RequestOptions.streamedBodyKept`): its whole size, while `body` holds only its start.
    public var streamedByteCount: Int? {
        get { storage.value.streamedByteCount }
        _modify { yield &storage.value.streamedByteCount }
    }

    /// Makes a response.
    public init(
        status: Int, headers: Headers = Headers(), body: Data = Data(), url: URL? = nil,
        source: ResponseSource = .network, httpVersion: String? = nil, timing: Timing = Timing(),
        redirects: [Redirect] = []
    ) {
        storage = CopyOnWrite(Fields(
            status: status, headers: headers, body: body, url: url, source: source, httpVersion: httpVersion, timing: timing,
            redirects: redirects, isTruncated: false, downloadedFile: nil, streamedByteCount: nil, reasonPhrase: nil, transfer: nil))
    }

    /// The fields, shared by copies until one changes.
    private struct Fields: Hashable {
        var status: Int
        var headers: Headers
        var body: Data
        var url: URL?
        var source: ResponseSource
        var httpVersion: String?
        var timing: Timing
        var redirects: [Redirect]
        var isTruncated: Bool
        var downloadedFile: DownloadedFile?
        var streamedByteCount: Int?
        var reasonPhrase: String?
        var transfer: TransferTiming?
    }

    /// The reason phrase as the server sent it (`OK`, `Fine`, empty when it sent none; HTTP/2 has
    /// none); nil when the response did not come from the wire (a stub).
    package var reasonPhrase: String? {
        get { storage.value.reasonPhrase }
        _modify { yield &storage.value.reasonPhrase }
    }

    /// The status line as received, without the version (`200 OK`, `200 Fine`, `200 ` for an
    /// empty phrase, as the line carries the space); the standard one for a response that did not
    /// come from the wire.
    package var receivedStatusLine: String {
        reasonPhrase.map { "\(status) \($0)" } ?? statusLine
    }

    /// The body's size: in memory, of the file it was downloaded to, or as it streamed past.
    public var bodySize: Int { downloadedFile?.byteCount ?? streamedByteCount ?? body.count }

    /// The status with its reason phrase, e.g. `404 Not Found`.
    public var statusLine: String { HTTPStatus.line(for: status) }

    /// The Content-Type header's media type without parameters, lowercased.
    public var mediaType: String? {
        guard let value = headers["Content-Type"] else { return nil }
        // `;` and spaces are ASCII: cut on UTF-8, where Character-wise scanning would cost more.
        let bytes = value.utf8
        var start = bytes.startIndex
        var end = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.endIndex
        while start < end, bytes[start] == UInt8(ascii: " ") { start = bytes.index(after: start) }
        while end > start, bytes[bytes.index(before: end)] == UInt8(ascii: " ") { end = bytes.index(before: end) }
        return value[start..<end].asciiLowercased
    }

    /// The body as UTF-8 text (invalid bytes replaced).
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// Decodes the body as JSON into `type`.
    public func decode<T: Decodable>(_ type: T.Type, using decoder: JSONDecoder = JSONDecoder()) throws(DispatchError) -> T {
        do {
            return try decoder.decode(type, from: body)
        } catch {
            throw DispatchError(
                kind: .decodingFailed, message: "The body could not be decoded as \(T.self): \(error)",
                status: status, response: self, source: "decode")
        }
    }
}

/// Where a response came from.
public enum ResponseSource: Sendable, Hashable, CustomStringConvertible {
    /// Sent over the network.
    case network
    /// A stub: the sample response or the named example.
    case stub(example: String?)
    /// The HTTP cache, without asking the server.
    case cache
    /// The HTTP cache, after the server confirmed it with a 304.
    case revalidated

    public var description: String {
        switch self {
        case .network: "network"
        case .stub(let example): example.map { "stub (\($0))" } ?? "stub"
        case .cache: "cache"
        case .revalidated: "cache (revalidated)"
        }
    }
}

/// Time spent on a request.
public struct Timing: Sendable, Hashable {
    /// From sending to the first byte of the response, when known.
    public var firstByte: Duration?
    /// From sending to the last byte.
    public var total: Duration

    /// Makes a timing.
    public init(firstByte: Duration? = nil, total: Duration = .zero) {
        self.firstByte = firstByte
        self.total = total
    }
}

/// One redirect followed.
public struct Redirect: Sendable, Hashable {
    /// The redirect's status (301, 302, 303, 307, 308).
    public var status: Int
    /// The URL that redirected.
    public var from: URL
    /// Where it pointed.
    public var to: URL

    /// Makes a redirect record.
    public init(status: Int, from: URL, to: URL) {
        self.status = status
        self.from = from
        self.to = to
    }
}
