import FoundationEssentials
import Synchronization
import TextSupport

/// Cookies set by responses and sent with later requests, by the rules of RFC 6265: host-only and
/// domain cookies (never for a public suffix: see `DomainRule`), path matching, Secure (neither set
/// over http nor sent over it, but for a loopback host, as curl and browsers), Expires and
/// Max-Age (Max-Age wins; a past date deletes), and replacement by name, domain and path.
package final class CookieJar: Sendable {
    /// Whether a response from `host` may set a cookie for `domain`, a domain `host` is within
    /// (§5.3 step 5: not a public suffix).
    package typealias DomainRule = @Sendable (_ domain: String, _ host: String) -> Bool

    /// Without a public suffix list: a domain of one label (`com`) is refused, unless it is the host.
    package static let refusingSingleLabels: DomainRule = { domain, host in domain.contains(".") || domain == host }

    private let cookies = Mutex<[Cookie]>([])
    /// Hears every change (to keep the jar between runs).
    private let observer = Mutex<(@Sendable ([Cookie]) -> Void)?>(nil)
    private let acceptsDomain: DomainRule

    /// An empty jar; `acceptingDomain` decides which `Domain` attributes are allowed (Catalog's
    /// `PublicSuffixList.cookieDomainRule` refuses every public suffix, with libpsl).
    package init(acceptingDomain: @escaping DomainRule = CookieJar.refusingSingleLabels) {
        acceptsDomain = acceptingDomain
    }

    /// Calls `onChange` with every cookie after each change (a response set or deleted one, a
    /// removal, an addition), from the thread that changed it.
    package func observe(_ onChange: @escaping @Sendable ([Cookie]) -> Void) {
        observer.withLock { $0 = onChange }
    }

    /// Adds cookies (read from a file, kept from an earlier run), replacing any of the same name, domain and path.
    package func add(_ added: [Cookie]) {
        guard !added.isEmpty else { return }
        cookies.withLock { cookies in
            for cookie in added {
                cookies.removeAll { $0.name == cookie.name && $0.domain == cookie.domain && $0.path == cookie.path }
                cookies.append(cookie)
            }
        }
        changed()
    }

    private func changed() {
        guard let onChange = observer.withLock({ $0 }) else { return }
        onChange(cookies.withLock { $0 })
    }

    /// Every cookie that has not expired at `now`, in the order they would be sent.
    package func all(at now: Date) -> [Cookie] {
        cookies.withLock { cookies in
            cookies.removeAll { $0.expires.map { $0 <= now } ?? false }
            return cookies
        }
    }

    /// Removes one cookie (by its name, domain and path).
    package func remove(_ cookie: Cookie) {
        cookies.withLock { cookies in cookies.removeAll { $0.name == cookie.name && $0.domain == cookie.domain && $0.path == cookie.path } }
        changed()
    }

    /// Removes the cookies named `name` (every cookie when nil).
    package func remove(named name: String? = nil) {
        cookies.withLock { cookies in cookies.removeAll { name == nil || $0.name == name } }
        changed()
    }

    /// Stores what `Set-Cookie` headers of a response to `url` ask for.
    package func store(setCookie values: [String], from url: URL, at now: Date) {
        guard let host = url.host?.lowercased(), !host.isEmpty else { return }
        let isSecure = Self.isSecureChannel(url, host: host)
        for value in values {
            guard let cookie = Self.parse(value, host: host, requestPath: url.path, secureChannel: isSecure, at: now, acceptsDomain: acceptsDomain)
            else { continue }
            cookies.withLock { cookies in
                let index = cookies.firstIndex { $0.name == cookie.name && $0.domain == cookie.domain && $0.path == cookie.path }
                var stored = cookie
                if let index {
                    stored.created = cookies[index].created  // §5.3 step 11: the creation time is kept
                    cookies.remove(at: index)
                }
                // An expiry in the past deletes the cookie (and is not stored).
                if let expires = stored.expires, expires <= now { return }
                cookies.append(stored)
            }
        }
        changed()
    }

    /// The `Cookie` header value for a request to `url`; nil when no cookie matches.
    package func header(for url: URL, at now: Date) -> String? {
        guard let host = url.host?.lowercased() else { return nil }
        let isSecure = Self.isSecureChannel(url, host: host)
        let path = url.path.isEmpty ? "/" : url.path
        let matching = all(at: now).filter { cookie in
            (cookie.isHostOnly ? host == cookie.domain : Self.domainMatches(host, cookie.domain))
                && Self.pathMatches(path, cookie.path) && (!cookie.isSecure || isSecure)
        }
        guard !matching.isEmpty else { return nil }
        // §5.4: longer paths first, then earlier creation.
        let ordered = matching.enumerated().sorted { left, right in
            if left.element.path.count != right.element.path.count { return left.element.path.count > right.element.path.count }
            if left.element.created != right.element.created { return left.element.created < right.element.created }
            return left.offset < right.offset
        }
        return ordered.map { "\($0.element.name)=\($0.element.value)" }.joined(separator: "; ")
    }

    // MARK: RFC 6265 rules

    /// §5.2 and §5.3: one `Set-Cookie` value as a cookie for `host`, or nil when it must be ignored.
    static func parse(
        _ header: String, host: String, requestPath: String, secureChannel: Bool, at now: Date, acceptsDomain: DomainRule = refusingSingleLabels
    ) -> Cookie? {
        var parts = header.split(separator: ";", omittingEmptySubsequences: false).map { String($0) }
        guard !parts.isEmpty else { return nil }
        let pair = parts.removeFirst()
        guard let equals = pair.firstIndex(of: "=") else { return nil }
        let name = pair[..<equals].trimmedSpaces
        let value = pair[pair.index(after: equals)...].trimmedSpaces
        guard !name.isEmpty else { return nil }
        var cookie = Cookie(name: name, value: value, domain: host, path: defaultPath(requestPath), created: now)
        var maxAge: Date?
        var expires: Date?
        for attribute in parts {
            let key: String
            let argument: String
            if let equals = attribute.firstIndex(of: "=") {
                key = attribute[..<equals].trimmedSpaces.lowercased()
                argument = attribute[attribute.index(after: equals)...].trimmedSpaces
            } else {
                key = attribute.trimmedSpaces.lowercased()
                argument = ""
            }
            switch key {
            case "expires":
                expires = parseDate(argument) ?? expires
            case "max-age":
                guard let seconds = Int(argument) else { continue }
                maxAge = seconds <= 0 ? Date(timeIntervalSince1970: 0) : now.addingTimeInterval(Double(seconds))
            case "domain":
                var domain = argument.lowercased()
                if domain.hasPrefix(".") { domain.removeFirst() }
                guard !domain.isEmpty else { continue }
                // A domain the host is not within is refused, as is a public suffix (§5.3 step 5).
                guard domainMatches(host, domain), acceptsDomain(domain, host) else { return nil }
                cookie.domain = domain
                cookie.isHostOnly = false
            case "path":
                cookie.path = argument.hasPrefix("/") ? argument : defaultPath(requestPath)
            case "secure":
                cookie.isSecure = true
            case "httponly":
                cookie.isHTTPOnly = true
            default:
                continue
            }
        }
        // A Secure cookie set over http is ignored (RFC 6265bis §5.6, what browsers do).
        if cookie.isSecure, !secureChannel { return nil }
        cookie.expires = maxAge ?? expires
        return cookie
    }

    /// Whether `Secure` cookies may be set and sent: https, or a loopback host (`localhost`,
    /// 127.0.0.0/8, `::1`), which browsers and curl treat as a secure context.
    static func isSecureChannel(_ url: URL, host: String) -> Bool {
        if url.scheme?.lowercased() == "https" { return true }
        let bare = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        let isIPv4Loopback = bare.hasPrefix("127.") && bare.split(separator: ".").count == 4
            && bare.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E }
        return bare == "localhost" || bare.hasSuffix(".localhost") || bare == "::1" || isIPv4Loopback
    }

    /// §5.1.3: `host` is `domain` or ends with `.domain` (IP addresses match only themselves).
    static func domainMatches(_ host: String, _ domain: String) -> Bool {
        if host == domain { return true }
        let isAddress = host.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E } || host.contains(":")
        return !isAddress && host.hasSuffix("." + domain)
    }

    /// §5.1.4: the cookie path is a prefix of the request path, at a `/` boundary.
    static func pathMatches(_ requestPath: String, _ cookiePath: String) -> Bool {
        if requestPath == cookiePath { return true }
        guard requestPath.hasPrefix(cookiePath) else { return false }
        return cookiePath.hasSuffix("/") || requestPath.dropFirst(cookiePath.count).hasPrefix("/")
    }

    /// §5.1.4: the directory of the request path.
    static func defaultPath(_ requestPath: String) -> String {
        guard requestPath.hasPrefix("/"), let slash = requestPath.lastIndex(of: "/"), slash != requestPath.startIndex else { return "/" }
        return String(requestPath[..<slash])
    }

    /// IMF-fixdate and the older `Wed, 21-Oct-2015 07:28:00 GMT` form.
    static func parseDate(_ text: String) -> Date? {
        HTTPDate.parse(text) ?? HTTPDate.parse(text.replacing("-", with: " "))
    }
}
