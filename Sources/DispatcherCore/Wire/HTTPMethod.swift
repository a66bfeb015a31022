/// An HTTP request method.
public enum HTTPMethod: String, Sendable, Hashable, CaseIterable, Codable {
    case get = "GET"
    case post = "POST"
    case put = "PUT"
    case patch = "PATCH"
    case delete = "DELETE"
    case head = "HEAD"
    case options = "OPTIONS"

    /// Whether sending the request twice has the same effect as sending it once (RFC 9110 §9.2.2).
    public var isIdempotent: Bool {
        switch self {
        case .get, .head, .options, .put, .delete: true
        case .post, .patch: false
        }
    }
}

/// One `name=value` pair of a query string or a form body.
public struct QueryItem: Sendable, Hashable, Codable {
    /// The name, not percent-encoded.
    public var name: String
    /// The value, not percent-encoded; nil for a bare `name`.
    public var value: String?

    /// Makes a query item.
    public init(name: String, value: String?) {
        self.name = name
        self.value = value
    }
}
