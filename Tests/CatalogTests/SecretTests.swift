import CatalogTestSupport
import DispatcherCore
import Foundation
import Sessions
import Synchronization
import Testing

@testable import Catalog
import TestTraits

/// Secret values never reach a log, a diagnostic, a description or a dump in clear.
@Suite(.offPool) struct SecretTests {
    static let processSecret = "pr0cess-S3CRET-value"
    static let dotEnvSecret = "d0tenv-S3CRET-value"
    static let defaultSecret = "default-S3CRET-value"
    static let refreshedSecret = "refreshed-S3CRET-value"

    static let catalog = """
        service: vault
        environments:
          local:
            baseURL: http://127.0.0.1:1
            headers: { X-Api-Key: "{{secret.API_KEY}}" }
            secretDefaults: { DEMO: \(defaultSecret) }
        auth:
          refresh: { endpoint: login, token: $.token, into: TOKEN }
        endpoints:
          login:
            method: POST
            path: /login
            body: { password: "{{secret.PASSWORD}}" }
            stub: { body: { token: \(refreshedSecret) } }
          everything:
            method: POST
            path: /things
            query: { sig: "{{secret.DEMO}}", plain: visible }
            headers: { Authorization: "Bearer {{secret.TOKEN}}", X-Custom: "{{secret.DEMO}}" }
            body: "note {{secret.PASSWORD}} and {{secret.DEMO}}"
            stub: { status: 401, body: { echo: "{{secret.PASSWORD}}" } }
        """

    /// Collects every line a verbose logger writes.
    final class Lines: Sendable {
        let lines = Mutex<[String]>([])
        func append(_ line: String) { lines.withLock { $0.append(line) } }
        var all: String { lines.withLock { $0.joined(separator: "\n") } }
    }

    func makeSession(logger: Lines, transport: (any Transport)? = nil) throws -> (ServiceSession, CatalogSet, TemporaryCatalog) {
        let folder = try TemporaryCatalog(["vault.yaml": Self.catalog, ".env": "PASSWORD=\"\(Self.dotEnvSecret)\"\n"])
        let catalog = folder.load()
        let service = try #require(catalog.services.first)
        let secrets = SecretStore.load(for: folder.source, processEnvironment: ["APIEXPLORER_SECRET_API_KEY": Self.processSecret, "APIEXPLORER_SECRET_TOKEN": "initial-T0KEN-value"])
        // As the app does: the logger gets the redactor for this service and environment.
        let redactor = ServiceSession.makeRedactor(service: service, environment: service.environments[0], secrets: secrets)
        let plugin = NetworkLoggerPlugin(options: .verbose, redactor: redactor) { entry in entry.lines.forEach(logger.append) }
        let session = ServiceSession(
            service: service, environment: service.environments[0], secrets: secrets, transport: transport, plugins: [plugin], clock: .instant)
        return (session, catalog, folder)
    }

    static let allSecrets = [processSecret, dotEnvSecret, defaultSecret, refreshedSecret, "initial-T0KEN-value"]

    @Test func loggedRequestsAndResponsesNeverShowSecrets() async throws {
        let logger = Lines()
        let echo = RecordingTransport { request in
            Response(status: 200, headers: ["Content-Type": "text/plain"], body: request.body ?? Data())
        }
        let (session, _, folder) = try makeSession(logger: logger, transport: echo)
        _ = folder
        let stubbed = await session.send("everything")
        #expect(stubbed.error?.kind == .unauthorized)
        let live = await session.send("everything", options: RequestOptions(stubBehavior: .never))
        #expect(live.response?.text.contains(Self.dotEnvSecret) == true, "the request really carried the secret")
        let log = logger.all
        #expect(!log.isEmpty)
        for secret in Self.allSecrets {
            #expect(!log.contains(secret), "\(secret) leaked into the log")
        }
        #expect(log.contains("visible"))
        #expect(log.contains(Redactor.mask))
    }

    @Test func theSessionRedactorMasksEverySecretItCanSend() throws {
        let (session, _, folder) = try makeSession(logger: Lines())
        _ = folder
        session.credentials.token = Self.refreshedSecret
        let redactor = session.redactor
        for secret in Self.allSecrets where secret != "initial-T0KEN-value" {
            #expect(redactor.text("x \(secret) y") == "x \(Redactor.mask) y")
        }
    }

    @Test func catalogsDiagnosticsAndStoresNeverHoldSecretValues() throws {
        let (session, catalog, folder) = try makeSession(logger: Lines())
        _ = folder
        var dumped = ""
        dump(catalog, to: &dumped)
        dump(session.secrets, to: &dumped)
        dumped += String(describing: session.secrets) + catalog.diagnostics.map(\.description).joined()
        for secret in [Self.processSecret, Self.dotEnvSecret] {
            #expect(!dumped.contains(secret))
        }
    }

    @Test func unresolvedErrorsNameTheSecretNotItsValue() throws {
        let folder = try TemporaryCatalog(["vault.yaml": Self.catalog])
        let service = try #require(folder.load().services.first)
        let builder = RequestBuilder(service: service, environment: service.environments[0], secrets: SecretStore(processEnvironment: [:]))
        #expect {
            try builder.prepare(try #require(service.endpoint("login")))
        } throws: { error in
            "\(error)" == """
                vault/login: body uses {{secret.PASSWORD}}, which has no value (set $APIEXPLORER_SECRET_PASSWORD in the environment)
                vault/login: environment local header X-Api-Key uses {{secret.API_KEY}}, which has no value (set $APIEXPLORER_SECRET_API_KEY in the environment)
                """
        }
    }
}
