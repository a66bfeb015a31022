import FoundationEssentials

/// One stored cookie (RFC 6265 §5.3).
public struct Cookie: Sendable, Hashable, Codable {
    /// The name.
    public var name: String
    /// The value, as the server set it.
    public var value: String
    /// The host it was set for (host-only) or the domain it covers, lowercased, no leading dot.
    public var domain: String
    /// Sent only to exactly `domain` (no `Domain` attribute was given).
    public var isHostOnly: Bool
    /// The path it covers.
    public var path: String
    /// Sent only over https.
    public var isSecure: Bool
    /// Not for scripts (kept for display; a terminal client has none).
    public var isHTTPOnly: Bool
    /// When it expires; nil for a session cookie (it lasts as long as the jar).
    public var expires: Date?
    /// When it was first set (orders cookies of equal path length).
    public var created: Date

    /// Makes a cookie.
    public init(
        name: String, value: String, domain: String, isHostOnly: Bool = true, path: String = "/", isSecure: Bool = false,
        isHTTPOnly: Bool = false, expires: Date? = nil, created: Date = Date(timeIntervalSince1970: 0)
    ) {
        self.name = name
        self.value = value
        self.domain = domain
        self.isHostOnly = isHostOnly
        self.path = path
        self.isSecure = isSecure
        self.isHTTPOnly = isHTTPOnly
        self.expires = expires
        self.created = created
    }
}
