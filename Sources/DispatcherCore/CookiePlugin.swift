import FoundationEssentials
import TextSupport

/// Keeps a `CookieJar`: stores `Set-Cookie` of every response and adds the matching cookies to
/// every request (after headers the request set itself, which win).
public struct CookiePlugin: Plugin {
    /// The jar (one per service, environment and mode).
    public let jar: CookieJar
    /// Where cookie values are registered as secrets (a session cookie is a credential): masked
    /// wherever they appear, echoed in a body too.
    public let secrets: SecretRegistry?
    private let now: @Sendable () -> Date

    /// A plugin keeping `jar`; `now` tells the time (injected by tests).
    public init(jar: CookieJar, secrets: SecretRegistry? = nil, now: @escaping @Sendable () -> Date = { Date() }) {
        self.jar = jar
        self.secrets = secrets
        self.now = now
    }

    public func prepare(_ request: inout Request, target: any TargetType) {
        guard !request.headers.contains("Cookie"), let value = jar.header(for: request.url, at: now()) else { return }
        secrets?.register(CookiePlugin.values(ofPairs: value.split(separator: ";")))
        request.headers.set("Cookie", value, origin: .plugin("cookie jar"))
    }

    /// The values of `name=value` pairs.
    static func values(ofPairs pairs: [Substring]) -> [String] {
        pairs.compactMap { pair in
            guard let equals = pair.firstIndex(of: "=") else { return nil }
            return String(pair[pair.index(after: equals)...]).trimmedSpaces
        }
    }

    public func didReceive(_ result: Result<Response, DispatchError>, request: Request, target: any TargetType) {
        // A response mapped to an error (a 401, a body-less 200) sets cookies all the same.
        let received: Response?
        switch result {
        case .success(let response): received = response
        case .failure(let error): received = error.response
        }
        guard let response = received else { return }
        let values = response.headers.filter { Headers.sameName($0.name, "Set-Cookie") }.map(\.value)
        guard !values.isEmpty else { return }
        secrets?.register(CookiePlugin.values(ofPairs: values.compactMap { $0.split(separator: ";").first }))
        jar.store(setCookie: values, from: response.url ?? request.url, at: now())
    }
}
