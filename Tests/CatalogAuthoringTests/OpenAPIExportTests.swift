import Catalog
import CatalogAuthoring
import CatalogTestSupport
import DispatcherCore
import Foundation
import JSONSupport
import TestSupport
import Testing
import TestTraits

/// `export openapi`: a catalog becomes an OpenAPI 3.1 document that `import openapi` reads back
/// to the same endpoints (on what both can say).
@Suite(.offPool) struct OpenAPIExportTests {
    static let catalog = """
        service: shop
        title: Shop
        variables: { itemId: "7" }
        environments:
          local: { baseURL: "http://127.0.0.1:4010/shop", fixtures: immediate, secretDefaults: { SHOP_TOKEN: t } }
          production: { type: production, baseURL: "https://shop.example/api", fixtures: never }
        groups:
          signedIn: { headers: { Authorization: "Bearer {{secret.SHOP_TOKEN}}" } }
        endpoints:
          getItem:
            title: One item
            group: signedIn
            path: /items/{{itemId}}
            headers: { X-Trace: "{{trace}}" }
            parameters: { trace: t-1 }
            stub: { body: { id: 7, name: Pen } }
            examples:
              missing: { status: 404, body: { message: No such item } }
              other: { status: 404, body: { message: Gone } }
              offline: { networkError: notConnectedToInternet }
          listItems:
            path: /items
            query: { limit: "{{limit}}", sort: name }
            parameters: { limit: "10" }
            stub: { body: [{ id: 1 }] }
          createItem:
            method: POST
            group: signedIn
            path: /items
            body: { name: Lamp, tags: [a] }
            stub: { status: 201, body: { id: 3 } }
          subscribe:
            method: POST
            path: /newsletter
            form: { email: ann@example.com }
        """

    @Test func catalogToOpenAPIAndBackKeepsTheEndpoints() throws {
        let folder = try TemporaryDirectory()
        try folder.write("shop.yaml", Self.catalog)
        let original = try #require(CatalogLoader.load(folder.catalogSource, trust: .everything).service("shop"))
        let document = OpenAPIExporter.document(original)
        #expect(document["openapi"] == "3.1.0")
        #expect(document["servers"] == [["url": "https://shop.example/api", "description": "production"]])
        #expect(document["components"]?["securitySchemes"]?["signedIn"]
            == ["type": "http", "scheme": "bearer", "x-apiexplorer-secret": "SHOP_TOKEN", "x-apiexplorer-value": "Bearer {{secret.SHOP_TOKEN}}"])
        #expect(!document.compactText.contains("secretDefaults"))

        let draft = try OpenAPIImporter.draft(from: Data(document.prettyText().utf8), documentName: "shop.json", service: "shop")
        let (_, catalog) = try loadWritten(CatalogImport(drafts: [draft]))
        let imported = try #require(catalog.service("shop"))
        #expect(imported.environments.map(\.name) == ["local", "production"])
        #expect(imported.environments[1].type == .production)
        #expect(imported.endpoints.map(\.id) == original.endpoints.map(\.id))
        for endpoint in original.endpoints {
            let again = try #require(imported.endpoint(endpoint.id))
            #expect(again.method == endpoint.method, "\(endpoint.id)")
            #expect(again.path == endpoint.path, "\(endpoint.id)")
            #expect(again.title == endpoint.title, "\(endpoint.id)")
            #expect(again.query.map(\.name) == endpoint.query.map(\.name), "\(endpoint.id)")
            #expect(again.group == endpoint.group, "\(endpoint.id)")
            #expect(again.body == endpoint.body, "\(endpoint.id)")
            #expect(again.stub.sample == endpoint.stub.sample || again.stub.name == "default", "\(endpoint.id)")
        }
        let getItem = try #require(imported.endpoint("getItem"))
        #expect(getItem.exampleNames == ["default", "missing", "other"], "the network error cannot be said in OpenAPI")
        #expect(getItem.parameters == ["trace": "t-1"], "the endpoint as written comes back (x-apiexplorer-request)")
        #expect(imported.endpoint("listItems")?.parameters == ["limit": "10"])
        // What another tool reads (no extension): OpenAPI names a header parameter after the header.
        let foreign = try OpenAPIImporter.draft(from: Data(Self.withoutExtensions(document).prettyText().utf8), documentName: "shop.json", service: "shop")
        #expect(foreign.endpoints.first { $0.id == "getItem" }?.parameters.map { "\($0.0)=\($0.1)" } == ["itemId=7", "X_Trace=t-1"])
        #expect(foreign.endpoints.first { $0.id == "listItems" }?.parameters.map { "\($0.0)=\($0.1)" } == ["limit=10", "sort=name"])
        guard case .response(let status, _, let body) = try #require(imported.endpoint("createItem")).stub.sample else { Issue.record("no stub"); return }
        #expect(status == 201)
        #expect(try JSONValue.parse(body) == ["id": 3])
    }

    /// The document without `x-apiexplorer-…` members: what other tools make of it.
    static func withoutExtensions(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let object):
            return .object(JSONObject(object.filter { !$0.key.hasPrefix("x-apiexplorer-") }.map { ($0.key, withoutExtensions($0.value)) }))
        case .array(let elements): return .array(elements.map(withoutExtensions))
        default: return value
        }
    }
}
