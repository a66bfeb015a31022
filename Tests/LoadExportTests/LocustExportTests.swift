import Catalog
import Foundation
import JSONSupport
@testable import LoadExport
import Testing
import TestTraits

/// A flow written as a locustfile: each step's request as the stub would send it, secrets left as
/// placeholders the file reads from the environment, captures carried between steps, and the
/// checks as data the file's helpers evaluate (running it under Locust: EndToEndTests).
@Suite(.offPool) struct LocustExportTests {
    static let catalog = """
        service: shop
        environments:
          local:
            baseURL: http://127.0.0.1:9/shop
            secretDefaults: { SHOP_TOKEN: demo-token }
        groups:
          signedIn: { headers: { Authorization: "Bearer {{secret.SHOP_TOKEN}}" } }
        endpoints:
          createItem:
            method: POST
            path: /items
            group: signedIn
            body: { name: Lamp }
            captures: { itemId: $.id }
            stub: { status: 201, body: { id: 7 } }
          getItem:
            path: /items/{{itemId}}
            expect: { status: 200, body: { $.name: { equals: Lamp } } }
            stub: { body: { id: 7, name: Lamp } }
        flows:
          buy:
            steps:
              - { name: create, endpoint: createItem }
              - { name: read, endpoint: getItem }
        """

    static func render() async throws -> String {
        let catalog = CatalogLoader.load(fileSystem: InMemoryFileSystem(texts: ["shop.yaml": catalog]), source: .bundled)
        let service = try #require(catalog.service("shop"))
        let flow = try #require(service.flows.first)
        return try await LocustExport(catalog: catalog).render(flow, of: service, in: service.environments[0], command: "apiexplorer export locust shop/buy")
    }

    @Test func eachStepIsItsRequestWithSecretsAsPlaceholders() async throws {
        let text = try await Self.render()
        #expect(text.contains(#""name": "buy/create","#) && text.contains(#""name": "buy/read","#))
        #expect(text.contains(#""method": "POST","#))
        #expect(text.contains(#""Authorization": "Bearer {{secret.SHOP_TOKEN}}","#))
        #expect(!text.contains("demo-token"), "a secret's value is never written")
        #expect(text.contains(#""SHOP_TOKEN": ["#), "the variables the secret is read from")
        #expect(text.contains(#""body": "{\"name\":\"Lamp\"}","#))
        #expect(text.contains(#"host = "http://127.0.0.1:9""#))
    }

    @Test func capturesCarryBetweenStepsAndChecksAreData() async throws {
        let text = try await Self.render()
        #expect(text.contains(#"CAPTURE_NAMES = {"itemId"}"#))
        #expect(text.contains(#""captures": [("itemId", ["path", "#))
        #expect(text.contains(#""url": "/shop/items/{{itemId}}","#))
        #expect(text.contains(#"("status", None, True, "#) && text.contains(#"["equals", "Lamp"]"#))
        #expect(text.contains("class ShopBuyUser(HttpUser):"))
    }

    @Test func pythonLiteralsAreThoseOfPython() {
        #expect(PythonLiteral.value(.null) == "None")
        #expect(PythonLiteral.value(.bool(true)) == "True")
        #expect(PythonLiteral.value(try! JSONValue.parse(#"{"a": [1, "b\n"]}"#)) == #"{"a": [1, "b\n"]}"#)
        #expect(PythonLiteral.string("say \"hi\"") == #""say \"hi\"""#)
        #expect(PythonLiteral.className("shop-buy") == "ShopBuy")
    }
}
