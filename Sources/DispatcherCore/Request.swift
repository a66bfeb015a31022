import FoundationEssentials
import Synchronization

/// The request as it goes to the transport: what every plugin, the interceptor, the logger and the
/// history see. The same shape in stub and live mode.
///
/// A value with copy-on-write storage: the dispatcher hands it through async steps, plugins, the
/// logger and the exchange, and copying some 20 references (half a kilobyte) each time cost more
/// than the rest of a stub request.
public struct Request: Sendable {
    private var storage: Storage

    /// Unique per dispatch; retries and resumes keep it.
    public var id: UInt64 {
        get { storage.id }
        _modify {
            makeUnique()
            yield &storage.id
        }
    }
    /// The target's identifier.
    public var identifier: String {
        get { storage.identifier }
        _modify {
            makeUnique()
            yield &storage.identifier
        }
    }
    /// The method.
    public var method: HTTPMethod {
        get { storage.method }
        _modify {
            makeUnique()
            yield &storage.method
        }
    }
    /// The full URL.
    public var url: URL {
        get { storage.url }
        _modify {
            makeUnique()
            yield &storage.url
        }
    }
    /// Every header with where it came from.
    public var headers: Headers {
        get { storage.headers }
        _modify {
            makeUnique()
            yield &storage.headers
        }
    }
    /// The body bytes.
    public var body: Data? {
        get { storage.body }
        _modify {
            makeUnique()
            yield &storage.body
        }
    }
    /// A body read from disk as it is sent (a file, a multipart form with files); `body` is then nil.
    public var streamedBody: StreamedBody? {
        get { storage.streamedBody }
        _modify {
            makeUnique()
            yield &storage.streamedBody
        }
    }
    /// Which statuses count as success.
    public var validation: ValidationType {
        get { storage.validation }
        _modify {
            makeUnique()
            yield &storage.validation
        }
    }
    /// Whether a success must carry a body.
    public var expectsResponseBody: Bool {
        get { storage.expectsResponseBody }
        _modify {
            makeUnique()
            yield &storage.expectsResponseBody
        }
    }
    /// What the transport needs: timeouts, trust, cache, redirects, limits.
    public var settings: TransportSettings {
        get { storage.settings }
        _modify {
            makeUnique()
            yield &storage.settings
        }
    }
    /// Per-request options.
    public var options: RequestOptions {
        get { storage.options }
        _modify {
            makeUnique()
            yield &storage.options
        }
    }
    /// 1 for the first attempt, 2 for the first retry …
    public var attempt: Int {
        get { storage.attempt }
        _modify {
            makeUnique()
            yield &storage.attempt
        }
    }

    /// Makes a request.
    public init(
        id: UInt64 = Request.nextID(), identifier: String, method: HTTPMethod, url: URL, headers: Headers = Headers(),
        body: Data? = nil, validation: ValidationType = .successCodes, expectsResponseBody: Bool = false,
        settings: TransportSettings, options: RequestOptions = RequestOptions(), attempt: Int = 1
    ) {
        storage = Storage(
            id: id, identifier: identifier, method: method, url: url, headers: headers, body: body, validation: validation,
            expectsResponseBody: expectsResponseBody, settings: settings, options: options, attempt: attempt)
    }

    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
    }

    /// The fields. Mutated only through `makeUnique()`, so a storage shared by two values is never
    /// changed: that is what makes it safe to send, and why no access needs checking at run time.
    private final class Storage: @unchecked Sendable {
        @exclusivity(unchecked) var id: UInt64
        @exclusivity(unchecked) var identifier: String
        @exclusivity(unchecked) var method: HTTPMethod
        @exclusivity(unchecked) var url: URL
        @exclusivity(unchecked) var headers: Headers
        @exclusivity(unchecked) var body: Data?
        @exclusivity(unchecked) var streamedBody: StreamedBody?
        @exclusivity(unchecked) var validation: ValidationType
        @exclusivity(unchecked) var expectsResponseBody: Bool
        @exclusivity(unchecked) var settings: TransportSettings
        @exclusivity(unchecked) var options: RequestOptions
        @exclusivity(unchecked) var attempt: Int

        init(
            id: UInt64, identifier: String, method: HTTPMethod, url: URL, headers: Headers, body: Data?,
            validation: ValidationType, expectsResponseBody: Bool, settings: TransportSettings, options: RequestOptions,
            attempt: Int
        ) {
            self.id = id
            self.identifier = identifier
            self.method = method
            self.url = url
            self.headers = headers
            self.body = body
            self.validation = validation
            self.expectsResponseBody = expectsResponseBody
            self.settings = settings
            self.options = options
            self.attempt = attempt
        }

        func copy() -> Storage {
            let copy = Storage(
                id: id, identifier: identifier, method: method, url: url, headers: headers, body: body, validation: validation,
                expectsResponseBody: expectsResponseBody, settings: settings, options: options, attempt: attempt)
            copy.streamedBody = streamedBody
            return copy
        }
    }

    private static let counter = Atomic<UInt64>(0)

    /// A new unique request id.
    public static func nextID() -> UInt64 {
        counter.add(1, ordering: .relaxed).newValue
    }

    /// The default mapping from an endpoint: encodes the body and sets its Content-Type unless
    /// the endpoint already has one.
    public static func make(from endpoint: Endpoint, options: RequestOptions) -> Request {
        var headers = endpoint.headers
        // A file or a multipart form is described here and read as it is sent.
        let streamed = StreamedBody(endpoint.body)
        let (data, contentType) = streamed == nil ? endpoint.body.encoded() : (nil, streamed?.contentType)
        if let contentType, !headers.contains("Content-Type") {
            headers.set("Content-Type", contentType, origin: .body)
        }
        var settings = endpoint.settings
        settings.timeouts = settings.timeouts.overridden(by: options.timeouts)
        if options.isStream { settings.timeouts.total = nil }
        var request = Request(
            identifier: endpoint.identifier, method: endpoint.method, url: endpoint.url, headers: headers,
            body: data, validation: endpoint.validation, expectsResponseBody: endpoint.expectsResponseBody,
            settings: settings, options: options)
        request.streamedBody = streamed
        return request
    }
}

/// The environment's settings a transport needs for one request.
public struct TransportSettings: Sendable, Hashable {
    /// The environment's name (the HTTP cache is kept per environment).
    public var environmentName: String
    /// The environment's type.
    public var environmentType: EnvironmentType
    /// Connect, read and total deadlines.
    public var timeouts: Timeouts
    /// Certificate checks.
    public var trust: ServerTrust
    /// How the HTTP cache is used.
    public var cachePolicy: CachePolicy
    /// Redirect handling.
    public var redirects: RedirectPolicy
    /// Largest body accepted.
    public var maximumBodySize: Int
    /// How failures are retried; nil for never.
    public var retry: RetryPolicy?

    /// Settings taken from an environment, with `timeouts` when given.
    public init(environment: Environment, timeouts: Timeouts? = nil) {
        environmentName = environment.name
        environmentType = environment.type
        self.timeouts = timeouts ?? environment.timeouts
        trust = environment.trust
        cachePolicy = environment.cachePolicy
        redirects = environment.redirects
        maximumBodySize = environment.maximumBodySize
        retry = environment.retry
    }
}
