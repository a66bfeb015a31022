import Catalog
import DispatcherCore
import FoundationEssentials
import JSONSupport
import OAuth2

/// A token a session holds, for the token view: where it came from, when it expires, and for a
/// JWT its header and claims, with its signature checked against the issuer's keys when they are known.
package struct SessionToken: Sendable, Hashable {
    /// The source of an OpenID Connect ID token, beside its access token's.
    package static let idTokenSource = "oauth2 id_token"

    /// `oauth2`, `oauth2 id_token`, or `auth.refresh (PETSTORE_TOKEN)`.
    package var source: String
    /// The token itself (shown masked unless secrets are revealed).
    package var value: String
    /// Its type (`Bearer`), when known.
    package var type: String?
    /// The scopes granted, when known.
    package var scope: String?
    /// When it expires: the token endpoint's `expires_in`, else a JWT's `exp`.
    package var expiresAt: Date?
    /// Whether a refresh token came with it.
    package var hasRefreshToken: Bool
    /// A JWT's header and claims.
    package var jwt: (header: JSONValue, claims: JSONValue)?
    /// A JWT's signature, once checked (`checkedTokens`).
    package var signature: JWTSignature?

    /// Makes a token description, decoding `value` when it is a JWT.
    package init(source: String, value: String, type: String? = nil, scope: String? = nil, expiresAt: Date? = nil, hasRefreshToken: Bool = false) {
        self.source = source
        self.value = value
        self.type = type
        self.scope = scope
        self.hasRefreshToken = hasRefreshToken
        jwt = Self.decodeJWT(value)
        if expiresAt == nil, case .number(let text)? = jwt?.claims["exp"], let seconds = Double(text) {
            self.expiresAt = Date(timeIntervalSince1970: seconds)
        } else {
            self.expiresAt = expiresAt
        }
    }

    package static func == (lhs: SessionToken, rhs: SessionToken) -> Bool {
        lhs.source == rhs.source && lhs.value == rhs.value && lhs.expiresAt == rhs.expiresAt && lhs.scope == rhs.scope
            && lhs.signature == rhs.signature
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(source)
        hasher.combine(value)
    }

    /// The header and claims of a compact JWS (`xxx.yyy.zzz`, base64url JSON), if `token` is one.
    package static func decodeJWT(_ token: String) -> (header: JSONValue, claims: JSONValue)? {
        JWTParts(token).map { ($0.header, $0.claims) }
    }
}

extension ServiceSession {
    /// The tokens this session holds for requests of `mode`: the OAuth 2.0 token and the
    /// `auth.refresh` token.
    package func tokens(stubbed: Bool) -> [SessionToken] {
        var tokens: [SessionToken] = []
        if let oauth2, let token = (stubbed ? oauth2.stub : oauth2.live)?.token {
            tokens.append(SessionToken(
                source: "oauth2", value: token.accessToken, type: token.tokenType, scope: token.scope, expiresAt: token.expiresAt,
                hasRefreshToken: token.refreshToken != nil))
            // Who signed in, as the provider says: its claims (sub, email, exp …) show like any JWT's.
            if let idToken = token.idToken { tokens.append(SessionToken(source: SessionToken.idTokenSource, value: idToken, type: "OpenID Connect ID token")) }
        }
        if let rule = service.authRefresh, let token = credentials.token {
            tokens.append(SessionToken(source: "auth.refresh (\(rule.into))", value: token))
        }
        return tokens
    }

    /// The tokens, each JWT's signature checked: a live OAuth 2.0 token against the issuer's keys
    /// (fetched once), a stub token never (fixtures are not signed by anyone).
    package func checkedTokens(stubbed: Bool) async -> [SessionToken] {
        var tokens = tokens(stubbed: stubbed)
        for index in tokens.indices where tokens[index].jwt != nil {
            if stubbed {
                tokens[index].signature = .unchecked("a stub token: fixtures are not signed by the issuer")
            } else if [SessionToken.idTokenSource, "oauth2"].contains(tokens[index].source), let keys = oauth2?.keys {
                tokens[index].signature = await keys.signature(of: tokens[index].value)
            } else {
                tokens[index].signature = .unchecked("no issuer is known for this token")
            }
        }
        return tokens
    }

    /// Signs in with OAuth 2.0 now (live), replacing any token held; the new token, or why not.
    package func signInNow() async throws(DispatchError) -> SessionToken {
        guard let live = oauth2?.live else {
            throw DispatchError(kind: .invalidRequest, message: "\(service.id) does not sign in with OAuth 2.0 (auth.oauth2) over the network.", source: "oauth2")
        }
        live.signOut()
        do throws(OAuth2Error) {
            let token = try await live.validToken()
            secretRegistry.register(token.accessToken)
            if let idToken = token.idToken { secretRegistry.register(idToken) }
            return SessionToken(
                source: "oauth2", value: token.accessToken, type: token.tokenType, scope: token.scope, expiresAt: token.expiresAt,
                hasRefreshToken: token.refreshToken != nil)
        } catch {
            throw DispatchError(kind: .unauthorized, message: "Could not sign in with OAuth 2.0: \(error.message)", status: error.status, source: "oauth2")
        }
    }

    /// Forgets every token of `mode` (and the cookies): the next request signs in again.
    package func signOut(stubbed: Bool) {
        if let oauth2 { (stubbed ? oauth2.stub : oauth2.live)?.signOut() }
        credentials.clear()
        cookies.remove()
    }
}
