import CPSL
import DispatcherCore

/// The Public Suffix List through libpsl, as curl checks a cookie's `Domain`: the system's newest
/// list (`/usr/share/publicsuffix`), else the one built into libpsl. Here, not in DispatcherCore,
/// so a program using the core alone needs no C module (its jars refuse single labels only).
package enum PublicSuffixList {
    // libpsl's context is read-only once loaded, so any thread may ask it.
    private nonisolated(unsafe) static let context: OpaquePointer? = psl_latest(nil) ?? psl_builtin()

    /// Whether a response from `host` may set a cookie for `domain` (a domain `host` is within):
    /// false when `domain` is a public suffix (`co.uk`, `github.io`, a bare `com`) other than the
    /// host itself. Without a list, a domain of a single label is refused.
    package static let cookieDomainRule: CookieJar.DomainRule = { domain, host in
        guard let context else { return CookieJar.refusingSingleLabels(domain, host) }
        return psl_is_cookie_domain_acceptable(context, host, domain) == 1
    }

    /// An empty jar that refuses public suffixes.
    package static func jar() -> CookieJar { CookieJar(acceptingDomain: cookieDomainRule) }
}
