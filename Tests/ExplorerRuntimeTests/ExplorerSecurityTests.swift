import Sessions
import TestTraits
import Catalog
import CatalogAuthoring
import DispatcherCore
import ExplorerApp
import ExplorerRuntime
import Foundation
import LiveTransport
import TerminalKit
import TestSupport
import Testing

/// Issue 35, the explorer's and the core's side: secrets echoed in the Body tab, credentials on a
/// redirect to another origin, a typed bearer written by `W`, the question before an untrusted
/// catalog goes out.
@Suite(.offPool) struct ExplorerSecurityTests {
    static let shop = """
        service: shop
        environments:
          local: { baseURL: "http://127.0.0.1:9/shop" }
        groups:
          signedIn: { headers: { Authorization: "Bearer {{secret.SHOP_TOKEN}}" } }
        endpoints:
          whoami: { path: /whoami, group: signedIn }
        """

    /// A server echoing what it was sent, as careless ones do.
    struct EchoServer: Transport {
        func send(_ request: Request) async throws(TransportError) -> Response {
            let auth = request.headers["Authorization"] ?? ""
            let body = #"{"you_sent":"\#(auth)","prompt":"\#(request.url.query ?? "")"}"#
            return Response(status: 200, headers: Headers([("Content-Type", "application/json")], origin: .server), body: Data(body.utf8))
        }
    }

    /// The Body tab masks every secret the request carried when the server echoes it back, until
    /// `v` shows it (as `call` does); the masked value says nothing of its length.
    @Test func secretsEchoedByTheServerAreMaskedInTheBodyTabUntilV() async throws {
        let catalog = CatalogLoader.load(fileSystem: InMemoryFileSystem(texts: ["shop.yaml": Self.shop]), source: .bundled)
        let terminal = HeadlessTerminal(size: Size(width: 120, height: 40))
        let runtime = ExplorerRuntime(
            catalog: catalog, secrets: SecretStore(processEnvironment: ["APIEXPLORER_SECRET_SHOP_TOKEN": "canary-echoed-token"]),
            transport: EchoServer(), device: terminal)
        let running = Task { await runtime.run() }
        await runtime.waitUntilIdle()
        func press(_ keys: String) async throws {
            for key in try KeyEvent.parseSequence(keys) { runtime.post(.terminal(.key(key))) }
            await runtime.waitUntilIdle()
        }
        try await press("s Enter")
        var screen = terminal.lastFrame?.buffer.plainText() ?? ""
        #expect(screen.contains(#""you_sent": "Bearer ••••""#), "\(screen)")
        #expect(!screen.contains("canary-echoed-token"))
        try await press("v")
        screen = terminal.lastFrame?.buffer.plainText() ?? ""
        #expect(screen.contains(#""you_sent": "Bearer canary-echoed-token""#), "\(screen)")
        try await press("v")
        screen = terminal.lastFrame?.buffer.plainText() ?? ""
        #expect(!screen.contains("canary-echoed-token"), "\(screen)")
        runtime.post(.terminalClosed)
        await running.value
    }

    /// A header holding a secret value (`X-API-Key`, a `{{secret.…}}` in any header) does not
    /// follow a redirect to another origin, nor does a request with credentials follow one from
    /// https to http.
    @Test func secretsDoNotFollowARedirectToAnotherOrigin() async throws {
        try await withTestHTTPServer(handler: { _ in .ok("elsewhere") }) { other in
            try await withTestHTTPServer(handler: { _ in .redirect(to: other.url("/landing").absoluteString) }) { origin in
                try await withTestHTTPServer(tls: .trusted, handler: { _ in .redirect(to: other.url("/downgraded").absoluteString) }) { secure in
                    let folder = try TemporaryDirectory()
                    try FileManager.default.copyItem(at: TestCertificates.ca.certificateURL, to: folder.url.appendingPathComponent("ca.pem"))
                    try folder.write("r.yaml", """
                        service: r
                        environments:
                          local: { baseURL: "\(origin.baseURL.absoluteString)", fixtures: never }
                          secure: { baseURL: "\(secure.baseURL.absoluteString)", fixtures: never, tls: { ca: ca.pem } }
                        endpoints:
                          go:
                            path: /go
                            headers: { X-API-Key: "{{secret.API_KEY}}", X-Tenant: "t-{{secret.TENANT}}", X-Trace: plain }
                        """)
                    let catalog = CatalogLoader.load(CatalogSource(origin: .option, directory: folder.url, displayPath: "r"), trust: .everything)
                    let secrets = SecretStore(processEnvironment: ["APIEXPLORER_SECRET_API_KEY": "canary-api-key", "APIEXPLORER_SECRET_TENANT": "canary-tenant"])
                    let transport = HTTPTransport(configuration: HTTPTransport.Configuration(proxy: .none))
                    do {
                        let caller = EndpointCaller(catalog: catalog, secrets: secrets, transport: transport)
                        let followed = await caller.call(try EndpointSelection.resolve("r/go", environment: "local", in: catalog), mode: .live)
                        #expect(followed.exchange.response?.text == "elsewhere")
                        let landed = try #require(other.lastRequest)
                        #expect(landed.header("X-API-Key") == nil)
                        #expect(landed.header("X-Tenant") == nil)
                        #expect(landed.header("X-Trace") == "plain")

                        let downgraded = await caller.call(try EndpointSelection.resolve("r/go", environment: "secure", in: catalog), mode: .live)
                        #expect(downgraded.exchange.error?.message.contains("is not followed from https to http") == true, "\(String(describing: downgraded.exchange.error))")
                        #expect(!other.requests.contains { $0.path == "/downgraded" })
                    }
                    try await transport.shutdown()
                }
            }
        }
    }

