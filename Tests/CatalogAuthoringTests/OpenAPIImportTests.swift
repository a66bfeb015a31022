import Catalog
import CatalogTestSupport
import DispatcherCore
import Foundation
import JSONSupport
import CatalogAuthoring
import Sessions
import TestSupport
import Testing
import TestTraits

/// OpenAPI import: the Petstore 3 document becomes a catalog that validates and answers every
/// endpoint and example in stub mode; 3.1 JSON documents too; bad documents fail clearly.
@Suite(.offPool) struct OpenAPIImportTests {
    static func resource(_ name: String) throws -> Data {
        try Data(contentsOf: interopResourceURL(name))
    }

    @Test func petstoreBecomesACatalogThatValidatesAndRunsInStubMode() async throws {
        let draft = try OpenAPIImporter.draft(from: try Self.resource("petstore-openapi-3.0.yaml"), documentName: "petstore.yaml", service: "petstore")
        let folder = try TemporaryDirectory()
        try draft.write(into: folder.url, force: false)
        let catalog = CatalogLoader.load(folder.catalogSource, trust: .everything)
        // The upload's body file is marked missing (the document cannot give one): validate says
        // the placeholder's path is checked when the request is sent.
        #expect(catalog.diagnostics.map(\.severity) == [.warning], "\(catalog.diagnostics)")
        #expect(catalog.diagnostics.allSatisfy { $0.message.contains("{{body_file}}") }, "\(catalog.diagnostics)")
        let service = try #require(catalog.service("petstore"))

        #expect(service.environments.map(\.name) == ["local", "production", "staging"])
        #expect(service.environments[1].baseURL.absoluteString == "https://petstore3.swagger.io/api/v3")
        #expect(service.environments[1].type == .production)
        #expect(service.environments[2].baseURL.absoluteString == "https://staging.petstore3.swagger.io/api/v3")
        #expect(service.endpoints.count == 15)
        // Tags are groups; the pet tag's operations use two schemes, so each carries its own.
        #expect(service.groups.map(\.id) == ["pet", "store", "user"])
        #expect(service.groups[0].headers.isEmpty)

        let getPet = try #require(service.endpoint("getPetById"))
        #expect(getPet.path == "/pet/{{petId}}")
        #expect(getPet.parameters == ["petId": "10"])
        #expect(getPet.group == "pet")
        #expect(getPet.headers["api_key"] == "{{secret.PETSTORE_API_KEY}}")
        #expect(service.endpoint("addPet")?.headers["Authorization"] == "Bearer {{secret.PETSTORE_AUTH}}")
        #expect(getPet.exampleNames == ["default", "badRequest", "notFound"])
        let byStatus = try #require(service.endpoint("findPetsByStatus"))
        #expect(byStatus.query == [QueryItem(name: "status", value: "{{status}}")])
        #expect(byStatus.parameters == ["status": "available"])
        let addPet = try #require(service.endpoint("addPet"))
        #expect(addPet.method == .post)
        #expect(addPet.examples.map(\.name) == ["badRequest", "status422"])

        // Every endpoint and example answers in stub mode, with the status the document gives.
        let caller = EndpointCaller(catalog: catalog, secrets: SecretStore(processEnvironment: [:]), transport: nil)
        for endpoint in service.endpoints {
            let selection = EndpointSelection(service: service, endpoint: endpoint, environment: service.environments[0])
            for name in endpoint.exampleNames {
                // uploadFile's body is a file the document cannot give: it waits for {{body_file}}.
                let values = endpoint.id == "uploadFile" ? ["body_file": "petstore.yaml"] : [:]
                let exchange = await caller.call(selection, mode: .stub, example: name, values: values).exchange
                #expect(exchange.error?.kind != .invalidRequest, "\(endpoint.id) [\(name)]: \(exchange.error?.message ?? "")")
                guard case .response(let status, _, _) = endpoint.example(named: name)?.sample else { continue }
                #expect(exchange.response?.status == status, "\(endpoint.id) [\(name)]")
            }
        }
        let pet = await caller.call(EndpointSelection(service: service, endpoint: getPet, environment: service.environments[0]), mode: .stub).exchange
        #expect(pet.request.url.absoluteString == "http://127.0.0.1:4010/petstore/pet/10")
        #expect(pet.request.headers["api_key"] == "demo-petstore-api-key")
        let body = try #require(pet.response.map { String(decoding: $0.body, as: UTF8.self) })
        #expect(body.contains(#""name": "doggie""#))
        let inventory = try #require(service.endpoint("getInventory"))
        guard case .response(_, _, let inventoryBody) = inventory.stub.sample else { Issue.record("no inventory stub"); return }
        #expect(String(decoding: inventoryBody, as: UTF8.self).contains(#""sold": 11"#))
    }

