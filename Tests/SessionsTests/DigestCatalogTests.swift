import CatalogTestSupport
import DigestAuth
import DispatcherCore
import Foundation
import Sessions
import Testing

@testable import Catalog
import TestTraits

/// `auth.digest` in a catalog: decoded with its place, the password taken from the secrets and
/// masked, a 401 Digest challenge answered once.
@Suite(.offPool) struct DigestCatalogTests {
    static let catalog = """
        service: vault
        environments:
          local: { baseURL: "http://127.0.0.1:1/vault", fixtures: never }
        auth:
          digest: { username: Mufasa, password: "{{secret.VAULT_PASSWORD}}" }
        endpoints:
          index: { path: /dir/index.html }
        """
    static let challenge = #"Digest realm="http-auth@example.org", qop="auth", algorithm=SHA-256, nonce="n0nce", opaque="op""#

    static func load(_ text: String) -> CatalogSet {
        CatalogLoader.load(fileSystem: InMemoryFileSystem(texts: ["vault.yaml": text]), source: .bundled)
    }

    @Test func theCredentialsAreReadAndTheChallengeAnswered() async throws {
        let catalog = Self.load(Self.catalog)
        let service = try #require(catalog.service("vault"))
        #expect(service.digest == DigestCredentials(username: "Mufasa", password: "{{secret.VAULT_PASSWORD}}"))
        let server = RecordingTransport { request in
            guard let answer = request.headers["Authorization"], answer.contains(#"username="Mufasa""#),
                let challenge = DigestChallenge.parse([Self.challenge]).first,
                let cnonce = answer.firstRange(of: #"cnonce=""#).map({ String(answer[$0.upperBound...].prefix { $0 != "\"" }) }),
                answer == DigestAuthenticator.authorization(
                    challenge, username: "Mufasa", password: "Circle of Life", method: "GET", uri: "/vault/dir/index.html", nonceCount: 1,
                    clientNonce: cnonce)
            else {
                return Response(status: 401, headers: Headers([("WWW-Authenticate", Self.challenge)], origin: .server), body: Data())
            }
            return .json(200, #"{"ok":true}"#)
        }
        let session = ServiceSession(
            service: service, environment: service.environments[0], secrets: SecretStore(processEnvironment: ["APIEXPLORER_SECRET_VAULT_PASSWORD": "Circle of Life"]),
            transport: server)
        let exchange = await session.send("index", options: RequestOptions(stubBehavior: .never))
        #expect(try exchange.result.get().status == 200)
        #expect(exchange.attempts == 2)
        #expect(!session.redactor.text("the password is Circle of Life").contains("Circle of Life"))
    }

    @Test func unknownKeysAndMissingFieldsAreDiagnosedWithTheirPlace() {
        let broken = Self.catalog.replacingOccurrences(
            of: #"digest: { username: Mufasa, password: "{{secret.VAULT_PASSWORD}}" }"#, with: "digest: { user: Mufasa }")
        let diagnostics = Self.load(broken).diagnostics.filter(\.isError).map(\.description)
        #expect(diagnostics.contains { $0.contains("vault.yaml:5:") && $0.contains("user") }, "\(diagnostics)")
        #expect(diagnostics.contains { $0.contains("username") || $0.contains("password") }, "\(diagnostics)")
    }
}
