import Catalog
import CatalogAuthoring
import CatalogTestSupport
import DispatcherCore
import Foundation
import Sessions
import TestSupport
import Testing
import TestTraits

/// Insomnia v4 export import: workspace, request groups, base and sub-environments, Nunjucks templates.
@Suite(.offPool) struct InsomniaImportTests {
    static func shop() throws -> CatalogImport {
        try InsomniaImporter.catalog(export: try interopResource("insomnia/shop.insomnia.json"), documentName: "shop.insomnia.json")
    }

    @Test func exportBecomesACatalogThatLoadsAndAnswersInStubMode() async throws {
        let result = try Self.shop()
        let (folder, catalog) = try loadWritten(result)
        let shop = try #require(catalog.service("shop-api"))
        #expect(shop.environments.map(\.name) == ["local", "staging", "production"])
        #expect(shop.environments.map(\.baseURL.absoluteString) == ["http://127.0.0.1:4010/shop-api", "https://staging.shop.example/api", "https://shop.example/api"])
        #expect(shop.environments[2].type == .production)
        #expect(shop.variables["defaultPrice"] == "10")
        #expect(shop.endpoints.map(\.id) == ["listProducts", "createProduct", "logIn", "ordersGraphQL"])
        #expect(shop.groups.map(\.id) == ["products"])
        #expect(shop.groups[0].headers["Authorization"] == "Bearer {{secret.SHOP_API_TOKEN}}")

        let list = try #require(shop.endpoint("listProducts"))
        #expect(list.group == "products")
        #expect(list.query.map { "\($0.name)=\($0.value ?? "")" } == ["category=lamps", "limit={{pageSize}}"])
        #expect(list.parameters == ["pageSize": "20"], "the request group's environment")
        #expect(shop.endpoint("ordersGraphQL")?.headers["X-Api-Key"] == "{{secret.SHOP_API_X_API_KEY}}")

        let caller = EndpointCaller(catalog: catalog, secrets: SecretStore(processEnvironment: [:]), transport: nil)
        let create = try #require(shop.endpoint("createProduct"))
        let outcome = await caller.call(EndpointSelection(service: shop, endpoint: create, environment: shop.environments[0]), mode: .stub)
        // The export has no responses: built, then no fixture to answer with (never a refusal).
        #expect(outcome.exchange.error?.kind == .noFixture, "\(outcome.exchange.error?.message ?? "")")
        #expect(outcome.exchange.request.headers["Authorization"] == "Bearer demo-shop-api-token")
        #expect(String(decoding: outcome.exchange.request.body ?? Data(), as: UTF8.self) == "{\n\t\"name\": \"Lamp\",\n\t\"price\": 10\n}")

        let written = writtenText(folder)
        for secret in ["insomnia-staging-token", "insomnia-prod-token", "pw-staging", "plain-key-from-insomnia"] {
            #expect(!written.contains(secret), "\(secret)")
        }
        #expect(result.messages.contains { $0.contains("set $APIEXPLORER_SECRET_SHOP_API_PASSWORD") })
    }

    @Test func otherDocumentsAreRefused() {
        #expect(throws: AuthoringError.self) { try InsomniaImporter.catalog(export: Data(#"{"info": {}}"#.utf8), documentName: "x") }
        #expect(throws: AuthoringError.self) {
            try InsomniaImporter.catalog(export: Data(#"{"_type": "export", "__export_format": 3, "resources": []}"#.utf8), documentName: "x")
        }
    }
}
