import FoundationEssentials

/// A live OAuth 2.0 token as kept between runs (`auth.oauth2.persist: true`).
public struct StoredToken: Sendable, Hashable, Codable {
    /// The access token.
    public var accessToken: String
    /// Its type (`Bearer`).
    public var tokenType: String
    /// When it expires, if known.
    public var expiresAt: Date?
    /// The refresh token, if one came.
    public var refreshToken: String?
    /// The scopes granted, if known.
    public var scope: String?

    /// Makes a stored token.
    public init(accessToken: String, tokenType: String = "Bearer", expiresAt: Date? = nil, refreshToken: String? = nil, scope: String? = nil) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresAt = expiresAt
        self.refreshToken = refreshToken
        self.scope = scope
    }
}

/// Where live tokens are kept between runs, by service and environment (the state folder's
/// `tokens.json`, readable by the owner only). Stub tokens are never kept: they are fixtures.
public protocol TokenPersistence: Sendable {
    /// The token kept for an environment, if any.
    func token(for environment: EnvironmentKey) -> StoredToken?
    /// Keeps a token for an environment (nil forgets it).
    func keep(_ token: StoredToken?, for environment: EnvironmentKey)
}
