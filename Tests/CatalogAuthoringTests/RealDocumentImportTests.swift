import Catalog
import CatalogAuthoring
import CatalogTestSupport
import DispatcherCore
import Foundation
import JSONSupport
import Sessions
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
                // A response reference waits for its endpoint's response, as it should.
                let unset = message.matches(of: #/uses \{\{([^}]+)\}\}, which has no value/#).map { String($0.output.1) }.filter { !$0.hasPrefix("response.") }
                #expect(!message.isEmpty && unset.allSatisfy { name in notes.contains { $0.contains("{{\(name)}}") } },
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
        #expect(result.messages.contains("deep-input.har /log/entries/0: entries that are not http(s) requests (no URL) were left out"))
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
        await Self.expectStubsAnswer(catalog, notes: result.messages)
    }

    @Test func multilineURLOfTheHTTPClientFormatIsJoined() throws {
        let text = String(decoding: try interopResource("real/http/multiline-url.http"), as: UTF8.self)
        let (_, catalog) = try loadWritten(try HTTPFileImporter.catalog(text: text, documentName: "multiline-url.http"))
        let endpoint = try #require(catalog.services.first?.endpoints.first)
        #expect(endpoint.path == "/post")
        #expect(endpoint.query.map(\.name) == ["search1", "search2"])
    }

    @Test(arguments: ["uber", "petstore-expanded"])
    func swagger2ExamplesOfTheSpecificationImport(_ name: String) async throws {
        let result = try OpenAPIImporter.catalog(from: try interopResource("real/swagger/\(name).yaml"), documentName: "\(name).yaml")
        let (_, catalog) = try loadWritten(result)
        let service = try #require(catalog.services.first)
        #expect(!service.endpoints.isEmpty)
        #expect(service.environments.count == 2)
        #expect(!result.isPartial, "\(result.messages)")
        await Self.expectStubsAnswer(catalog, notes: result.messages)
    }

    /// uber.yaml writes `$ref: Product` (a Swagger 1.2 habit): the definition, not a file.
    @Test func uberShortReferencesAreDefinitions() throws {
        let draft = try OpenAPIImporter.draft(from: try interopResource("real/swagger/uber.yaml"), documentName: "uber.yaml")
        let fixture = try #require(draft.fixtures.first { $0.path.hasSuffix("/getProducts.json") })
        let products = try JSONValue.parse(fixture.data)
        #expect(products[0]?["display_name"] == "string")
        #expect(draft.environments.last?.baseURL == "https://api.uber.com/v1")
        let products2 = try #require(draft.endpoints.first { $0.path == "/products" })
        #expect(products2.query.map(\.0) == ["latitude", "longitude", "server_token"])
        #expect(products2.query.last?.1 == "{{secret.UBER_API_APIKEY}}")
    }

    /// Swagger 2.0 split over files: parameters, schemas and errors in other files, one of them a folder up.
    @Test func swagger2SplitOverFilesImports() async throws {
        let document = interopResourceURL("real/swagger/petstore-separate/spec/swagger.yaml")
        let folder = document.deletingLastPathComponent()
        let result = try OpenAPIImporter.catalog(
            from: try Data(contentsOf: document), documentName: "swagger.yaml",
            files: DocumentFiles(root: folder.deletingLastPathComponent().path, documentFolder: folder.path))
        let (_, catalog) = try loadWritten(result)
        let service = try #require(catalog.service("swagger-petstore"))
        #expect(service.endpoints.map(\.id) == ["findPets", "addPet", "find-pet-by-id", "deletePet"])
        #expect(service.endpoint("findPets")?.query.isEmpty == true, "both query parameters are optional")
        let add = try #require(service.endpoint("addPet"))
        guard case .json(let pet) = add.body else { Issue.record("no JSON body"); return }
        #expect(pet == ["id": 1, "name": "string"], "NewPet requires id and name (allOf Pet)")
        await Self.expectStubsAnswer(catalog, notes: result.messages)
    }

    /// A Chrome capture whose requests repeat headers (and carry HTTP/2 pseudo-headers).
    @Test func chromeCaptureWithRepeatedHeadersImports() async throws {
        let result = try HARImporter.catalog(har: try interopResource("real/har/browsertime-recalculate-style.har"), documentName: "browsertime.har")
        let (_, catalog) = try loadWritten(result)
        #expect(catalog.services.flatMap(\.endpoints).count >= 3)
        #expect(result.messages.contains { $0.contains("the repeated header") })
        #expect(!result.isPartial, "\(result.messages)")
        await Self.expectStubsAnswer(catalog, notes: result.messages)
    }

    /// WebPageTest's request-line pseudo-headers and a Set-Cookie line split into a header's name.
    @Test func webPageTestCaptureImports() async throws {
        let result = try HARImporter.catalog(har: try interopResource("real/har/wikipedia-webpagetest-excerpt.har"), documentName: "wikipedia.har")
        let (folder, catalog) = try loadWritten(result)
        #expect(Set(catalog.services.map(\.id)) == ["wikipedia", "wikimedia"])
        #expect(result.messages.contains { $0.hasPrefix("wikipedia.har /log/entries/0/response/headers: a header whose name is not a header name") })
        #expect(result.messages.contains { $0.contains("a header whose name is not a header name") && $0.contains("/log/entries/1/request/headers") })
        #expect(!writtenText(folder).contains("WMF-Last-Access=29-Aug-2015;Path=/"), "the broken line is not a header")
        await Self.expectStubsAnswer(catalog, notes: result.messages)
    }

    /// Postman's code generators' collection: a GraphQL body, form-data files on the exporter's machine.
    @Test func postmanCollectionWithGraphQLAndFormDataFilesImports() async throws {
        let result = try PostmanImporter.catalog(collection: try interopResource("real/postman/code-generators-collection.json"), documentName: "collection.json")
        let (_, catalog) = try loadWritten(result)
        let endpoints = catalog.services.flatMap(\.endpoints)
        #expect(endpoints.contains { $0.graphQL != nil })
        let upload = try #require(endpoints.first { endpoint in
            if case .multipart = endpoint.body { return endpoint.title.contains("file upload") }
            return false
        })
        guard case .multipart(let fields) = upload.body else { return }
        #expect(fields.map(\.filename) == ["dummyFile1.txt", "dummyFile2.txt", "dummyFile3.txt"])
        #expect(result.messages.contains { $0.contains("/Users/justinbaur/Developer/postman-code-generators/dummyFile1.txt") && $0.contains("marked missing") })
        #expect(!result.isPartial, "\(result.messages)")
        await Self.expectStubsAnswer(catalog, notes: result.messages)
    }

    /// kulala.nvim's advanced `.http` file: dynamic variables, request references, scripts,
    /// directives, GRAPHQL requests: everything a catalog can send comes in.
    @Test func httpFileWithDynamicVariablesAndReferencesImports() async throws {
        let text = String(decoding: try interopResource("real/http/kulala-advanced.http"), as: UTF8.self)
        let result = try HTTPFileImporter.catalog(text: text, documentName: "advanced.http")
        let (_, catalog) = try loadWritten(result)
        let endpoints = catalog.services.flatMap(\.endpoints)
        #expect(endpoints.count == HTTPFile(parsing: text).requests.count, "\(result.messages)")
        #expect(endpoints.contains { $0.graphQL?.query.contains("allFilms") == true })
        let two = try #require(endpoints.first { $0.id == "REQUEST_TWO" })
        guard case .json(let body) = two.body else { Issue.record("no JSON body"); return }
        #expect(body["token"] == "{{response.REQUEST_ONE $.json.foo}}")
        // Its multipart body (a templated boundary, a part from a file named by a variable) is a form of one file field, marked missing.
        #expect(endpoints.contains { endpoint in
            guard case .multipart(let fields) = endpoint.body else { return false }
            return fields.map(\.name) == ["file"] && fields.first?.filename == "{{filename}}"
        })
        await Self.expectStubsAnswer(catalog, notes: result.messages)
    }
}

