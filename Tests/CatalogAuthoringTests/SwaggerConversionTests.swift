import Foundation
import JSONSupport
import TestTraits
import Testing

@testable import CatalogAuthoring

/// Swagger 2.0 read as OpenAPI 3.0 by swagger2openapi's rules, piece by piece.
@Suite(.offPool) struct SwaggerConversionTests {
    func converted(_ yaml: String) throws -> (document: JSONValue, notes: [ImportNote]) {
        let root = try #require(try YAMLComposerProbe.json(yaml))
        var converter = Swagger2Converter(documentName: "s.yaml") { _ in nil }
        return (converter.convert(root), converter.notes)
    }

    @Test func serversFromHostBasePathAndSchemes() throws {
        let (document, notes) = try converted("""
            swagger: "2.0"
            info: { title: T, version: "1" }
            host: api.example.com:8443
            basePath: /v2
            paths: {}
            """)
        #expect(document["servers"] == [["url": "https://api.example.com:8443/v2"]], "no schemes: https, with a note")
        #expect(notes.map(\.description) == ["s.yaml /schemes: the Swagger document names no scheme: https was assumed for api.example.com:8443"])
    }

    @Test func securityDefinitionsBecomeSchemes() {
        #expect(Swagger2Converter.securityScheme(["type": "basic"]) == ["type": "http", "scheme": "basic"])
        let oauth = Swagger2Converter.securityScheme([
            "type": "oauth2", "flow": "accessCode", "authorizationUrl": "https://a.example/auth", "tokenUrl": "https://a.example/token",
            "scopes": ["read": "Read"],
        ])
        #expect(oauth == [
            "type": "oauth2",
            "flows": ["authorizationCode": ["authorizationUrl": "https://a.example/auth", "tokenUrl": "https://a.example/token", "scopes": ["read": "Read"]]],
        ])
        #expect(Swagger2Converter.securityScheme(["type": "oauth2", "flow": "application", "tokenUrl": "t"])["flows"]?["clientCredentials"] != nil)
        #expect(Swagger2Converter.securityScheme(["type": "apiKey", "in": "query", "name": "k"]) == ["type": "apiKey", "in": "query", "name": "k"])
    }

    @Test func parametersBodiesAndResponses() throws {
        let (document, notes) = try converted("""
            swagger: "2.0"
            info: { title: T, version: "1" }
            host: h.example
            schemes: [http]
            consumes: [application/xml]
            produces: [application/json]
            paths:
              /things:
                post:
                  parameters:
                    - { name: thing, in: body, required: true, schema: { $ref: "#/definitions/Thing" } }
                    - { name: ids, in: query, type: array, items: { type: integer }, collectionFormat: tsv }
                    - { name: tags, in: query, type: array, items: { type: string } }
                  responses:
                    200: { description: ok, schema: { $ref: "#/definitions/Thing" }, examples: { application/json: { id: 1 } } }
            definitions:
              Thing: { type: object, properties: { id: { type: integer } } }
            """)
        let operation = try #require(document["paths"]?["/things"]?["post"])
        #expect(operation["requestBody"] == ["required": true, "content": ["application/xml": ["schema": ["$ref": "#/components/schemas/Thing"]]]])
        #expect(operation["parameters"]?[0]?["style"] == "form" && operation["parameters"]?[0]?["explode"] == false)
        #expect(operation["parameters"]?[1]?["explode"] == false, "csv is Swagger's default collection format")
        #expect(operation["responses"]?["200"]?["content"]?["application/json"]?["example"] == ["id": 1])
        #expect(document["components"]?["schemas"]?["Thing"] != nil)
        #expect(notes.contains { $0.kind == .repaired && $0.message.contains("tab-separated") })
    }
}

/// YAML read the way the importers read it.
enum YAMLComposerProbe {
    static func json(_ text: String) throws -> JSONValue? {
        try ImportedDocument.jsonOrYAML(Data(text.utf8), what: "test")
    }
}
