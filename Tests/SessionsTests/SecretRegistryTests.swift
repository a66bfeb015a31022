import CatalogTestSupport
import DispatcherCore
import Foundation
import Sessions
import Testing

@testable import Catalog
import TestTraits

/// Secret values are masked by value wherever they travel, percent-encoded ones included, and
/// tokens obtained after a logger was made are masked by it too.
@Suite(.offPool) struct SecretRegistryTests {
    @Test func aSecretNeedingEncodingIsMaskedInTheURLAndHeaders() async throws {
        let service = try loadCleanService("""
            environments:
              local: { baseURL: "http://127.0.0.1:1", fixtures: immediate }
            endpoints:
              one:
                path: /one
                query: { q: "{{secret.ODD}}" }
                headers: { X-Plain: "{{secret.ODD}}" }
                stub: { body: { ok: true } }
            """)
        let secret = "a+b/c=d&e f%"
        let session = ServiceSession(
            service: service, environment: service.environments[0], secrets: SecretStore(processEnvironment: ["APIEXPLORER_SECRET_ODD": secret]), clock: .instant)
        let exchange = await session.send("one")
        let url = exchange.request.url.absoluteString
        #expect(!url.contains("q=\(secret)"), "the URL carries the encoded form: \(url)")
        let shown = session.redactor.url(exchange.request.url)
        #expect(shown.hasSuffix("q=••••"), "\(shown)")
        #expect(session.redactor.header(name: "X-Plain", value: secret) == "••••")
    }

    @Test func aLoggerMadeBeforeTheTokenMasksItLater() {
        let registry = SecretRegistry()
        let logger = Redactor.standard.knowing(registry)
        #expect(logger.text("token fresh-token-123") == "token fresh-token-123")
        registry.register("fresh-token-123")
        #expect(logger.text("token fresh-token-123") == "token ••••")
        #expect(logger.data(Data("{\"t\":\"fresh-token-123\"}".utf8)) == Data("{\"t\":\"••••\"}".utf8))
        registry.register("abc")  // too short to mask
        #expect(logger.text("abc") == "abc")
        // The token and its base64 form (its other encodings are itself); never the values themselves.
        #expect("\(registry)" == "SecretRegistry(2 values)")
    }
}
