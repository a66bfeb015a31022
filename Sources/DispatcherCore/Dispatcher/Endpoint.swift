import FoundationEssentials
import Synchronization

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
    package func sample(named name: String?) -> SampleResponse? {
        guard let name else { return sampleResponse }
        return examples.first { $0.name == name }?.sample
    }

    /// Whether the example named `name` answers resumed and retried attempts too.
    package func repeats(_ name: String?) -> Bool {
        guard let name else { return false }
        return examples.first { $0.name == name }?.repeats ?? false
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

        let group = target.group
        let groupHeaders = group.flatMap { environment.groupHeaders[$0] }
        let targetHeaders = target.headers
        var headers = Headers()
        headers.reserveCapacity(environment.headers.count + (groupHeaders?.count ?? 0) + targetHeaders.count)
        headers.merge(environment.headers, origin: .environment(environment.name))
        if let group, let groupHeaders {
            headers.merge(groupHeaders, origin: .group(group))
        }
        // The target's own headers are the endpoint's; one a person edited keeps saying so.
        for field in targetHeaders.fields {
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
package enum URLBuilder {
    /// `https://h/v3` + `/pet/7` + `[a=1]` → `https://h/v3/pet/7?a=1`.
    package static func url(base: URL, path: String, query: [QueryItem]) throws(DispatchError) -> URL {
        // Joined as UTF-8 bytes (the separators are ASCII): String searches, affixes and appends
        // cost more than all the rest.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(base.absoluteString.utf8.count + path.utf8.count + 64)
        bytes.append(contentsOf: base.absoluteString.utf8)
        var baseQuery: [UInt8] = []
        if let mark = bytes.firstIndex(of: UInt8(ascii: "?")) {
            baseQuery = Array(bytes[(mark + 1)...])
            bytes.removeSubrange(mark...)
        }
        if !path.isEmpty {
            let baseEndsWithSlash = bytes.last == UInt8(ascii: "/")
            let pathStartsWithSlash = path.utf8.first == UInt8(ascii: "/")
            if baseEndsWithSlash && pathStartsWithSlash {
                bytes.removeLast()
            } else if !baseEndsWithSlash && !pathStartsWithSlash {
                bytes.append(UInt8(ascii: "/"))
            }
            bytes.append(contentsOf: path.utf8)
        }
        if !baseQuery.isEmpty || !query.isEmpty {
            // The base's own query was cut off above: a `?` here came with the path.
            bytes.append(path.utf8Contains("?") ? UInt8(ascii: "&") : UInt8(ascii: "?"))
            bytes.append(contentsOf: baseQuery)
            if !query.isEmpty {
                if !baseQuery.isEmpty { bytes.append(UInt8(ascii: "&")) }
                FormEncoding.append(query, to: &bytes)
            }
        }
        let text = String(decoding: bytes, as: UTF8.self)
        guard let url = ParsedURLs.shared.url(for: text) else {
            throw DispatchError.invalidRequest("'\(text)' is not a valid URL.")
        }
        return url
    }
}

/// URLs already parsed, by their text: the same endpoint is requested again and again, and
/// FoundationEssentials' URL parser costs more than the rest of building the request. Only
/// absolute URLs (with a scheme and a host) are kept.
final class ParsedURLs: Sendable {
    /// The cache the URL builder uses.
    static let shared = ParsedURLs()
    /// Beyond this many different texts the cache starts afresh (URLs with ever-changing queries).
    static let limit = 256

    private let urls = Mutex<[String: URL]>([:])

    /// The absolute URL that `text` spells, or nil when it is not one.
    func url(for text: String) -> URL? {
        if let known = urls.withLock({ $0[text] }) { return known }
        guard let url = URL(string: text), url.scheme != nil, url.host != nil else { return nil }
        urls.withLock { urls in
            if urls.count >= ParsedURLs.limit { urls.removeAll(keepingCapacity: true) }
            urls[text] = url
        }
        return url
    }
}
