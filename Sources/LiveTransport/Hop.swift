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
    /// Headers that carry credentials: never sent to another origin after a redirect (curl and
    /// browsers drop `Authorization` and `Cookie`; we also drop whatever an auth plugin added).
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

    /// What identifies the hop when looking for a redirect loop.
    var loopKey: String { method.rawValue + " " + HTTPCache.key(url) }

    /// Whether the caller made the request conditional itself.
    var isConditional: Bool { Hop.conditionalHeaders.contains(where: headers.contains) }

    /// The next hop for a redirect response, or nil when `response` is not a redirect to follow
    /// (not 301/302/303/307/308, or no `Location`). Throws when `Location` cannot be followed.
    func following(_ response: Response) throws(TransportError) -> Hop? {
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
            let credentials = next.headers.filter { field in
                if case .auth = field.origin { return true }
                return Hop.credentialHeaders.contains(field.name.lowercased())
            }
            for field in credentials { next.headers.remove(field.name) }
            next.headers.remove("Host")
        }
        return next
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
