import ArgumentParser
import Catalog
import MockServer

/// `--mock`: the catalogs' fixtures served on 127.0.0.1:4010 inside the app, so live mode works
/// offline against the bundled local environments.
enum InProcessMock {
    static let help = ArgumentHelp("""
        Also serve the catalogs' fixtures on 127.0.0.1:\(MockServer.defaultPort), so live mode works offline \
        against the bundled local environments.
        """)

    static func start(_ catalog: CatalogSet, honourDelays: Bool = true) async throws -> MockServer {
        // HTTPS too, for the catalogs' tls environments (the pins and the mock's CA); when its port
        // is taken, plain HTTP still serves the rest.
        let secure = MockServer(services: catalog.services, configuration: .init(honourDelays: honourDelays, tlsPort: MockTLS.defaultPort))
        if (try? await secure.start()) != nil { return secure }
        let server = MockServer(services: catalog.services, configuration: .init(honourDelays: honourDelays))
        do {
            _ = try await server.start()
            Console.error("warning: --mock serves no HTTPS: 127.0.0.1:\(MockTLS.defaultPort) is taken, so the tls environments will not connect.")
            return server
        } catch {
            Console.error("error: --mock cannot listen on 127.0.0.1:\(MockServer.defaultPort): \(error). Is `apiexplorer mock` already running?")
            throw ExitCode(2)
        }
    }
}
