import FoundationEssentials

/// Keeps a `CookieJar`: stores `Set-Cookie` of every response and adds the matching cookies to
/// every request (after headers the request set itself, which win).
public struct CookiePlugin: Plugin {
    /// The jar (one per service, environment and mode).
    public let jar: CookieJar
    private let now: @Sendable () -> Date

    /// A plugin keeping `jar`; `now` tells the time (injected by tests).
    public init(jar: CookieJar, now: @escaping @Sendable () -> Date = { Date() }) {
        self.jar = jar
        self.now = now
    }

    public func prepare(_ request: inout Request, target: any TargetType) {
        guard !request.headers.contains("Cookie"), let value = jar.header(for: request.url, at: now()) else { return }
        request.headers.set("Cookie", value, origin: .plugin("cookie jar"))
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
        jar.store(setCookie: values, from: response.url ?? request.url, at: now())
    }
}