extension RealDocumentImportTests {
    /// A published description of a few hundred operations (Box Platform API: 296 operations, 73
    /// tags): every operation becomes an endpoint in its tag's group (the 19 whose path key holds a
    /// fragment, `/shared_items#web_links`, Box's way of telling variants apart, repaired: a fragment
    /// is never sent), and every endpoint answers in stub mode.
    @Test func aPublishedDocumentOfSeveralHundredOperationsImports() async throws {
        let draft = try OpenAPIImporter.draft(from: try interopResource("real/openapi/box-platform-api.json"), documentName: "box-platform-api.json")
        // As `apiexplorer import` does: the parts the loader would refuse are left out, named.
        let result = try CatalogImport(drafts: [draft]).checked()
        let (_, catalog) = try loadWritten(result)
        let notes = result.notes.map(\.description)
        let service = try #require(catalog.services.first)
        #expect(service.endpoints.count == 296, "\(service.endpoints.count) endpoints")
        #expect(!result.isPartial, "\(notes.filter { $0.contains("left out") })")
        #expect(service.endpoint("get_shared_items-web_links")?.path == "/shared_items")
        #expect(Set(service.endpoints.compactMap(\.group)).count >= 60)
        let recent = try #require(service.endpoints.first { $0.id == "get_recent_items" })
        #expect(recent.title == "List recently accessed items" && recent.group == "Recent-items")
        #expect(draft.messages.filter { $0.hasSuffix("a path holds a fragment, which is never sent: the path is /shared_items") }.count == 3)
        await Self.expectStubsAnswer(catalog, notes: notes + draft.messages)
    }
}
