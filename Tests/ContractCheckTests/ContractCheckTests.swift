import Catalog
import ContractCheck
import Foundation
import JSONSchema
import TestSupport
import Testing
import TestTraits

@Suite(.offPool) struct ContractCheckTests {
    static let schemas = #"""
        { "format": "apiexplorer-response-schemas/1", "dialect": "openapi-3.0", "source": "pets.yaml",
          "endpoints": { "getPet": { "200": { "application/json": { "$ref": "#/components/schemas/Pet" } },
                                     "4XX": { "application/problem+json": { "type": "object", "required": ["title"] } },
                                     "default": { "*/*": { "type": "object" } } },
                         "listPets": { "200": { "application/json": { "type": "array", "items": { "$ref": "#/components/schemas/Pet" } },
                                                "application/xml": { "type": "string" } } } },
          "components": { "schemas": { "Pet": { "type": "object", "required": ["id"], "properties": { "id": { "type": "integer" } } } } } }
        """#

    static let catalog = """
        service: pets
        schemas: pets.schemas.json
        environments:
          local:
            baseURL: http://127.0.0.1:1
        endpoints:
          getPet:
            path: /pets/1
        """

    let contract = try! ResponseContract(data: Data(schemas.utf8), path: "pets.schemas.json")

    func check(_ status: Int, _ contentType: String?, _ body: String, endpoint: String = "getPet") -> ContractResult {
        contract.check(endpoint: endpoint, status: status, contentType: contentType, body: Data(body.utf8))
    }

    @Test func aConformingBodyIsCheckedAgainstTheSchemaOfItsStatusAndContentType() {
        #expect(check(200, "application/json; charset=utf-8", #"{"id": 1}"#) == .checked(schema: "pets.schemas.json#/endpoints/getPet/200/application~1json", violations: []))
        #expect(check(200, "application/json", #"{"id": 1}"#).conforms)
    }

    @Test func aViolationNamesTheBodysPointerAndTheSchemaKeyword() {
        let violations = check(200, "application/json", #"{"id": "seven"}"#).violations
        #expect(violations == [SchemaViolation(instancePointer: "/id", schemaLocation: "#/components/schemas/Pet/properties/id/type", message: "expected integer, found string")])
        #expect(check(200, "application/json", #"[{"id": 1}, {}]"#, endpoint: "listPets").violations.map(\.instancePointer) == ["/1"])
    }

    @Test func statusRangesAndDefaultAndWildcardMediaTypesApply() {
        #expect(check(404, "application/problem+json", #"{"status": 404}"#).violations.map(\.message) == [#"the member "title" is required but missing"#])
        #expect(check(503, "text/html", "<html>").violations.map(\.message) == ["the body is not JSON (1:1: unexpected character '<')"])
        #expect(check(500, "application/json", "").violations.map(\.message) == ["the body is empty, but the schema describes a JSON value"])
    }

    @Test func withoutASchemaTheReasonIsGiven() {
        #expect(check(200, "text/plain", "x") == .noSchema("getPet declares no schema for content type text/plain with status 200 (it declares application/json)"))
        #expect(check(204, nil, "", endpoint: "deletePet") == .noSchema("pets.schemas.json has no response schemas for the endpoint 'deletePet'"))
        #expect(check(201, "application/json", "[]", endpoint: "listPets") == .noSchema("listPets declares no response for status 201 (it declares 200)"))
        #expect(check(200, nil, "[]", endpoint: "listPets") == .noSchema("listPets declares no schema for a response without a content type with status 200 (it declares application/json, application/xml)"))
    }

    @Test func aFileThatIsNotOneIsRefusedWithWhereAndWhy() {
        #expect(throws: ContractError("the schemas file 'x.json' is not JSON: x.json:2:1: unexpected text after the JSON value")) {
            try ResponseContract(data: Data("{}\n]".utf8), path: "x.json")
        }
        #expect(throws: ContractError("the schemas file 'x.json' has no 'endpoints' mapping: it is not a file of response schemas")) {
            try ResponseContract(data: Data("{}".utf8), path: "x.json")
        }
    }

    @Test func theCatalogNamesItsSchemasFile() throws {
        let set = CatalogLoader.load(
            fileSystem: InMemoryFileSystem(texts: ["pets.yaml": Self.catalog, "pets.schemas.json": Self.schemas]), source: .bundled)
        let service = try #require(set.services.first)
        #expect(service.responseSchemas?.path == "pets.schemas.json")
        let contract = try #require(try ResponseContract(service: service))
        #expect(contract.check(endpoint: "getPet", status: 200, contentType: "application/json", body: Data(#"{"id":2}"#.utf8)).conforms)
        #expect(set.diagnostics.isEmpty, "\(set.diagnostics)")
    }

    @Test func aMissingOrOutsideSchemasFileIsAWarningAndTheCatalogStillLoads() throws {
        let missing = CatalogLoader.load(fileSystem: InMemoryFileSystem(texts: ["pets.yaml": Self.catalog]), source: .bundled)
        #expect(missing.services.first?.endpoints.count == 1 && missing.services.first?.responseSchemas == nil)
        #expect(missing.diagnostics.map(\.description) == [
            "<bundled>/pets.yaml:2:10: warning: the schemas file does not exist; responses are not checked against it: 'pets.schemas.json'"
        ])
        let folder = try TemporaryDirectory()
        let outside = folder.url.appendingPathComponent("outside.json")
        try Data(Self.schemas.utf8).write(to: outside)
        let catalogFolder = folder.url.appendingPathComponent("catalog")
        try FileManager.default.createDirectory(at: catalogFolder, withIntermediateDirectories: true)
        try Data(Self.catalog.replacing("pets.schemas.json", with: "../outside.json").utf8).write(to: catalogFolder.appendingPathComponent("pets.yaml"))
        let set = CatalogLoader.load(fileSystem: DiskFileSystem(root: catalogFolder), source: .bundled)
        #expect(set.services.first?.responseSchemas == nil)
        #expect(set.diagnostics.map(\.description).contains { $0.contains("pets.yaml:2:10: warning: the schemas file is outside the catalog folder") }, "\(set.diagnostics)")
    }
}
