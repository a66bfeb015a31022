import FoundationEssentials
import SystemSupport
import TextSupport

/// Which proxy each request goes through, read from the environment the way curl reads it.
///
/// - `https://` URLs use `https_proxy`, else `HTTPS_PROXY`; `http://` URLs use `http_proxy`
///   only, as curl does: a CGI program gets `HTTP_PROXY` from a request's `Proxy:` header
///   ("httpoxy"), so it is ignored (and said so in `issues`); both fall back to `all_proxy` /
///   `ALL_PROXY`.
/// - A plain-http request goes to an HTTP proxy in absolute form (`GET http://host/path`), an
///   https one through a `CONNECT host:443` tunnel, as curl sends them.
/// - `no_proxy`, else `NO_PROXY`, lists hosts reached directly (see `NoProxyRule`).
/// - A proxy URL without a scheme is an HTTP proxy; without a port it is port 1080 (curl's default).
///   `socks5://` and `socks5h://` name a SOCKS5 proxy; `https://` proxies are not supported.
public struct ProxyConfiguration: Sendable, Hashable {
    /// The proxy for `http://` URLs, if any.
    public var http: ProxyServer?
    /// The proxy for `https://` URLs, if any.
    public var https: ProxyServer?
    /// Hosts reached without a proxy.
    public var noProxy: [NoProxyRule]
    /// Variables that were set but could not be used, with the reason (show them to the user).
    public var issues: [String]

    /// Makes a configuration.
    public init(http: ProxyServer? = nil, https: ProxyServer? = nil, noProxy: [NoProxyRule] = [], issues: [String] = []) {
        self.http = http
        self.https = https
        self.noProxy = noProxy
        self.issues = issues
    }

    /// No proxy at all.
    public static let none = ProxyConfiguration()

    /// Reads `http_proxy` (lowercase only), `HTTPS_PROXY`, `ALL_PROXY` and `NO_PROXY` (either case,
    /// lowercase first), as curl reads them.
    public static func fromEnvironment(_ variables: [String: String] = ProcessEnvironment.variables) -> ProxyConfiguration {
        var issues: [String] = []
        func value(_ names: String...) -> (name: String, value: String)? {
            for name in names {
                if let value = variables[name]?.trimmedSpaces, !value.isEmpty { return (name, value) }
            }
            return nil
        }
        func server(_ names: String...) -> ProxyServer? {
            for name in names {
                guard let text = variables[name]?.trimmedSpaces, !text.isEmpty else { continue }
                do {
                    return try ProxyServer(parsing: text)
                } catch {
                    issues.append("\(name) is ignored: \(error.reason)")
                }
            }
            return nil
        }
        let all = server("all_proxy", "ALL_PROXY")
        if value("http_proxy") == nil, value("HTTP_PROXY") != nil {
            issues.append("HTTP_PROXY is ignored, as curl ignores it (a CGI program gets it from a request's Proxy header); set http_proxy")
        }
        let http = server("http_proxy") ?? all
        let https = server("https_proxy", "HTTPS_PROXY") ?? all
        let noProxy = value("no_proxy", "NO_PROXY").map { NoProxyRule.parseList($0.value) } ?? []
        return ProxyConfiguration(http: http, https: https, noProxy: noProxy, issues: issues)
    }

    /// The proxy for `url`, or nil to connect directly.
    package func server(for url: URL) -> ProxyServer? {
        guard http != nil || https != nil else { return nil }  // the common case, asked on every request
        let scheme = url.scheme?.lowercased()
        guard let proxy = scheme == "https" ? https : scheme == "http" ? http : nil, let host = url.host else { return nil }
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        return noProxy.contains { $0.matches(host: host, port: port) } ? nil : proxy
    }
}

/// A proxy server from a URL such as `http://user:secret@proxy.corp:3128` or `socks5://127.0.0.1:1080`.
public struct ProxyServer: Sendable, Hashable, CustomStringConvertible {
    /// The protocol spoken to the proxy.
    public enum Kind: String, Sendable, Hashable {
        /// An HTTP proxy (absolute-form requests, CONNECT for https).
        case http
        /// A SOCKS5 proxy.
        case socks5
    }

    /// The protocol spoken to the proxy.
    public var kind: Kind
    /// The proxy's host.
    public var host: String
    /// The proxy's port.
    public var port: Int
    /// The user name for `Proxy-Authorization: Basic`, if any.
    public var username: String?
    /// The password for `Proxy-Authorization: Basic`, if any.
    public var password: String?

    /// Makes a proxy server.
    public init(kind: Kind = .http, host: String, port: Int, username: String? = nil, password: String? = nil) {
        self.kind = kind
        self.host = host
        self.port = port
        self.username = username
        self.password = password
    }

    /// Reads a proxy URL as curl does (no scheme means `http://`, no port means 1080).
    public init(parsing text: String) throws(ProxyFormatError) {
        let hasScheme = text.contains("://")
        guard let components = URLComponents(string: hasScheme ? text : "http://" + text) else {
            throw ProxyFormatError(text: text, reason: "the value is not a URL")
        }
        switch components.scheme?.lowercased() {
        case "http": kind = .http
        case "socks5", "socks5h": kind = .socks5
        case "https": throw ProxyFormatError(text: text, reason: "HTTPS proxies (https://) are not supported; use http://")
        case let other: throw ProxyFormatError(text: text, reason: "unsupported proxy scheme '\(other ?? "")'")
        }
        guard let host = components.host, !host.isEmpty else {
            throw ProxyFormatError(text: text, reason: "the URL names no host")
        }
        self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        port = components.port ?? 1080
        username = components.percentEncodedUser.flatMap { PercentEncoding.decode($0) }
        password = components.percentEncodedPassword.flatMap { PercentEncoding.decode($0) }
        if kind == .socks5, username != nil {
            throw ProxyFormatError(text: text, reason: "SOCKS5 proxies with a user name are not supported")
        }
    }

    /// The proxy URL with the password hidden.
    public var description: String {
        let user = username.map { password == nil ? "\($0)@" : "\($0):***@" } ?? ""
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "\(kind.rawValue)://\(user)\(shownHost):\(port)"
    }
}

/// A proxy variable that could not be read.
public struct ProxyFormatError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text given (it may hold a password: do not show it).
    public var text: String
    /// What is wrong with it.
    public var reason: String

    /// The reason.
    public var description: String { reason }
}
