import FoundationEssentials

/// A target resolved against an environment (Moya's Endpoint): the URL, the merged headers with
/// their origins, the body and the stub answers. The endpoint mapping hook may change it.
public struct Endpoint: Sendable {
    /// The target's identifier.
    public var identifier: String
    /// The full URL, query included.
    public var url: URL
    /// The method.
    public var method: HTTPMethod
    /// Headers merged environment → group → endpoint, each with its origin.
    public var headers: Headers
    /// The body.
    public var body: RequestBody
    /// The default stub answer.
    public var sampleResponse: SampleResponse
    /// The named stub answers.
    public var examples: [NamedSample]
    /// Which statuses count as success.
    public var validation: ValidationType
    /// Whether a success must carry a body.
    public var expectsResponseBody: Bool
    /// What the transport needs to know.
    public var settings: TransportSettings

    /// Makes an endpoint.
    public init(
        identifier: String, url: URL, method: HTTPMethod, headers: Headers, body: RequestBody,
        sampleResponse: SampleResponse, examples: [NamedSample], validation: ValidationType,
        expectsResponseBody: Bool, settings: TransportSettings
    ) {
        self.identifier = identifier
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.sampleResponse = sampleResponse
        self.examples = examples
        self.validation = validation
        self.expectsResponseBody = expectsResponseBody
        self.settings = settings
    }

    /// This endpoint with a header set over the existing ones.
    public func adding(header name: String, value: String, origin: HeaderOrigin = .plugin("endpoint mapping")) -> Endpoint {
        var copy = self
        copy.headers.set(name, value, origin: origin)
        return copy
    }

    /// The sample answer named `name`, or the default when nil; nil when no example has that name.
    public func sample(named name: String?) -> SampleResponse? {
        guard let name else { return sampleResponse }
        return examples.first { $0.name == name }?.sample
    }
}

extension Endpoint {
    /// The default mapping: base URL (the target's or the environment's) + path with placeholders
    /// filled + query; headers merged environment → group → endpoint; settings from the environment
    /// with the target's timeouts over them.
    public static func resolve(_ target: some TargetType, in environment: Environment) throws(DispatchError) -> Endpoint {
        let path: String
        do {
            path = try Template(target.path).render { name in
                target.pathParameters[name] ?? environment.variables[name]
            }
        } catch {
            throw DispatchError.invalidRequest("The path of \(target.identifier) has \(error.description).")
        }
        let url = try URLBuilder.url(base: target.baseURL ?? environment.baseURL, path: path, query: target.query)

        var headers = Headers()
        headers.merge(environment.headers, origin: .environment(environment.name))
        if let group = target.group, let groupHeaders = environment.groupHeaders[group] {
            headers.merge(groupHeaders, origin: .group(group))
        }
        // The target's own headers are the endpoint's; one a person edited keeps saying so.
        for field in target.headers.fields {
            headers.set(field.name, field.value, origin: field.origin == .edited ? .edited : .endpoint)
        }

        return Endpoint(
            identifier: target.identifier, url: url, method: target.method, headers: headers, body: target.body,
            sampleResponse: target.sampleResponse, examples: target.examples, validation: target.validation,
            expectsResponseBody: target.expectsResponseBody,
            settings: TransportSettings(environment: environment, timeouts: environment.timeouts.overridden(by: target.timeouts)))
    }
}

/// Joins a base URL, a path and query items without losing the base's own path or query.
public enum URLBuilder {
    /// `https://h/v3` + `/pet/7` + `[a=1]` → `https://h/v3/pet/7?a=1`.
    public static func url(base: URL, path: String, query: [QueryItem]) throws(DispatchError) -> URL {
        var text = base.absoluteString
        var baseQuery = ""
        if let mark = text.firstIndex(of: "?") {
            baseQuery = String(text[text.index(after: mark)...])
            text = String(text[..<mark])
        }
        if !path.isEmpty {
            if text.hasSuffix("/") && path.hasPrefix("/") {
                text.removeLast()
            } else if !text.hasSuffix("/") && !path.hasPrefix("/") {
                text += "/"
            }
            text += path
        }
        var queryText = baseQuery
        if !query.isEmpty {
            if !queryText.isEmpty { queryText += "&" }
            queryText += FormEncoding.encode(query)
        }
        if !queryText.isEmpty {
            text += (text.utf8.contains(UInt8(ascii: "?")) ? "&" : "?") + queryText
        }
        guard let url = URL(string: text), url.scheme != nil, url.host != nil else {
            throw DispatchError.invalidRequest("'\(text)' is not a valid URL.")
        }
        return url
    }
}
