import Catalog
import CatalogAuthoring
import CatalogTestSupport
import ContractCheck
import Foundation
import JSONSchema
import JSONSupport
import Testing
import TestTraits

/// The OpenAPI importer keeps the response schemas beside the catalog, and the examples the
/// documents publish (written as fixtures) conform to them.
@Suite(.offPool) struct ContractImportTests {
    /// Every fixture of the import (stubs and examples) checked against the kept schemas: the
    /// violations as `endpoint status: violation`, and how many bodies were checked.
    static func checkFixtures(_ draft: CatalogDraft, _ contract: ResponseContract) -> (violations: [String], checked: Int) {
        var violations: [String] = [], checked = 0
        let files = Dictionary(draft.fixtures.map { ($0.path, $0.data) }, uniquingKeysWith: { first, _ in first })
        for endpoint in draft.endpoints {
            for example in [endpoint.stub].compactMap({ $0 }) + endpoint.examples {
                guard let path = example.bodyFile, let body = files[path] else { continue }
                let contentType = example.headers.first { $0.0.lowercased() == "content-type" }?.1 ?? "application/json"
                let result = contract.check(endpoint: endpoint.id, status: example.status, contentType: contentType, body: body)
                if case .checked = result { checked += 1 }
                violations += result.violations.map { "\(endpoint.id) \(example.status): \($0)" }
            }
        }
        return (violations, checked)
    }

    @Test(arguments: [
        "real/openapi/callback-example.yaml", "real/openapi/link-example.yaml", "real/openapi/petstore-expanded.yaml", "real/openapi/uspto.yaml",
        "real/swagger/petstore-expanded.yaml", "real/swagger/uber.yaml", "petstore-openapi-3.0.yaml",
    ])
    func publishedExamplesConformToTheKeptSchemas(_ resource: String) throws {
        let name = String(resource.split(separator: "/").last!)
        let draft = try OpenAPIImporter.draft(from: try interopResource(resource), documentName: name)
        let (folder, catalog) = try loadWritten(CatalogImport(drafts: [draft]))
        let service = try #require(catalog.services.first)
        let schemas = try #require(service.responseSchemas, "\(resource): no schemas were kept")
        #expect(schemas.path == "\(draft.service).schemas.json" && folder.read(schemas.path) != nil)
        let contract = try #require(try ResponseContract(service: service))
        let (violations, checked) = Self.checkFixtures(draft, contract)
        #expect(violations.isEmpty, "\(resource): \(violations)")
        #expect(checked > 0, "\(resource): no fixture had a schema")
    }

    @Test func aDocumentWithoutResponseSchemasKeepsNoFile() throws {
        let draft = try OpenAPIImporter.draft(from: try interopResource("real/openapi/api-with-examples.yaml"), documentName: "api-with-examples.yaml")
        #expect(draft.schemas == nil && !draft.yaml.contains("schemas:") && !draft.fixtures.contains { $0.path.hasSuffix(".schemas.json") })
    }

    @Test func referencesAreKeptAsComponentsAndOthersCopied() throws {
        let document = #"""
            openapi: 3.0.3
            info: { title: Refs, version: "1" }
            paths:
              /a:
                get:
                  operationId: getA
                  responses:
                    "200":
                      description: ok
                      content:
                        application/json:
                          schema: { $ref: "#/components/schemas/A" }
                    "404": { $ref: "#/components/responses/NotFound" }
            components:
              responses:
                NotFound:
                  description: missing
                  content:
                    application/problem+json:
                      schema: { $ref: "#/paths/~1a/get/responses/200/content/application~1json/schema/x-error" }
              schemas:
                A:
                  type: object
                  required: [b]
                  properties:
                    b: { $ref: "#/components/schemas/B" }
                    self: { $ref: "#/components/schemas/A" }
                B: { type: integer, nullable: true }
                Unused: { type: string }
            """#
        let draft = try OpenAPIImporter.draft(from: Data(document.utf8), documentName: "refs.yaml")
        #expect(draft.schemas == "refs.schemas.json")
        #expect(draft.yaml.contains("\nschemas: refs.schemas.json  # "))
        let data = try #require(draft.fixtures.first { $0.path == "refs.schemas.json" }?.data)
        let kept = try JSONValue.parse(data)
        #expect(kept["dialect"] == "openapi-3.0" && kept["source"] == "refs.yaml")
        #expect(kept["components"]?["schemas"].map { if case .object(let o) = $0 { o.keys } else { [] } } == ["A", "B"])
        // A reference elsewhere that leads nowhere is named in a note and accepts anything.
        #expect(draft.messages.contains { $0.contains("cannot be followed") })
        let contract = try ResponseContract(data: data, path: "refs.schemas.json")
        #expect(contract.check(endpoint: "getA", status: 200, contentType: "application/json", body: Data(#"{"b": null, "self": {"b": 1}}"#.utf8)).conforms)
        #expect(contract.check(endpoint: "getA", status: 200, contentType: "application/json", body: Data(#"{"self": {"b": "x"}}"#.utf8)).violations.map(\.instancePointer) == ["/self/b", ""])
        #expect(contract.check(endpoint: "getA", status: 404, contentType: "application/problem+json", body: Data("{}".utf8)).conforms)
    }
}
