import Catalog
import DispatcherCore

/// Where live cookie jars are kept between runs (`cookies: { persist: true }`), by catalog, service
/// and environment (the state folder's `cookies.json`, readable by the owner only), so the explorer and
/// `call` share one jar. Stub jars are never kept: their cookies come from fixtures.
public protocol CookiePersistence: Sendable {
    /// The cookies kept for an environment.
    func cookies(for environment: EnvironmentKey) -> [Cookie]
    /// Keeps an environment's cookies (an empty list forgets them).
    func keep(_ cookies: [Cookie], for environment: EnvironmentKey)
}
