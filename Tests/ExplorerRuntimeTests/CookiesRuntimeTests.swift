import Catalog
import DispatcherCore
import ExplorerApp
import ExplorerRuntime
import Foundation
import TerminalKit
import Testing
import TestTraits

/// `K` in the real runtime: the cookies a live response set, listed with their values masked until
/// revealed, and cleared with Enter.
@Suite(.offPool) struct CookiesRuntimeTests {
    static let catalog = """
        service: shop
        environments:
          local: { baseURL: "http://127.0.0.1:9/shop", fixtures: never, retry: none }
        endpoints:
          login: { method: POST, path: /login }

        """

    /// A server that sets a session cookie.
    struct CookieServer: Transport {
        func send(_ request: Request) async throws(TransportError) -> Response {
            Response(status: 200, headers: Headers([("Set-Cookie", "sid=canary-cookie-value; Path=/; HttpOnly")], origin: .server), body: Data("{}".utf8))
        }
    }

    @Test func kListsTheJarMaskedAndEnterClearsIt() async throws {
        let catalog = CatalogLoader.load(fileSystem: InMemoryFileSystem(texts: ["shop.yaml": Self.catalog]), source: .bundled)
        let terminal = HeadlessTerminal(size: Size(width: 120, height: 40))
        let runtime = ExplorerRuntime(catalog: catalog, secrets: SecretStore(processEnvironment: [:]), transport: CookieServer(), device: terminal)
        let running = Task { await runtime.run() }
        await runtime.waitUntilIdle()
        // Live at once: the environment says `fixtures: never`.
        for key in try KeyEvent.parseSequence("Enter") { runtime.post(.terminal(.key(key))) }
        await runtime.waitUntilIdle()
        runtime.post(.terminal(.key(try KeyEvent(parsing: "K"))))
        await runtime.waitUntilIdle()
        var screen = terminal.lastFrame?.buffer.plainText() ?? ""
        #expect(screen.contains("Cookies · shop · local · LIVE"), "\(screen)")
        #expect(screen.contains("› sid=••••  127.0.0.1/  host-only · HttpOnly · session"), "\(screen)")
        #expect(!screen.contains("canary-cookie-value"))
        runtime.post(.terminal(.key(try KeyEvent(parsing: "Enter"))))
        await runtime.waitUntilIdle()
        runtime.post(.terminal(.key(try KeyEvent(parsing: "K"))))
        await runtime.waitUntilIdle()
        screen = terminal.lastFrame?.buffer.plainText() ?? ""
        #expect(screen.contains("No cookie: responses that set one"), "\(screen)")
        runtime.post(.terminalClosed)
        await running.value
    }

    @Test func dDeletesOneCookieFromTheJar() async throws {
        let catalog = CatalogLoader.load(fileSystem: InMemoryFileSystem(texts: ["shop.yaml": Self.catalog]), source: .bundled)
        let terminal = HeadlessTerminal(size: Size(width: 120, height: 40))
        let runtime = ExplorerRuntime(catalog: catalog, secrets: SecretStore(processEnvironment: [:]), transport: CookieServer(), device: terminal)
        let running = Task { await runtime.run() }
        await runtime.waitUntilIdle()
        // Live at once: the environment says `fixtures: never`.
        for key in try KeyEvent.parseSequence("Enter K") {
            runtime.post(.terminal(.key(key)))
            await runtime.waitUntilIdle()
        }
        #expect(terminal.lastFrame?.buffer.plainText().contains("› sid=") == true)
        runtime.post(.terminal(.key(try KeyEvent(parsing: "d"))))
        await runtime.waitUntilIdle()
        let screen = terminal.lastFrame?.buffer.plainText() ?? ""
        #expect(screen.contains("No cookie: responses that set one"), "\(screen)")
        runtime.post(.terminalClosed)
        await running.value
    }
}
