import FoundationEssentials

/// What came back for a request: from the network, a stub, or the cache.
public struct Response: Sendable, Hashable {
    /// The HTTP status code.
    public var status: Int
    /// The response headers, in the order received.
    public var headers: Headers
    /// The (decompressed) body.
    public var body: Data
    /// The URL that answered, after redirects.
    public var url: URL?
    /// Where the response came from.
    public var source: ResponseSource
    /// The HTTP version, e.g. `HTTP/1.1` or `HTTP/2`.
    public var httpVersion: String?
    /// How long it took.
    public var timing: Timing
    /// The redirects followed to get here, in order.
    public var redirects: [Redirect]
    /// Whether the body was cut at the size limit (`bodyTooLarge`): `body` holds only what was kept.
    public var isTruncated = false
    /// Set when the body went to a file (`RequestOptions.download`) instead of `body`.
    public var downloadedFile: DownloadedFile?

    /// Makes a response.
    public init(
        status: Int, headers: Headers = Headers(), body: Data = Data(), url: URL? = nil,
        source: ResponseSource = .network, httpVersion: String? = nil, timing: Timing = Timing(),
        redirects: [Redirect] = []
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
        self.source = source
        self.httpVersion = httpVersion
        self.timing = timing
        self.redirects = redirects
    }

    /// The body's size: in memory, or of the file it was downloaded to.
    public var bodySize: Int { downloadedFile?.byteCount ?? body.count }

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
