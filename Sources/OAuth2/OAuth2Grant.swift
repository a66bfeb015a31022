import FoundationEssentials

/// How a client gets a token from the token endpoint (RFC 6749 §4).
package enum OAuth2Grant: Sendable, Hashable {
    /// The client's own credentials (§4.4): service APIs.
    case clientCredentials
    /// A user's name and password (§4.3): legacy first-party apps.
    case password(username: String, password: String)
    /// The device flow (RFC 8628): the user approves on another device with a code shown here.
    case deviceCode(authorizationURL: URL)
    /// The authorization code flow with PKCE (RFC 6749 §4.1, RFC 7636) through a loopback
    /// redirect on 127.0.0.1 (RFC 8252): the user signs in in a browser.
    case authorizationCode(authorizationURL: URL)

    /// The `grant_type` parameter.
    package var type: String {
        switch self {
        case .clientCredentials: "client_credentials"
        case .password: "password"
        case .deviceCode: "urn:ietf:params:oauth:grant-type:device_code"
        case .authorizationCode: "authorization_code"
        }
    }
}

/// How the client authenticates at the token endpoint (RFC 6749 §2.3.1).
package enum OAuth2ClientAuthentication: String, Sendable, Hashable, CaseIterable {
    /// HTTP Basic with the form-encoded id and secret (`client_secret_basic`, the default).
    case basic
    /// `client_id` and `client_secret` in the form body (`client_secret_post`).
    case post
}

/// What the client needs to ask for tokens.
package struct OAuth2Configuration: Sendable, Hashable {
    /// The token endpoint.
    package var tokenURL: URL
    /// The grant used to sign in.
    package var grant: OAuth2Grant
    /// The client id.
    package var clientID: String
    /// The client secret, if the client has one.
    package var clientSecret: String?
    /// How the client authenticates.
    package var clientAuthentication: OAuth2ClientAuthentication
    /// Scopes asked for.
    package var scopes: [String]
    /// The `audience` parameter some servers want (Auth0 and others).
    package var audience: String?
    /// More parameters for the token request.
    package var parameters: [(String, String)]
    /// Tokens are refreshed this long before they expire.
    package var refreshMargin: Duration

    /// Makes a configuration.
    package init(
        tokenURL: URL, grant: OAuth2Grant, clientID: String, clientSecret: String? = nil,
        clientAuthentication: OAuth2ClientAuthentication = .basic, scopes: [String] = [], audience: String? = nil,
        parameters: [(String, String)] = [], refreshMargin: Duration = .seconds(30)
    ) {
        self.tokenURL = tokenURL
        self.grant = grant
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.clientAuthentication = clientAuthentication
        self.scopes = scopes
        self.audience = audience
        self.parameters = parameters
        self.refreshMargin = refreshMargin
    }

    package static func == (lhs: OAuth2Configuration, rhs: OAuth2Configuration) -> Bool {
        lhs.tokenURL == rhs.tokenURL && lhs.grant == rhs.grant && lhs.clientID == rhs.clientID && lhs.clientSecret == rhs.clientSecret
            && lhs.clientAuthentication == rhs.clientAuthentication && lhs.scopes == rhs.scopes && lhs.audience == rhs.audience
            && lhs.parameters.map { "\($0.0)=\($0.1)" } == rhs.parameters.map { "\($0.0)=\($0.1)" } && lhs.refreshMargin == rhs.refreshMargin
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(tokenURL)
        hasher.combine(clientID)
    }
}
