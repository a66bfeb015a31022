import Catalog
import OAuth2

/// Where live OAuth 2.0 tokens are kept between runs (`auth.oauth2.persist: true`), by catalog,
/// service and environment (the state folder's `tokens.json`, readable by the owner only). Stub tokens are never
/// kept: they are fixtures.
public protocol TokenPersistence: Sendable {
    /// The token kept for an environment, if any.
    func token(for environment: EnvironmentKey) -> OAuth2Token?
    /// Keeps a token for an environment (nil forgets it).
    func keep(_ token: OAuth2Token?, for environment: EnvironmentKey)
}
