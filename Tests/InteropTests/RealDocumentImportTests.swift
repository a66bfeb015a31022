import Catalog
import CatalogAuthoring
import DispatcherCore
import Foundation
import TestSupport
import Testing
import TestTraits

/// Importers against documents other people published (Resources/real: see its README for where
/// each came from and its license). Each import must end in a catalog the loader accepts whose
/// endpoints answer in stub mode, or be refused with a reason.
@Suite(.offPool) struct RealDocumentImportTests {
    /// Every endpoint of every service answers its stub (when it has one) without an invalid request.
    /// A placeholder nothing in the document gives a value (a script or a global sets it) may stop
    /// a request, when the import's `notes` named it.
    static func expectStubsAnswer(_ catalog: CatalogSet, notes: [String] = [], sourceLocation: Testing.SourceLocation = #_sourceLocation) async {
        let caller = EndpointCaller(catalog: catalog, secrets: SecretStore(processEnvironment: [:]), transport: nil)
        for service in catalog.services {
            for endpoint in service.endpoints {
                let selection = EndpointSelection(service: service, endpoint: endpoint, environment: service.environments[0])
                let exchange = await caller.call(selection, mode: .stub).exchange
                guard exchange.error?.kind == .invalidRequest, let message = exchange.error?.message else { continue }
                let unset = message.matches(of: #/uses \{\{([^}]+)\}\}, which has no value/#).map { String($0.output.1) }
                #expect(!unset.isEmpty && unset.allSatisfy { name in notes.contains { $0.contains("{{\(name)}}") } },
                    "\(service.id)/\(endpoint.id): \(message)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test(arguments: ["api-with-examples", "callback-example", "link-example", "petstore-expanded", "uspto"])
    func openAPIExamplesOfTheSpecificationImport(_ name: String) async throws {
        let draft = try OpenAPIImporter.draft(from: try interopResource("real/openapi/\(name).yaml"), documentName: "\(name).yaml")
        let (_, catalog) = try loadWritten(CatalogImport(drafts: [draft]))
        #expect(!(catalog.services.first?.endpoints.isEmpty ?? true))
        await Self.expectStubsAnswer(catalog)
    }

    @Test func openAPIDocumentWithOnlyWebhooksIsRefusedWithTheReason() throws {
        #expect {
            try OpenAPIImporter.draft(from: try interopResource("real/openapi/webhook-example.yaml"), documentName: "webhook-example.yaml")
        } throws: { error in
            "\(error)".contains("webhook") && "\(error)".contains("no operation")
        }
    }

    @Test(arguments: ["collection-v2", "nested-v2-collection"])
    func postmanLibraryExamplesImport(_ name: String) async throws {
        let result = try PostmanImporter.catalog(collection: try interopResource("real/postman/\(name).json"), documentName: "\(name).json")
        let (folder, catalog) = try loadWritten(result)
        await Self.expectStubsAnswer(catalog)
        let text = writtenText(folder)
        // The basic-auth password and the Hawk key of collection-v2.json are never written.
        #expect(!text.contains("asdhjajsd") && !text.contains("asjehcgfdjyrggucgn"))
    }

    @Test func insomniaYAMLExportImports() async throws {
        let result = try InsomniaImporter.catalog(export: try interopResource("real/insomnia/insomnia4.yaml"), documentName: "insomnia4.yaml")
        let (_, catalog) = try loadWritten(result)
        let service = try #require(catalog.services.first)
        #expect(service.endpoints.map(\.id) == ["getSleep"])
        let environment = try #require(service.environments.first { $0.name.contains("insomnia") })
        #expect(environment.baseURL.absoluteString == "http://127.0.0.1:4010")
        await Self.expectStubsAnswer(catalog)
    }

    @Test func chromeHARCaptureImportsWithoutItsCookies() async throws {
        let result = try HARImporter.catalog(har: try interopResource("real/har/deep-input.har"), documentName: "deep-input.har")
        let (folder, catalog) = try loadWritten(result)
        #expect(catalog.services.map(\.id) == ["insomnia"])
        #expect(result.notes.contains { $0.contains("1 entries were left out") })
        let text = writtenText(folder)
        #expect(!text.contains("df7b43586f071c4aaa79dc8a9de0845771478571055") && !text.contains("foo=bar"))
        await Self.expectStubsAnswer(catalog)
    }

    @Test(arguments: ["multiline-url", "environment-variables", "templated-url"])
    func httpClientParserFixturesImport(_ name: String) async throws {
        let text = String(decoding: try interopResource("real/http/\(name).http"), as: UTF8.self)
        let result = try HTTPFileImporter.catalog(text: text, documentName: "\(name).http")
        let (_, catalog) = try loadWritten(result)
        #expect(catalog.services.first?.endpoints.count == 1)
        await Self.expectStubsAnswer(catalog, notes: result.notes)
    }

    @Test func multilineURLOfTheHTTPClientFormatIsJoined() throws {
        let text = String(decoding: try interopResource("real/http/multiline-url.http"), as: UTF8.self)
        let (_, catalog) = try loadWritten(try HTTPFileImporter.catalog(text: text, documentName: "multiline-url.http"))
        let endpoint = try #require(catalog.services.first?.endpoints.first)
        #expect(endpoint.path == "/post")
        #expect(endpoint.query.map(\.name) == ["search1", "search2"])
    }
}
