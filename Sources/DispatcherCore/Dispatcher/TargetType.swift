import FoundationEssentials

/// What a request is, as plain properties (Moya's TargetType). Conform an enum for a fixed API,
/// or use `Target` for endpoints described as data.
public protocol TargetType: Sendable {
    /// A stable name for logs, history and in-flight sharing, e.g. `petstore/findPet`.
    var identifier: String { get }
    /// The base URL; nil means the environment's.
    var baseURL: URL? { get }
    /// The path appended to the base URL; `{{name}}` placeholders are filled from `pathParameters`
    /// and then from the environment's variables.
    var path: String { get }
    /// The HTTP method.
    var method: HTTPMethod { get }
    /// Query items appended to the URL.
    var query: [QueryItem] { get }
    /// Headers the endpoint declares (over environment and group headers).
    var headers: Headers { get }
    /// The body.
    var body: RequestBody { get }
    /// The group of endpoints whose headers apply, if any.
    var group: String? { get }
    /// Values for path placeholders.
    var pathParameters: [String: String] { get }
    /// The default stub answer.
    var sampleResponse: SampleResponse { get }
    /// Other stub answers the user can pick by name.
    var examples: [NamedSample] { get }
    /// Which statuses count as success.
    var validation: ValidationType { get }
    /// Timeouts that override the environment's, if any.
    var timeouts: Timeouts? { get }
    /// Whether a success must carry a body (an empty one is `noData`).
    var expectsResponseBody: Bool { get }
    /// What the far end does in stub mode when the target is a WebSocket (sent with
    /// `RequestOptions.webSocket`); nil echoes.
    var webSocketScript: WebSocketScript? { get }
}

extension TargetType {
    public var identifier: String { "\(method.rawValue) \(path)" }
    public var baseURL: URL? { nil }
    public var query: [QueryItem] { [] }
    public var headers: Headers { Headers() }
    public var body: RequestBody { .none }
    public var group: String? { nil }
    public var pathParameters: [String: String] { [:] }
    public var sampleResponse: SampleResponse { .noFixture }
    public var examples: [NamedSample] { [] }
    public var validation: ValidationType { .successCodes }
    public var timeouts: Timeouts? { nil }
    public var expectsResponseBody: Bool { method == .get }
    public var webSocketScript: WebSocketScript? { nil }

    /// The sample answer named `name`, or the default sample when `name` is nil.
    package func sample(named name: String?) -> SampleResponse? {
        guard let name else { return sampleResponse }
        return examples.first { $0.name == name }?.sample
    }
}

/// A target described as data: what catalogs produce, and what scripts build by hand.
public struct Target: TargetType, Hashable {
    public var identifier: String
    public var baseURL: URL?
    public var path: String
    public var method: HTTPMethod
    public var query: [QueryItem]
    public var headers: Headers
    public var body: RequestBody
    public var group: String?
    public var pathParameters: [String: String]
    public var sampleResponse: SampleResponse
    public var examples: [NamedSample]
    public var validation: ValidationType
    public var timeouts: Timeouts?
    public var expectsResponseBody: Bool
    public var webSocketScript: WebSocketScript?

    /// Makes a target; only the method and path are required.
    public init(
        _ method: HTTPMethod, _ path: String, identifier: String? = nil, baseURL: URL? = nil,
        query: [QueryItem] = [], headers: Headers = Headers(), body: RequestBody = .none, group: String? = nil,
        pathParameters: [String: String] = [:], sampleResponse: SampleResponse = .noFixture,
        examples: [NamedSample] = [], validation: ValidationType = .successCodes, timeouts: Timeouts? = nil,
        expectsResponseBody: Bool? = nil, webSocketScript: WebSocketScript? = nil
    ) {
        self.identifier = identifier ?? "\(method.rawValue) \(path)"
        self.baseURL = baseURL
        self.path = path
        self.method = method
        self.query = query
        self.headers = headers
        self.body = body
        self.group = group
        self.pathParameters = pathParameters
        self.sampleResponse = sampleResponse
        self.examples = examples
        self.validation = validation
        self.timeouts = timeouts
        self.expectsResponseBody = expectsResponseBody ?? (method == .get)
        self.webSocketScript = webSocketScript
    }
}