    @Test func openAPI31JSONImports() throws {
        let document = #"""
            {"openapi": "3.1.0", "info": {"title": "Echo API", "version": "2"},
             "servers": [{"url": "https://echo.example.com/{base}", "variables": {"base": {"default": "v2"}}}],
             "components": {"securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}}},
             "security": [{"bearer": []}],
             "paths": {"/echo/{id}": {"get": {
               "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string", "examples": ["abc"]}},
                              {"name": "X-Trace", "in": "header", "required": true, "schema": {"type": "string", "default": "t-1"}}],
               "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": ["object", "null"], "properties": {"id": {"type": "string"}}}}}},
                             "429": {"description": "slow down"}}}}}}
            """#
        let draft = try OpenAPIImporter.draft(from: Data(document.utf8), documentName: "echo.json")
        #expect(draft.service == "echo-api")
        let endpoint = try #require(draft.endpoints.first)
        #expect(endpoint.id == "getEcho")
        #expect(endpoint.path == "/echo/{{id}}")
        #expect(endpoint.headers.map { "\($0.0)=\($0.1)" } == ["X-Trace={{X_Trace}}"])
        #expect(endpoint.group == "bearer")
        #expect(endpoint.examples.map(\.name) == ["tooManyRequests"])
        #expect(draft.environments.map(\.baseURL) == ["http://127.0.0.1:4010/echo-api", "https://echo.example.com/v2"])
        #expect(draft.groups.first?.headers.first?.1 == "Bearer {{secret.ECHO_API_BEARER}}")

        let folder = try TemporaryDirectory()
        try draft.write(into: folder.url, force: false)
        let catalog = CatalogLoader.load(folder.catalogSource, trust: .everything)
        #expect(catalog.diagnostics.isEmpty, "\(catalog.diagnostics)")
        #expect(throws: AuthoringError.self) { try draft.write(into: folder.url, force: false) }
        try draft.write(into: folder.url, force: true)
    }

    /// Real documents (Twilio's) name query parameters `DateCreated`, `DateCreated<` and
    /// `DateCreated>`, and have titles like `Twilio - Api`.
    @Test func namesThatDifferOnlyByPunctuationGetTheirOwnPlaceholders() async throws {
        let document = #"""
            {"openapi": "3.0.1", "info": {"title": "Twilio - Api", "version": "1.0"},
             "paths": {"/Calls/{Call-Sid}.json": {"get": {"operationId": "ListCall",
               "parameters": [{"name": "Call-Sid", "in": "path", "required": true, "schema": {"type": "string"}},
                              {"name": "DateCreated", "in": "query", "required": true, "example": "2024-01-01", "schema": {"type": "string"}},
                              {"name": "DateCreated<", "in": "query", "required": true, "example": "2024-02-01", "schema": {"type": "string"}},
                              {"name": "DateCreated>", "in": "query", "required": true, "example": "2023-12-01", "schema": {"type": "string"}},
                              {"name": "Date_Created", "in": "query", "required": true, "example": "x", "schema": {"type": "string"}},
                              {"name": "Date.Created", "in": "query", "required": true, "example": "y", "schema": {"type": "string"}}],
               "responses": {"200": {"description": "ok"}}}},
              "/Calls.json": {"get": {"operationId": "ListCall", "responses": {"200": {"description": "ok"}}}}}}
            """#
        let draft = try OpenAPIImporter.draft(from: Data(document.utf8), documentName: "twilio.json")
        #expect(draft.service == "twilio-api")
        #expect(draft.endpoints.map(\.id) == ["ListCall", "ListCall2"])
        let endpoint = try #require(draft.endpoints.first)
        #expect(endpoint.path == "/Calls/{{Call_Sid}}.json")
        #expect(endpoint.query.map { "\($0.0)=\($0.1 ?? "")" } == [
            "DateCreated={{DateCreated}}", "DateCreated<={{DateCreated_before}}", "DateCreated>={{DateCreated_after}}",
            "Date_Created={{Date_Created}}", "Date.Created={{Date_Created2}}",
        ])
        #expect(Set(endpoint.parameters.map(\.0)).count == endpoint.parameters.count)
        let folder = try TemporaryDirectory()
        try draft.write(into: folder.url, force: false)
        let catalog = CatalogLoader.load(folder.catalogSource, trust: .everything)
        #expect(catalog.diagnostics.isEmpty, "\(catalog.diagnostics)")
        let service = try #require(catalog.service("twilio-api"))
        let caller = EndpointCaller(catalog: catalog, secrets: SecretStore(processEnvironment: [:]), transport: nil)
        let call = await caller.call(EndpointSelection(service: service, endpoint: service.endpoints[0], environment: service.environments[0]), mode: .stub)
        #expect(call.exchange.request.url.query == "DateCreated=2024-01-01&DateCreated%3C=2024-02-01&DateCreated%3E=2023-12-01&Date_Created=x&Date.Created=y")
    }

    /// Documents split over files: `$ref`s to other files (and from them to third ones, and
    /// back into themselves) are followed; URLs are not fetched.
    @Test func referencesAcrossFilesAreFollowed() throws {
        let files: [String: String] = [
            "paths/pet.yaml": """
                get:
                  operationId: getPet
                  parameters: [{ $ref: "../parameters.yaml#/PetId" }]
                  responses:
                    "200":
                      description: a pet
                      content: { application/json: { schema: { $ref: "../schemas/pet.yaml#/Pet" } } }
                    "404": { $ref: "../responses.yaml#/NotFound" }
                """,
            "parameters.yaml": "PetId: { name: petId, in: path, required: true, schema: { type: integer, example: 7 } }",
            "schemas/pet.yaml": """
                Pet:
                  type: object
                  properties:
                    id: { type: integer, example: 7 }
                    name: { type: string, example: Rex }
                    owner: { $ref: "#/Owner" }
                Owner: { type: object, properties: { name: { type: string, example: Ann } } }
                """,
            "responses.yaml": "NotFound: { description: not found, content: { application/json: { example: { message: no pet } } } }",
        ]
        let root = """
            openapi: 3.0.3
            info: { title: Split API, version: "1" }
            paths:
              /pets/{petId}: { $ref: paths/pet.yaml }
              /remote: { $ref: "https://example.com/remote.yaml" }
            """
        let asked = Asked()
        let lookup = DocumentFiles(confinedLookup: { path in
            asked.add(path)
            return files[path].map { .read(Data($0.utf8), permissions: 0o644) } ?? .refused(.missing)
        })
        let draft = try OpenAPIImporter.draft(from: Data(root.utf8), documentName: "split.yaml", files: lookup)
        #expect(Set(asked.paths) == Set(files.keys), "each file once, the URL never")
        #expect(draft.endpoints.map(\.id) == ["getPet"])
        let endpoint = try #require(draft.endpoints.first)
        #expect(endpoint.path == "/pets/{{petId}}")
        #expect(endpoint.parameters.map { "\($0.0)=\($0.1)" } == ["petId=7"])
        #expect(endpoint.examples.map(\.name) == ["notFound"])
        let fixtures = Dictionary(uniqueKeysWithValues: draft.fixtures.map { ($0.path, String(decoding: $0.data, as: UTF8.self)) })
        let pet = try JSONValue.parse(try #require(fixtures["fixtures/split-api/getPet.json"]))
        #expect(pet == ["id": 7, "name": "Rex", "owner": ["name": "Ann"]])
        #expect(try JSONValue.parse(try #require(fixtures["fixtures/split-api/getPet-notFound.json"])) == ["message": "no pet"])
        #expect(draft.notes.contains(ImportNote(.skipped, at: "split.yaml /paths/~1remote", "/remote was left out: its $ref cannot be followed (a URL, or a file that cannot be read)")))
        _ = try loadWritten(CatalogImport(drafts: [draft]))
    }

    @Test func requestBodiesOfOtherMediaTypes() async throws {
        let document = #"""
            {"openapi": "3.1.0", "info": {"title": "Bodies", "version": "1"},
             "paths": {
               "/upload": {"post": {"operationId": "upload", "requestBody": {"content": {"multipart/form-data": {"schema": {"type": "object",
                 "required": ["caption", "file"], "properties": {"caption": {"type": "string", "example": "me"}, "file": {"type": "string", "format": "binary"},
                 "note": {"type": "string"}}}, "encoding": {"file": {"contentType": "image/png"}}}}},
                 "responses": {"201": {"description": "ok"}}}},
               "/note": {"put": {"operationId": "note", "requestBody": {"content": {"text/plain": {"example": "hello"}}},
                 "responses": {"204": {"description": "ok"}}}},
               "/xml": {"post": {"operationId": "xml", "requestBody": {"content": {"application/xml": {"schema": {"type": "string", "example": "<a/>"}}}},
                 "responses": {"200": {"description": "ok"}}}}}}
            """#
        let draft = try OpenAPIImporter.draft(from: Data(document.utf8), documentName: "bodies.json")
        let (_, catalog) = try loadWritten(CatalogImport(drafts: [draft]))
        let service = try #require(catalog.service("bodies"))
        let caller = EndpointCaller(catalog: catalog, secrets: SecretStore(processEnvironment: [:]), transport: nil)
        // A multipart form: the required text field with its value, the required file field
        // marked missing (the document has no file to give), the optional field not sent.
        guard case .multipart(let fields)? = service.endpoint("upload")?.body else { Issue.record("no multipart body"); return }
        #expect(fields == [
            MultipartField(name: "caption", content: .text("me")),
            MultipartField(name: "file", content: .file(path: "{{file_file}}", filename: "file"), contentType: "image/png"),
        ])
        #expect(draft.messages.contains { $0.contains("set {{file_file}} to a file beside the catalog") })
        #expect(draft.yaml.contains("# optional multipart fields, not sent: note"))
        let note = await caller.call(EndpointSelection(service: service, endpoint: try #require(service.endpoint("note")), environment: service.environments[0]), mode: .stub)
        #expect(note.exchange.request.body == Data("hello".utf8))
        #expect(note.exchange.request.headers["Content-Type"] == "text/plain")
        #expect(service.endpoint("xml")?.body == .text("<a/>", contentType: nil))
        #expect(service.endpoint("xml")?.headers["Content-Type"] == "application/xml")
    }

    @Test func unreadableDocumentsFailClearly() {
        #expect(throws: AuthoringError.invalidInput("the Swagger 2.0 document has no 'info' with a title and a version")) {
            try OpenAPIImporter.draft(from: Data(#"{"swagger": "2.0"}"#.utf8), documentName: "x")
        }
        #expect(throws: AuthoringError.invalidInput("Swagger 1.2 is not supported (Swagger 2.0 and OpenAPI 3.0, 3.1 and 3.2 are)")) {
            try OpenAPIImporter.draft(from: Data(#"{"swagger": "1.2"}"#.utf8), documentName: "x")
        }
        #expect(throws: AuthoringError.self) { try OpenAPIImporter.draft(from: Data("title: nothing".utf8), documentName: "x") }
        #expect(throws: AuthoringError.self) { try OpenAPIImporter.draft(from: Data("{oops".utf8), documentName: "x") }
        #expect(throws: AuthoringError.self) { try OpenAPIImporter.draft(from: Data(#"{"openapi": "3.0.0"}"#.utf8), documentName: "x") }
    }
}

/// The paths a lookup was asked for (the lookup runs on the caller's thread; the lock keeps it `Sendable`).
final class Asked: @unchecked Sendable {
    private let lock = NSLock()
    private var asked: [String] = []

    func add(_ path: String) { lock.withLock { asked.append(path) } }
    var paths: [String] { lock.withLock { asked } }
}
