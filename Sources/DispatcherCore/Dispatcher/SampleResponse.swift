import FoundationEssentials

/// What a stub answers with (Moya's sample data): a status and body, a full response, or a
/// network error, so every path can be explored offline.
public enum SampleResponse: Sendable, Hashable {
    /// A status and a body.
    case status(Int, Data)
    /// A status, headers and a body.
    case response(status: Int, headers: Headers, body: Data)
    /// A status and headers, with the request itself as the body, as httpbin's `/anything`
    /// answers: an `echo: true` example. The body is what the dispatcher's `echo` makes of the
    /// request (`HTTPEcho`'s JSON of method, path, query, headers, form fields and files).
    case echo(status: Int, headers: Headers)
    /// A failure below HTTP.
    case networkError(TransportError)
    /// Nothing declared: a stub answers `DispatchError.noFixture` (kind `noFixture`), never an
    /// invented response, so a missing fixture cannot pass for an empty `200`.
    case noFixture

    /// An empty 200.
    public static let empty = SampleResponse.status(200, Data())
}

/// A sample response with a name the user can pick (`notFound`, `rateLimited`, `offline` …).
public struct NamedSample: Sendable, Hashable {
    /// The example's name.
    public var name: String
    /// What it answers.
    public var sample: SampleResponse
    /// Whether it also answers the attempts a handler resumes or retries (a session revoked for
    /// good), instead of leaving them to the default sample (an expired session, refreshed).
    public var repeats: Bool

    /// Makes a named sample.
    public init(name: String, sample: SampleResponse, repeats: Bool = false) {
        self.name = name
        self.sample = sample
        self.repeats = repeats
    }
}