    /// `W` never writes a typed `Authorization: Bearer …` into the catalog: the person names its
    /// secret and the file gets `{{secret.NAME}}`; the value stays for the session only.
    @Test func aTypedBearerWrittenByWBecomesAPlaceholder() throws {
        let folder = try TemporaryDirectory()
        try folder.write("shop.yaml", """
            service: shop
            environments:
              local: { baseURL: "http://127.0.0.1:9/shop" }
            endpoints:
              items:
                path: /items
            """)
        let source = CatalogSource(origin: .option, directory: folder.url, displayPath: folder.path)
        var state = AppState(catalog: CatalogLoader.load(source, trust: .everything), size: Size(width: 120, height: 40))
        func press(_ keys: String) -> [AppEffect] {
            var effects: [AppEffect] = []
            for key in (try? KeyEvent.parseSequence(keys)) ?? [] { effects += AppReducer.reduce(&state, .terminal(.key(key))) }
            return effects
        }
        func typing(_ text: String) -> String { text.map { $0 == " " ? "Space" : String($0) }.joined(separator: " ") }
        // The Edit tab; "add a header" is the fourth row (method, path, add a query item, add a header).
        _ = press("Tab 6 j j j a " + typing("Authorization: Bearer canary-typed-bearer-0123") + " Enter")
        #expect(press("W").isEmpty)
        #expect(state.notice?.contains("The header Authorization is a credential") == true, "\(state.notice ?? "")")
        // Named, the edits are asked about once more before they are written.
        #expect(press("Enter").isEmpty)
        let effects = press("y")
        guard case .editing(.writeDraft(let key, let edits))? = effects.first else {
            Issue.record("nothing written: \(effects)")
            return
        }
        #expect(edits.headers?.first?.value == "Bearer {{secret.SHOP_TOKEN}}")
        #expect(state.activeValues["secret.SHOP_TOKEN"] == "canary-typed-bearer-0123")
        let service = try #require(state.catalog.service(key.endpoint.service))
        try CatalogUpdate.writing(edits, endpoint: key.endpoint.endpoint, of: service).commit()
        let written = try String(contentsOf: folder.url.appendingPathComponent("shop.yaml"), encoding: .utf8)
        #expect(written.contains(#"Authorization: "Bearer {{secret.SHOP_TOKEN}}""#), "\(written)")
        #expect(!written.contains("canary"))

        // What validate says of a credential written into a catalog by hand.
        try folder.write("hand.yaml", """
            service: hand
            environments:
              local: { baseURL: "http://127.0.0.1:9", headers: { X-API-Key: canary-literal-key } }
            endpoints:
              one: { path: /one, query: { access_token: eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NSJ9.c2lnbmF0dXJlLXNpZw } }
            """)
        let warnings = CatalogLoader.load(source, trust: .everything).diagnostics.filter { $0.file.hasSuffix("hand.yaml") }.map(\.description)
        #expect(warnings.count == 2, "\(warnings)")
        #expect(warnings.allSatisfy { $0.contains("warning: ") && $0.contains("is a credential written into the catalog") }, "\(warnings)")
    }

    /// An untrusted catalog answers from its fixtures; before it goes out live, the explorer shows
    /// what it declares and asks, once: a no sends nothing, a yes remembers the trust.
    @Test func anUntrustedCatalogIsAskedAboutBeforeItGoesOut() throws {
        let folder = try TemporaryDirectory()
        try folder.write("shop.yaml", Self.shop)
        let source = CatalogSource(origin: .option, directory: folder.url, displayPath: folder.path)
        let catalog = CatalogLoader.load(source)
        #expect(catalog.service("shop")?.isTrusted == false)
        var state = AppState(catalog: catalog, size: Size(width: 120, height: 40))
        func press(_ keys: String) -> [AppEffect] {
            var effects: [AppEffect] = []
            for key in (try? KeyEvent.parseSequence(keys)) ?? [] { effects += AppReducer.reduce(&state, .terminal(.key(key))) }
            return effects
        }
        #expect(press("Enter").contains { if case .exchanges(.send) = $0 { true } else { false } }, "stub mode needs no trust")
        #expect(press("s Enter").isEmpty)
        let screen = AppView.render(state).buffer.plainText()
        #expect(screen.contains("shop.yaml is not trusted."), "\(screen)")
        #expect(screen.contains("sends requests to http://127.0.0.1:9"), "\(screen)")
        #expect(screen.contains("reads secret SHOP_TOKEN from $APIEXPLORER_SECRET_SHOP_TOKEN"), "\(screen)")
        #expect(press("n").isEmpty)
        #expect(state.notice?.hasPrefix("Not sent:") == true)
        _ = press("Enter")
        let trusted = press("y")
        guard case .exchanges(.trustCatalog(let hashes, let call))? = trusted.first else {
            Issue.record("not trusted: \(trusted)")
            return
        }
        #expect(hashes == [try #require(catalog.service("shop")?.contentHash)])
        #expect(call.mode == .live)
    }
}
