import FoundationEssentials

/// An access token the token endpoint issued (RFC 6749 §5.1); Codable to be kept between runs.
public struct OAuth2Token: Sendable, Hashable, Codable {
    /// The access token.
    public var accessToken: String
    /// Its type (`Bearer`).
    public var tokenType: String
    /// When it expires, if the server said (`expires_in`).
    public var expiresAt: Date?
    /// The refresh token, if one came (a rotated one replaces the old).
    public var refreshToken: String?
    /// The scopes granted, if the server said.
    public var scope: String?
    /// The OpenID Connect ID token (a JWT about the person signed in), when the provider sent one.
    public var idToken: String?

    /// Makes a token.
    public init(
        accessToken: String, tokenType: String = "Bearer", expiresAt: Date? = nil, refreshToken: String? = nil, scope: String? = nil,
        idToken: String? = nil
    ) {
        self.idToken = idToken
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresAt = expiresAt
        self.refreshToken = refreshToken
        self.scope = scope
    }

    /// Whether it is expired, or will be within `margin`, at `now`.
    package func isExpired(at now: Date, margin: Duration = .zero) -> Bool {
        guard let expiresAt else { return false }
        let seconds = Double(margin.components.seconds) + Double(margin.components.attoseconds) / 1e18
        return now.addingTimeInterval(seconds) >= expiresAt
    }
}

/// Why no token came (RFC 6749 §5.2), in words a person can act on.
package struct OAuth2Error: Error, Sendable, Hashable, CustomStringConvertible {
    /// The error code (`invalid_client`, `invalid_grant` …), or `transport` / `invalid_response`.
    package var code: String
    /// What went wrong.
    package var message: String
    /// The token endpoint's status, when it answered.
    package var status: Int?

    /// Makes an error.
    package init(code: String, message: String, status: Int? = nil) {
        self.code = code
        self.message = message
        self.status = status
    }

    package var description: String { message }

    /// The sentence for an RFC 6749 §5.2 error code.
    static func explanation(_ code: String) -> String {
        switch code {
        case "invalid_client": "the client id or secret was refused (check clientID, clientSecret and clientAuth)"
        case "invalid_grant": "the grant was refused: the credentials, code or refresh token are wrong, expired or revoked"
        case "unauthorized_client": "this client may not use this grant type"
        case "unsupported_grant_type": "the server does not support this grant type"
        case "invalid_scope": "a scope asked for is unknown or not allowed"
        case "invalid_request": "the token request is malformed (a parameter is missing or repeated)"
        default: "the server refused the token request"
        }
    }
}
