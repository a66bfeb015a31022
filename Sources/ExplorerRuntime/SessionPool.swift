import Catalog
import DispatcherCore
import Sessions
import Synchronization

/// One `ServiceSession` per service, environment and mode, made on first use and kept, so
/// credentials refreshed in an environment stay there, and a token a stub refresh "obtained" is
/// never sent live.
final class SessionPool: Sendable {
    /// Which session: a service in an environment, stub or live.
    struct Key: Hashable {
        var environment: EnvironmentKey
        var mode: RequestMode
    }

    private let catalog: Mutex<CatalogSet>
    private let secrets: SecretStore
    private let transport: (any Transport)?
    private let plugins: [any Plugin]
    private let clock: DispatchClock
    private let secretRegistry: SecretRegistry
    /// Shows a sign-in that waits for the person (the OAuth 2.0 device flow's code).
    private let onSignInPrompt: (@Sendable (SignInPrompt) -> Void)?
    /// Keeps live OAuth 2.0 tokens between runs (`persist: true`).
    private let tokens: (any TokenPersistence)?
    /// Keeps live cookie jars between runs (`cookies: { persist: true }`).
    private let cookies: (any CookiePersistence)?
    private let sessions = Mutex<[Key: ServiceSession]>([:])

    init(
        catalog: CatalogSet, secrets: SecretStore, transport: (any Transport)?, plugins: [any Plugin], clock: DispatchClock,
        secretRegistry: SecretRegistry, onSignInPrompt: (@Sendable (SignInPrompt) -> Void)? = nil, tokens: (any TokenPersistence)? = nil,
        cookies: (any CookiePersistence)? = nil
    ) {
        self.cookies = cookies
        self.secretRegistry = secretRegistry
        self.onSignInPrompt = onSignInPrompt
        self.tokens = tokens
        self.catalog = Mutex(catalog)
        self.secrets = secrets
        self.transport = transport
        self.plugins = plugins
        self.clock = clock
    }

    /// Adds a service (a scratch request's), replacing one of the same id and its sessions.
    func add(_ service: Service) {
        catalog.withLock { catalog in
            catalog.services.removeAll { $0.id == service.id }
            catalog.services.append(service)
        }
        sessions.withLock { sessions in sessions = sessions.filter { $0.key.environment.service != service.id } }
    }

    /// The session for a service in an environment and mode, nil when the catalog has neither.
    func session(_ environment: EnvironmentKey, mode: RequestMode) -> ServiceSession? {
        let key = Key(environment: environment, mode: mode)
        if let session = sessions.withLock({ $0[key] }) { return session }
        guard let (service, environment) = catalog.withLock({ $0.environment(environment) }) else { return nil }
        let session = ServiceSession(
            service: service, environment: environment, secrets: secrets, transport: transport, plugins: plugins, clock: clock,
            secretRegistry: secretRegistry, onSignInPrompt: onSignInPrompt, tokenPersistence: tokens,
            cookiePersistence: mode == .live ? cookies : nil)
        return sessions.withLock { sessions in
            if let existing = sessions[key] { return existing }
            sessions[key] = session
            return session
        }
    }
}
