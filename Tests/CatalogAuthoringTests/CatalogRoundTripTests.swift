import Catalog
import CatalogAuthoring
import CatalogTestSupport
import DispatcherCore
import Foundation
import RequestExport
import Sessions
import TestSupport
import TestTraits
import Testing

/// Issue 50's property: for every bundled and test catalog, `export openapi` → `import openapi`
/// and `export http` → `import http` lose nothing a request carries: `export curl` of every
/// endpoint in every environment is byte-identical before and after (the catalog folder's own
/// path, which a new folder changes, written `CATALOG`).
// One case at a time: 54 cases computing at once on dispatch threads starved the other tests'
// servers (their event loops got too little of the two cores to answer within a timeout).
@Suite(.offPool, .serialized) struct CatalogRoundTripTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A catalog folder to take round: the bundled ones, the catalog of the exported-client
    /// tests, and the random catalogs of `RoundTripPropertyTests` (multipart included).
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var folder: String
        var service: String
        var testDescription: String { name }
    }

    static let randomFolders: [UInt64: TemporaryDirectory] = Dictionary(uniqueKeysWithValues: RoundTripPropertyTests.seeds.map { seed in
        let folder = try! TemporaryDirectory()
        try! folder.write("rt.yaml", RoundTripPropertyTests.catalog(seed: seed).text)
        return (seed, folder)
    })

    /// What issue 50 found dropped: `Accept` (an event stream's too), `Content-Type`, an
    /// `Authorization: Token {{token}}` that is no secret, a `{{USERNAME}}` variable, response
    /// references, an omitted header, a file body and multipart files (one with a filename of its own).
    static let dropped: TemporaryDirectory = {
        let folder = try! TemporaryDirectory()
        try! folder.write("fixtures/tokens/avatar.png", "\u{89}PNG")
        try! folder.write("fixtures/tokens/notes.txt", "line one\r\nline two\n")
        try! folder.write("tokens.yaml", """
            service: tokens
            variables: { USERNAME: ann }
            environments:
              local: { baseURL: "http://127.0.0.1:4010/tokens", headers: { Accept: application/json, X-Client: rt }, fixtures: immediate }
              production: { type: production, baseURL: "https://api.example.com/v1", variables: { USERNAME: prod-user } }
            groups:
              signed: { title: "Signed\nin", headers: { Authorization: "Token {{token}}" } }
            endpoints:
              login:
                method: POST
                path: /login
                body: { user: "{{USERNAME}}" }
                captures: { token: $.token }
                stub: { body: { token: t-1 } }
              events:
                title: "Events\nas they come"
                group: signed
                path: /events
                headers: { Accept: text/event-stream }
                omitHeaders: [X-Client]
                parameters: { token: abc }
                stub: { headers: { Content-Type: text/event-stream }, body: "data: 1" }
              me:
                method: PUT
                path: /users/{{USERNAME}}
                headers: { Content-Type: application/merge-patch+json, X-Session: "{{response.login $.token}}" }
                body: "{}"
              upload:
                method: POST
                path: /avatar
                multipart:
                  - { name: caption, value: "Me\r\nagain" }
                  - { name: avatar, file: fixtures/tokens/avatar.png, filename: me.png, contentType: image/png }
                  - { name: notes, file: fixtures/tokens/notes.txt }
              raw:
                method: PUT
                path: /raw
                bodyFile: fixtures/tokens/notes.txt
            """)
        return folder
    }()

    static let cases: [Case] = [
        Case(name: "what issue 50 found dropped", folder: dropped.path, service: "tokens"),
        Case(name: "bundled httpbin", folder: repository.appendingPathComponent("environments").path, service: "httpbin"),
        Case(name: "bundled petstore", folder: repository.appendingPathComponent("environments").path, service: "petstore"),
        Case(name: "exported-client shop", folder: repository.appendingPathComponent("Tests/ExportedClientTests/Catalog").path, service: "shop"),
    ] + RoundTripPropertyTests.seeds.map { Case(name: "random \($0)", folder: randomFolders[$0]!.path, service: "rt\($0)") }

    /// `export curl` of an endpoint in an environment, as the command prints it (secrets masked),
    /// or the error it stops with; `folder` written `CATALOG`.
    static func curl(
        _ catalog: CatalogSet, _ service: Service, _ endpoint: CatalogEndpoint, _ environment: Environment, folder: String, secrets: Set<String>
    ) async -> String {
        // Every secret given (in .env): the request is rendered, and `export curl` masks them.
        let values = Dictionary(uniqueKeysWithValues: secrets.map { ($0, "secret-\($0.lowercased())") })
        let outcome = await EndpointCaller(catalog: catalog, secrets: SecretStore(processEnvironment: [:], dotEnv: values), transport: nil)
            .call(EndpointSelection(service: service, endpoint: endpoint, environment: environment), mode: .stub)
        let text = if let error = outcome.exchange.error, error.kind == .invalidRequest {
            "error: \(error.message)"
        } else {
            outcome.exchange.request.curlCommand(redactor: outcome.redactor)
        }
        return text.replacing(folder, with: "CATALOG")
    }

    static func load(_ folder: String) -> CatalogSet {
        CatalogLoader.load(CatalogSource(origin: .option, directory: URL(fileURLWithPath: folder), displayPath: folder), trust: .everything)
    }

    /// Every endpoint of `original` in each of `environments` sends what the same endpoint of `again` sends.
    static func expectSameCurl(
        _ original: (catalog: CatalogSet, service: Service, folder: String), _ again: (catalog: CatalogSet, folder: String),
        environments: [String], label: String
    ) async throws {
        let imported = try #require(again.catalog.service(original.service.id), "\(label): \(again.catalog.diagnostics)")
        #expect(imported.endpoints.map(\.id) == original.service.endpoints.map(\.id), "\(label)")
        for name in environments {
            let before = try #require(original.service.environment(named: name))
            let after = try #require(imported.environment(named: name), "\(label): no environment \(name) in \(imported.environments.map(\.name))")
            for endpoint in original.service.endpoints {
                guard let other = imported.endpoint(endpoint.id) else { continue }
                let secrets = original.service.secretNames.union(imported.secretNames)
                let expected = await curl(original.catalog, original.service, endpoint, before, folder: original.folder, secrets: secrets)
                let actual = await curl(again.catalog, imported, other, after, folder: again.folder, secrets: secrets)
                #expect(actual == expected, "\(label) \(endpoint.id) in \(name)")
            }
        }
    }

    @Test(arguments: cases)
    func exportOpenAPIThenImportSendsTheSame(_ test: Case) async throws {
        let catalog = Self.load(test.folder)
        let service = try #require(catalog.service(test.service), "\(catalog.diagnostics)")
        let (document, _) = OpenAPIExporter.export(service)
        let result = try OpenAPIImporter.catalog(from: Data(document.prettyText().utf8), documentName: "\(test.service).json", service: service.id)
        #expect(!result.isPartial, "\(result.messages)")
        let (written, again) = try loadWritten(result)
        try await Self.expectSameCurl(
            (catalog, service, test.folder), (again, written.path), environments: service.environments.map(\.name), label: test.name)
    }

    @Test(arguments: cases)
    func exportHTTPThenImportSendsTheSame(_ test: Case) async throws {
        let catalog = Self.load(test.folder)
        let service = try #require(catalog.service(test.service), "\(catalog.diagnostics)")
        for environment in service.environments {
            // The .http file is written in the catalog's folder (its files named from there), with its private environment beside it.
            let exported = HTTPFileExporter.export(service: service, environment: environment, folder: test.folder)
            let secrets = HTTPFileExporter.secrets(service: service, environment: environment)
            let privateFile = HTTPFileExporter.privateEnvironment(secrets: secrets, environment: environment.name)
            let result = try HTTPFileImporter.catalog(
                text: exported.text, documentName: "\(test.service).http", privateEnvironments: Data(privateFile.utf8), service: service.id,
                files: DocumentFiles(folder: test.folder))
            #expect(!result.isPartial, "\(result.messages)")
            let (written, again) = try loadWritten(result)
            try await Self.expectSameCurl((catalog, service, test.folder), (again, written.path), environments: [environment.name], label: "\(test.name) (\(environment.name))")
        }
    }
}
