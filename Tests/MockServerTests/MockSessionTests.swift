import CatalogTestSupport
import DispatcherCore
import Foundation
@testable import MockServer
import Sessions
import Testing

@testable import Catalog

/// `mock: { session: … }`: the mock issues tokens from the `auth.refresh` endpoint and expires them
/// after some uses, so an expired session is refreshed and the request resumed end to end, live.
extension MockServerTests {
    static let vault = """
        service: vault
        environments:
          local:
            baseURL: http://127.0.0.1:9/vault
            fixtures: never
            retry: none
            secretDefaults: { VAULT_TOKEN: stale-token }
        groups:
          signedIn: { headers: { Authorization: "Bearer {{secret.VAULT_TOKEN}}" } }
        auth:
          refresh: { endpoint: login, token: $.data.token, into: VAULT_TOKEN }
        mock:
          session: { expiresAfter: 2 }
        endpoints:
          login:
            method: POST
            path: /login
            stub: { body: { data: { token: fixture-token } } }
          secret:
            group: signedIn
            path: /secret
            stub: { body: { secret: 42 } }
          open:
            path: /open
            stub: { body: { open: true } }
        """

    @Test func anExpiredSessionIsRefreshedFromTheMockAndTheRequestResumed() async throws {
        let catalog = CatalogLoader.load(fileSystem: InMemoryFileSystem(texts: ["vault.yaml": Self.vault]), source: .bundled)
        #expect(!catalog.hasErrors, "\(catalog.diagnostics)")
        let vault = try #require(catalog.service("vault"))
        #expect(vault.mockSession == MockSessionRule(expiresAfter: 2))
        try await withServer([vault]) { server, logs in
            let session = ServiceSession(service: vault, environment: try mockEnvironment(vault, server), transport: TestHTTPTransport())
            // The stale token: 401 "expired" → login issues a token → resumed → 200.
            let first = await session.send("secret", options: RequestOptions(stubBehavior: .never))
            #expect(first.response?.status == 200)
            #expect(first.response?.text == #"{"secret":42}"#)
            #expect(session.credentials.token == "mock-vault-token-1")
            #expect(logs.all.map(\.outcome) == ["session expired", "issued mock-vault-token-1", nil])
            // One more use is left; the one after that expires again and is refreshed again.
            _ = await session.send("secret", options: RequestOptions(stubBehavior: .never))
            let third = await session.send("secret", options: RequestOptions(stubBehavior: .never))
            #expect(third.response?.status == 200)
            #expect(session.credentials.token == "mock-vault-token-2")
            // An endpoint that sends no token is never checked.
            let open = await session.send("open", options: RequestOptions(stubBehavior: .never))
            #expect(open.response?.status == 200)
        }
    }

    @Test func aSessionWithoutARefreshRuleIsDiagnosed() {
        let text = Self.vault.replacingOccurrences(of: "auth:\n  refresh: { endpoint: login, token: $.data.token, into: VAULT_TOKEN }\n", with: "")
        let catalog = CatalogLoader.load(fileSystem: InMemoryFileSystem(texts: ["vault.yaml": text]), source: .bundled)
        #expect(catalog.diagnostics.contains { $0.message == "mock.session issues tokens from the auth.refresh endpoint, and the service has no auth.refresh rule" })
    }
}
