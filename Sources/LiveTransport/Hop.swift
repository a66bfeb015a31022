import DispatcherCore
import FoundationEssentials
import TextSupport

/// One HTTP exchange of a request: the original, or one reached by following a redirect.
struct Hop: Sendable {
    /// The method.
    var method: DispatcherCore.HTTPMethod
    /// The URL.
    var url: URL
    /// The headers sent on the wire (the request's, plus the transport's defaults).
    var headers: Headers
    /// The body, if any.
    var body: Data?
    /// A body read from disk as it is sent, instead of `body`.
    var streamedBody: StreamedBody?

    /// Statuses whose `Location` is followed.
    static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]
    /// Headers that carry credentials by their name: never sent to another origin after a redirect
    /// (curl and browsers drop `Authorization` and `Cookie`). `crossOriginHeaders` drops more.
    static let credentialHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie"]
    /// Headers that describe a body, dropped when a redirect turns the request into a GET.
    static let contentHeaders: Set<String> = ["content-type", "content-length", "content-encoding", "transfer-encoding"]
    /// Headers that make a request conditional: the cache leaves such requests to the caller.
    static let conditionalHeaders = ["If-None-Match", "If-Modified-Since", "If-Match", "If-Unmodified-Since", "If-Range", "Range"]

    /// The offset a `Range: bytes=N-` header asks to continue from (a resumed download).
    var resumingFrom: Int? {
        guard let range = headers["Range"], range.hasPrefix("bytes="), range.hasSuffix("-") else { return nil }
        return Int(range.dropFirst(6).dropLast())
    }

    /// What identifies the hop when looking for a redirect loop: the method, the URL and the
    /// cookies it sends (the state a redirect can change).
    var loopKey: String { method.rawValue + " " + HTTPCache.key(url) + "\n" + headers.values(for: "Cookie").joined(separator: "; ") }

    /// Whether the caller made the request conditional itself.
    var isConditional: Bool { Hop.conditionalHeaders.contains(where: headers.contains) }

    /// The next hop for a redirect response, or nil when `response` is not a redirect to follow
    /// (not 301/302/303/307/308, or no `Location`). Throws when `Location` cannot be followed, or
    /// when following it would carry credentials where `rules` do not allow.
    func following(_ response: Response, rules: RedirectRules = RedirectRules()) throws(TransportError) -> Hop? {
        guard Hop.redirectStatuses.contains(response.status), let location = response.headers["Location"] else { return nil }
        guard let target = URL(string: location.trimmedSpaces, relativeTo: url)?.absoluteURL,
            let scheme = target.scheme?.lowercased(), target.host != nil
        else {
            throw TransportError(
                .badServerResponse,
                message: "\(url.absoluteString) redirected (\(response.status)) to '\(location)', which is not a valid URL.",
                partialResponse: response)
        }
        guard scheme == "http" || scheme == "https" else {
            throw TransportError(
                .badServerResponse,
                message: "\(url.absoluteString) redirected (\(response.status)) to \(scheme):, which is not HTTP; the redirect was not followed.",
                partialResponse: response)
        }
        var next = self
        next.url = target
        // 303 always becomes a GET; 301 and 302 turn a POST into a GET, as curl and browsers do.
        let becomesGet = (response.status == 303 && method != .head) || ((response.status == 301 || response.status == 302) && method == .post)
        if becomesGet {
            next.method = .get
            next.body = nil
            next.streamedBody = nil
            for name in Hop.contentHeaders { next.headers.remove(name) }
        }
        if !Hop.sameOrigin(url, target) {
            try next.leaveOrigin(from: self, response: response, rules: rules)
        }
        return next
    }

    /// This hop (the next one) goes to another origin than `previous`: every header that carries a
    /// credential is dropped (`crossOriginHeaders`), `Host` too. A request that carried credentials
    /// is not followed from https to http unless the environment allows it, and a body holding a
    /// secret value is never sent on to another origin.
    private mutating func leaveOrigin(from previous: Hop, response: Response, rules: RedirectRules) throws(TransportError) {
        let dropped = Hop.crossOriginHeaders(in: headers, secrets: rules.secrets)
        let bodyHoldsSecret = body.map { body in rules.secrets.contains { body.contains(utf8: $0) } } ?? false
        let carriedCredentials = !dropped.isEmpty || bodyHoldsSecret
            || previous.body.map { body in rules.secrets.contains { body.contains(utf8: $0) } } == true
        let from = previous.url.absoluteString
        if carriedCredentials, previous.url.scheme?.lowercased() == "https", url.scheme?.lowercased() == "http", !rules.allowsDowngrade {
            throw TransportError(
                .badServerResponse,
                message: "\(from) redirected (\(response.status)) to \(url.absoluteString), plain HTTP: a request carrying credentials "
                    + "is not followed from https to http (the environment's redirects: { allowDowngrade: true } allows it, without them).",
                partialResponse: response)
        }
        if bodyHoldsSecret {
            throw TransportError(
                .badServerResponse,
                message: "\(from) redirected (\(response.status)) to another origin, \(Hop.authority(url)), keeping the body: "
                    + "a body holding a secret is not sent on to another origin; the redirect was not followed.",
                partialResponse: response)
        }
        for name in Set(dropped.map { $0.name.lowercased() }) { headers.remove(name) }
        headers.remove("Host")
    }

    /// The headers that must not go to another origin: `Authorization`, `Proxy-Authorization` and
    /// `Cookie`, any header an auth plugin or adapter added, any header whose name marks it as a
    /// credential (`X-API-Key`, `X-Auth-Token` …, as the redactor masks them), and any header whose
    /// value holds one of `secrets`.
    static func crossOriginHeaders(in headers: Headers, secrets: [String]) -> [HeaderField] {
        headers.filter { field in
            if case .auth = field.origin { return true }
            if credentialHeaders.contains(field.name.lowercased()) || Redactor.standard.isSensitive(name: field.name) { return true }
            return secrets.contains { field.value.utf8Contains($0) }
        }
    }

    /// Same scheme, host and port (RFC 6454 origins).
    static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
        a.scheme?.lowercased() == b.scheme?.lowercased() && a.host?.lowercased() == b.host?.lowercased()
            && effectivePort(a) == effectivePort(b)
    }

    /// The URL's port, or its scheme's default.
    static func effectivePort(_ url: URL) -> Int {
        url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
    }

    /// `host:port` for messages.
    static func authority(_ url: URL) -> String {
        let host = url.host ?? url.absoluteString
        return "\(host.contains(":") ? "[\(host)]" : host):\(effectivePort(url))"
    }
}

/// What a redirect may carry, from the request: the secret values it may hold, and whether the
/// environment lets a request with credentials follow a redirect from https to http.
struct RedirectRules: Sendable {
    /// Secret values (each at least `Redactor.minimumSecretLength` long).
    var secrets: [String] = []
    /// `redirects: { allowDowngrade: true }`.
    var allowsDowngrade = false
}

extension Data {
    /// Whether the bytes hold `text`'s UTF-8 bytes.
    func contains(utf8 text: String) -> Bool {
        let pattern = Array(text.utf8)
        guard !pattern.isEmpty, pattern.count <= count else { return false }
        return withUnsafeBytes { UTF8Search.firstOffset(of: pattern, in: $0, from: 0) != nil }
    }
}
