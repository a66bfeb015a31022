import FoundationEssentials
import TextSupport

/// Keeps a `CookieJar`: stores `Set-Cookie` of every response and adds the matching cookies to
/// every request (after headers the request set itself, which win). The transport goes through the
/// same jar on each redirect it follows (`RequestOptions.cookies`).
package struct CookiePlugin: Plugin {
    /// The jar with how it is used (one per service, environment and mode).
    let cookies: RedirectCookies
    /// The jar.
    package var jar: CookieJar { cookies.jar }

    /// A plugin keeping `jar`. Cookie values are registered in `secrets` (a session cookie is a
    /// credential): masked wherever they appear, echoed in a body too. `now` tells the time
    /// (injected by tests).
    package init(jar: CookieJar, secrets: SecretRegistry? = nil, now: @escaping @Sendable () -> Date = { Date() }) {
        cookies = RedirectCookies(jar: jar, secrets: secrets, now: now)
    }

    package func prepare(_ request: inout Request, target: any TargetType) {
        cookies.apply(to: &request.headers, for: request.url)
        request.options.cookies = cookies
    }

    package func didReceive(_ result: Result<Response, DispatchError>, request: Request, target: any TargetType) {
        // A response mapped to an error (a 401, a body-less 200) sets cookies all the same.
        let received: Response?
        switch result {
        case .success(let response): received = response
        case .failure(let error): received = error.response
        }
        guard let response = received else { return }
        cookies.store(response.headers, from: response.url ?? request.url)
    }
}

/// A cookie jar as every hop of a request uses it: the response of each hop (a redirect's too)
/// stores its `Set-Cookie` before the next hop is sent, and each hop carries the jar's cookies
/// for its own URL, as `curl -L` with a cookie jar does.
package struct RedirectCookies: Sendable {
    /// The jar.
    package let jar: CookieJar
    /// Where cookie values are registered as secrets.
    let secrets: SecretRegistry?
    let now: @Sendable () -> Date

    /// Uses `jar`, registering every cookie value in `secrets`; `now` tells the time.
    package init(jar: CookieJar, secrets: SecretRegistry? = nil, now: @escaping @Sendable () -> Date = { Date() }) {
        self.jar = jar
        self.secrets = secrets
        self.now = now
    }

    /// Gives `headers` the jar's `Cookie` for `url`, replacing the one the jar gave an earlier hop.
    /// A `Cookie` header the request set itself wins (and is not mixed with the jar's).
    package func apply(to headers: inout Headers, for url: URL) {
        if headers.field(named: "Cookie")?.origin == RedirectCookies.origin { headers.remove("Cookie") }
        guard !headers.contains("Cookie"), let value = jar.header(for: url, at: now()) else { return }
        secrets?.register(RedirectCookies.values(ofPairs: value.split(separator: ";")))
        headers.set("Cookie", value, origin: RedirectCookies.origin)
    }

    /// Stores the `Set-Cookie` fields of `headers`, a response from `url`.
    package func store(_ headers: Headers, from url: URL) {
        let values = headers.filter { Headers.sameName($0.name, "Set-Cookie") }.map(\.value)
        guard !values.isEmpty else { return }
        secrets?.register(RedirectCookies.values(ofPairs: values.compactMap { $0.split(separator: ";").first }))
        jar.store(setCookie: values, from: url, at: now())
    }

    /// Where a header the jar adds comes from.
    static let origin = HeaderOrigin.plugin("cookie jar")

    /// The values of `name=value` pairs.
    static func values(ofPairs pairs: [Substring]) -> [String] {
        pairs.compactMap { pair in
            guard let equals = pair.firstIndex(of: "=") else { return nil }
            return String(pair[pair.index(after: equals)...]).trimmedSpaces
        }
    }
}
