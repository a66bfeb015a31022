import Catalog
import DispatcherCore
import ExplorerApp
import FoundationEssentials
import Sessions
import Synchronization
import SystemSupport

/// The catalogs loaded last, their secrets and their sessions, which every handler that sends or
/// writes shares: installed before the reducer hears of new catalogs, so a send can follow at once.
final class LoadedCatalogs: Sendable {
    /// The catalogs loaded last (a reload reads only what changed since).
    let catalog = Mutex<CatalogSet?>(nil)
    /// The secrets read with them (flow runs send with them).
    let secrets = Mutex<SecretStore?>(nil)
    /// Scratch requests' services, kept across reloads (they are in no file).
    private let scratchServices = Mutex<[Service]>([])
    /// Sessions for the catalogs loaded last; nil until they are.
    private let pool = Mutex<SessionPool?>(nil)
    private let services: ExplorerServices
    /// Live requests' transport: the services' HTTP one, and gRPC calls by the loaded descriptor sets.
    let transport: (any Transport)?
    private let calls: RPCCallTransport?
    /// The plugins every session gets: activity, logger, then the services' own.
    private let plugins: [any Plugin]
    /// Every secret value the sessions resolve, shared with the logger.
    private let secretRegistry: SecretRegistry
    private let post: @Sendable (AppAction) -> Void

    init(services: ExplorerServices, plugins: [any Plugin], secretRegistry: SecretRegistry, post: @escaping @Sendable (AppAction) -> Void) {
        self.services = services
        calls = services.transport.map { RPCCallTransport(http: $0) }
        transport = calls ?? services.transport
        self.plugins = plugins
        self.secretRegistry = secretRegistry
        self.post = post
    }

    /// The session of an environment in a mode, when its catalog is loaded.
    func session(_ environment: EnvironmentKey, mode: RequestMode) -> ServiceSession? {
        pool.withLock { $0 }?.session(environment, mode: mode)
    }

    /// Makes the sessions for newly read catalogs (requests on their way keep the sessions they
    /// started with).
    func install(_ catalog: CatalogSet, secrets: SecretStore) {
        self.catalog.withLock { $0 = catalog }
        self.secrets.withLock { $0 = secrets }
        let scratch = scratchServices.withLock { $0 }
        var sessionCatalog = catalog
        sessionCatalog.services += scratch
        calls?.use(sessionCatalog.services)
        pool.withLock {
            $0 = SessionPool(
                catalog: sessionCatalog, secrets: secrets, transport: transport, plugins: plugins, clock: services.clock,
                secretRegistry: secretRegistry,
                onSignInPrompt: { [post, environment = services.environment] prompt in
                    // A browser sign-in opens the browser when there is one; the URL is shown and copied either way.
                    if prompt.userCode.isEmpty { EffectRunner.openInBrowser(prompt.verificationURL, environment: environment) }
                    post(.auth(.signInPrompted(prompt)))
                }, tokens: services.tokens, cookies: services.cookies)
        }
    }

    /// Makes sessions for a scratch request's service, now and after every reload.
    func addScratch(_ service: Service) {
        scratchServices.withLock { $0.append(service) }
        pool.withLock { $0 }?.add(service)
    }

    /// Reads the catalogs again after the explorer wrote `file`, so it follows at once (the
    /// watcher's later read finds nothing new); every file is read: `file` is as shown, not a watcher path.
    func reloadAfterWriting(_ file: String, over catalog: CatalogSet) {
        guard let reload = services.reloadCatalog else { return }
        let (reloaded, secrets) = reload(catalog, nil)
        install(reloaded, secrets: secrets)
        post(.catalogReloaded(reloaded, secrets, changed: [file]))
    }

    /// Remembers the trust the person gave and reads the catalogs again with it (sessions renewed);
    /// nil when trust cannot be given from here (no trust store, bundled catalogs).
    var trust: (@Sendable ([String]) throws(SystemError) -> (CatalogSet, SecretStore))? {
        guard let trust = services.trust, let reload = services.reloadCatalog, let previous = catalog.withLock({ $0 }),
            let folder = previous.source.directory
        else { return nil }
        return { [self] contentHashes throws(SystemError) in
            try trust.trust(contentHashes, in: folder)
            let (catalog, secrets) = reload(previous, nil)
            install(catalog, secrets: secrets)
            return (catalog, secrets)
        }
    }
}
