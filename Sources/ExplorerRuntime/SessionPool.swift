import Catalog
import DispatcherCore
import Synchronization

/// One `ServiceSession` per service and environment, made on first use and kept, so credentials
/// refreshed in an environment stay there.
final class SessionPool: Sendable {
    private let catalog: CatalogSet
    private let secrets: SecretStore
    private let transport: (any Transport)?
    private let plugins: [any Plugin]
    private let clock: DispatchClock
    private let resultHandlers: @Sendable (Service, Environment) -> [any ResultHandler]
    private let sessions = Mutex<[String: ServiceSession]>([:])

    init(
        catalog: CatalogSet, secrets: SecretStore, transport: (any Transport)?, plugins: [any Plugin], clock: DispatchClock,
        resultHandlers: @escaping @Sendable (Service, Environment) -> [any ResultHandler]
    ) {
        self.clock = clock
        self.resultHandlers = resultHandlers
        self.catalog = catalog
        self.secrets = secrets
        self.transport = transport
        self.plugins = plugins
    }

    /// The session for a service and environment, nil when the catalog has neither.
    func session(service serviceID: String, environment name: String) -> ServiceSession? {
        let key = "\(serviceID)\u{0}\(name)"
        if let session = sessions.withLock({ $0[key] }) { return session }
        guard let service = catalog.service(serviceID), let environment = service.environment(named: name) else { return nil }
        let session = ServiceSession(
            service: service, environment: environment, secrets: secrets, transport: transport, plugins: plugins,
            resultHandlers: resultHandlers(service, environment), clock: clock)
        return sessions.withLock { sessions in
            if let existing = sessions[key] { return existing }
            sessions[key] = session
            return session
        }
    }
}
