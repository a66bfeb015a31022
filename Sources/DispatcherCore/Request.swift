import FoundationEssentials
import Synchronization

/// The request as it goes to the transport: what every plugin, the interceptor, the logger and the
/// history see. The same shape in stub and live mode.
public struct Request: Sendable {
    /// Unique per dispatch; retries and resumes keep it.
    public var id: UInt64
    /// The target's identifier.
    public var identifier: String
    /// The method.
    public var method: HTTPMethod
    /// The full URL.
    public var url: URL
    /// Every header with where it came from.
    public var headers: Headers
    /// The body bytes.
    public var body: Data?
    /// Which statuses count as success.
    public var validation: ValidationType
    /// Whether a success must carry a body.
    public var expectsResponseBody: Bool
    /// What the transport needs: timeouts, trust, cache, redirects, limits.
    public var settings: TransportSettings
    /// Per-request options.
    public var options: RequestOptions
    /// 1 for the first attempt, 2 for the first retry …
    public var attempt: Int

    /// Makes a request.
    public init(
        id: UInt64 = Request.nextID(), identifier: String, method: HTTPMethod, url: URL, headers: Headers = Headers(),
        body: Data? = nil, validation: ValidationType = .successCodes, expectsResponseBody: Bool = false,
        settings: TransportSettings, options: RequestOptions = RequestOptions(), attempt: Int = 1
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

    private static let counter = Atomic<UInt64>(0)

    /// A new unique request id.
    public static func nextID() -> UInt64 {
        counter.add(1, ordering: .relaxed).newValue
    }

    /// The default mapping from an endpoint: encodes the body and sets its Content-Type unless
    /// the endpoint already has one.
    public static func make(from endpoint: Endpoint, options: RequestOptions) -> Request {
        var headers = endpoint.headers
        let (data, contentType) = endpoint.body.encoded()
        if let contentType, !headers.contains("Content-Type") {
            headers.set("Content-Type", contentType, origin: .body)
        }
        var settings = endpoint.settings
        settings.timeouts = settings.timeouts.overridden(by: options.timeouts)
        return Request(
            identifier: endpoint.identifier, method: endpoint.method, url: endpoint.url, headers: headers,
            body: data, validation: endpoint.validation, expectsResponseBody: endpoint.expectsResponseBody,
            settings: settings, options: options)
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
