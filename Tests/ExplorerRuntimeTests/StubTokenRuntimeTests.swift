import Catalog
import DispatcherCore
import ExplorerApp
import ExplorerRuntime
import Foundation
import Synchronization
import TerminalKit
import Testing
import TestTraits

/// A token a stub refresh "obtained" (a fixture's) is never sent to a real server: stub and live
/// requests of one environment do not share a credential store.
@Suite(.offPool) struct StubTokenRuntimeTests {
    static let catalog = """
        service: vault
        environments:
          local:
            baseURL: http://127.0.0.1:9
            fixtures: immediate
            retry: none
        auth:
          refresh:
            endpoint: login
            on: [401]
            token: $.access_token
            into: VAULT_TOKEN
        endpoints:
          secret:
            path: /secret
            headers: { Authorization: "Bearer {{secret.VAULT_TOKEN}}" }
            stub: { status: 401 }
          login:
            method: POST
            path: /login
            stub: { body: { access_token: stub-access-token-2 } }

        """

    /// The "real server": a login that gives `live-token`, a secret that wants it; every request kept.
    final class LiveServer: Transport {
        let seen = Mutex<[Request]>([])

        func send(_ request: Request) async throws(TransportError) -> Response {
            seen.withLock { $0.append(request) }
            if request.url.path.hasSuffix("/login") {
                return Response(status: 200, headers: Headers([("Content-Type", "application/json")], origin: .server), body: Data(#"{"access_token":"live-token"}"#.utf8))
            }
            let authorized = request.headers["Authorization"] == "Bearer live-token"
            return Response(status: authorized ? 200 : 401, headers: Headers(), body: Data())
        }
    }

    @Test func aStubRefreshedTokenIsNeverSentLive() async throws {
        let catalog = CatalogLoader.load(fileSystem: InMemoryFileSystem(texts: ["vault.yaml": Self.catalog]), source: .bundled)
        #expect(!catalog.hasErrors, "\(catalog.diagnostics)")
        let server = LiveServer()
        let terminal = HeadlessTerminal(size: Size(width: 120, height: 40))
        let runtime = ExplorerRuntime(catalog: catalog, secrets: SecretStore(processEnvironment: [:]), transport: server, device: terminal)
        let running = Task { await runtime.run() }
        await runtime.waitUntilIdle()
        // A stub send: the stub answers 401, the stubbed login refreshes to stub-access-token-2.
        for key in try KeyEvent.parseSequence("Enter") { runtime.post(.terminal(.key(key))) }
        await runtime.waitUntilIdle()
        #expect(server.seen.withLock { $0.isEmpty })
        #expect(runtime.currentState.responses[EndpointKey(service: "vault", endpoint: "secret")]?.exchange.isStubbed == true)
        // Live in the same environment.
        for key in try KeyEvent.parseSequence("s Enter") { runtime.post(.terminal(.key(key))) }
        await runtime.waitUntilIdle()
        let sent = server.seen.withLock { $0 }
        #expect(!sent.isEmpty, "\(terminal.lastFrame?.buffer.plainText() ?? "")")
        #expect(!sent.contains { ($0.headers["Authorization"] ?? "").contains("stub-access-token") })
        #expect(sent.last?.headers["Authorization"] == "Bearer live-token")
        #expect(runtime.currentState.responses[EndpointKey(service: "vault", endpoint: "secret")]?.exchange.response?.status == 200)
        runtime.post(.terminalClosed)
        await running.value
    }
}
