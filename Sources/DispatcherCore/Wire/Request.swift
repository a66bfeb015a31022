import FoundationEssentials
import Synchronization

/// The request as it goes to the transport: what every plugin, the interceptor, the logger and the
/// history see. The same shape in stub and live mode.
///
/// Copy-on-write (`CopyOnWrite`): the dispatcher hands it through async steps, plugins, the logger
/// and the exchange, and copying some 20 references (half a kilobyte) each time cost more than the
/// rest of a stub request.
public struct Request: Sendable {
    private var storage: CopyOnWrite<Fields>

    /// Unique per dispatch; retries and resumes keep it.
    public var id: UInt64 {
        get { storage.value.id }
        _modify { yield &storage.value.id }
    }
    /// The target's identifier.
    public var identifier: String {
        get { storage.value.identifier }
        _modify { yield &storage.value.identifier }
    }
    /// The method.
    public var method: HTTPMethod {
        get { storage.value.method }
        _modify { yield &storage.value.method }
    }
    /// The full URL.
    public var url: URL {
        get { storage.value.url }
        _modify { yield &storage.value.url }
    }
    /// Every header with where it came from.
    public var headers: Headers {
        get { storage.value.headers }
        _modify { yield &storage.value.headers }
    }
    /// The body bytes.
    public var body: Data? {
        get { storage.value.body }
        _modify { yield &storage.value.body }
    }
    /// A body read from disk as it is sent (a file, a multipart form with files); `body` is then nil.
    package var streamedBody: StreamedBody? {
        get { storage.value.streamedBody }
        _modify { yield &storage.value.streamedBody }
    }
    /// Which statuses count as success.
    public var validation: ValidationType {
        get { storage.value.validation }
        _modify { yield &storage.value.validation }
    }
    /// Whether a success must carry a body.
    public var expectsResponseBody: Bool {
        get { storage.value.expectsResponseBody }
        _modify { yield &storage.value.expectsResponseBody }
    }
    /// What the transport needs: timeouts, trust, cache, redirects, limits.
    public var settings: TransportSettings {
        get { storage.value.settings }
        _modify { yield &storage.value.settings }
    }
    /// Per-request options.
    public var options: RequestOptions {
        get { storage.value.options }
        _modify { yield &storage.value.options }
    }
    /// 1 for the first attempt, 2 for the first retry …
    public var attempt: Int {
        get { storage.value.attempt }
        _modify { yield &storage.value.attempt }
    }

    /// Makes a request.
    public init(
        id: UInt64 = Request.nextID(), identifier: String, method: HTTPMethod, url: URL, headers: Headers = Headers(),
        body: Data? = nil, validation: ValidationType = .successCodes, expectsResponseBody: Bool = false,
        settings: TransportSettings, options: RequestOptions = RequestOptions(), attempt: Int = 1
    ) {
        storage = CopyOnWrite(Fields(
            id: id, identifier: identifier, method: method, url: url, headers: headers, body: body, streamedBody: nil,
            validation: validation, expectsResponseBody: expectsResponseBody, settings: settings, options: options, attempt: attempt))
    }

    /// The fields, shared by copies until one changes.
    private struct Fields: Sendable {
        var id: UInt64
        var identifier: String
        var method: HTTPMethod
        var url: URL
        var headers: Headers
        var body: Data?
        var streamedBody: StreamedBody?
        var validation: ValidationType
        var expectsResponseBody: Bool
        var settings: TransportSettings
        var options: RequestOptions
        var attempt: Int
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
        // Changed only when they differ: a change copies the settings the endpoint shares.
        var timeouts = settings.timeouts.overridden(by: options.timeouts)
        if options.isStream { timeouts.total = nil }
        if timeouts != settings.timeouts { settings.timeouts = timeouts }
        var request = Request(
            identifier: endpoint.identifier, method: endpoint.method, url: endpoint.url, headers: headers,
            body: data, validation: endpoint.validation, expectsResponseBody: endpoint.expectsResponseBody,
            settings: settings, options: options)
        request.streamedBody = streamed
        return request
    }
}

/// The environment's settings a transport needs for one request.
///
/// Copy-on-write (`CopyOnWrite`): every request is made with a copy of its endpoint's settings,
/// and every attempt copies the request's fields.
public struct TransportSettings: Sendable, Hashable {
    private var storage: CopyOnWrite<Fields>

    /// The environment's name (the HTTP cache is kept per environment).
    public var environmentName: String {
        get { storage.value.environmentName }
        _modify { yield &storage.value.environmentName }
    }
    /// The environment's type.
    public var environmentType: EnvironmentType {
        get { storage.value.environmentType }
        _modify { yield &storage.value.environmentType }
    }
    /// Connect, read and total deadlines.
    public var timeouts: Timeouts {
        get { storage.value.timeouts }
        _modify { yield &storage.value.timeouts }
    }
    /// Certificate checks.
    public var trust: ServerTrust {
        get { storage.value.trust }
        _modify { yield &storage.value.trust }
    }
    /// How the HTTP cache is used.
    public var cachePolicy: CachePolicy {
        get { storage.value.cachePolicy }
        _modify { yield &storage.value.cachePolicy }
    }
    /// Redirect handling.
    public var redirects: RedirectPolicy {
        get { storage.value.redirects }
        _modify { yield &storage.value.redirects }
    }
    /// Largest body accepted.
    public var maximumBodySize: Int {
        get { storage.value.maximumBodySize }
        _modify { yield &storage.value.maximumBodySize }
    }
    /// How failures are retried; nil for never.
    public var retry: RetryPolicy? {
        get { storage.value.retry }
        _modify { yield &storage.value.retry }
    }

    /// Settings taken from an environment, with `timeouts` when given.
    public init(environment: Environment, timeouts: Timeouts? = nil) {
        storage = CopyOnWrite(Fields(
            environmentName: environment.name, environmentType: environment.type, timeouts: timeouts ?? environment.timeouts,
            trust: environment.trust, cachePolicy: environment.cachePolicy, redirects: environment.redirects,
            maximumBodySize: environment.maximumBodySize, retry: environment.retry))
    }

    /// The fields, shared by copies until one changes.
    private struct Fields: Hashable {
        var environmentName: String
        var environmentType: EnvironmentType
        var timeouts: Timeouts
        var trust: ServerTrust
        var cachePolicy: CachePolicy
        var redirects: RedirectPolicy
        var maximumBodySize: Int
        var retry: RetryPolicy?
    }
}
