import Catalog
import CatalogTestSupport
import Foundation
import TestSupport
import Testing
import TestTraits

extension BinaryTests {
    /// `import curl`: a command line written as a new catalog or into an existing one.
    @Suite(.offPool) struct CurlImportCommandTests {
        @Test func importIntoAnExistingCatalogKeepsTheRestOfTheFile() async throws {
            let folder = try TemporaryDirectory()
            try ShopCatalog.write(into: folder, baseURL: "https://shop.io/api")
            let state = try TemporaryDirectory()
            let before = try #require(folder.read("shop.yaml"))
            let result = try await CLI.run(
                ["import", "curl", "curl https://shop.io/api/items/5/reviews -H 'X-Api-Key: k-12345678'", "--into", "shop", "--catalog", folder.path],
                state: state)
            #expect(result.status == 0, "\(result.errors)")
            #expect(result.errors.contains("SHOP_X_API_KEY"))
            let after = try #require(folder.read("shop.yaml"))
            #expect(after.hasPrefix(before.trimmingCharacters(in: .newlines)))
            #expect(!after.contains("k-12345678"))
            let catalog = CatalogLoader.load(folder.catalogSource, trust: .everything)
            #expect(!catalog.hasErrors, "\(catalog.diagnostics)")
            let endpoint = try #require(catalog.service("shop")?.endpoint("getReviews"))
            #expect(endpoint.path == "/items/{{itemId}}/reviews")
            #expect(endpoint.parameters == ["itemId": "5"])

            let outside = try await CLI.run(["import", "curl", "curl https://other.io/x", "--into", "shop", "--catalog", folder.path], state: state)
            #expect(outside.status == 2)
            let duplicate = try await CLI.run(
                ["import", "curl", "curl https://shop.io/api/items/5/reviews", "--into", "shop", "--catalog", folder.path], state: state)
            #expect(duplicate.status == 2)
            #expect(duplicate.errors.contains("already has an endpoint 'getReviews'"))
        }

        @Test func importPrintsOrWritesANewCatalog() async throws {
            let state = try TemporaryDirectory()
            let printed = try await CLI.run(["import", "curl", "curl https://api.shop.io/items -H 'Accept: application/json'"], state: state)
            #expect(printed.status == 0)
            #expect(printed.output.contains("service: shop\n"))
            let out = state.url.appendingPathComponent("shop.yaml").path
            let written = try await CLI.run(["import", "curl", "curl https://api.shop.io/items", "--out", out], state: state)
            #expect(written.status == 0)
            let again = try await CLI.run(["import", "curl", "curl https://api.shop.io/items", "--out", out], state: state)
            #expect(again.status == 2)
            let catalog = CatalogLoader.load(state.catalogSource, trust: .everything)
            #expect(catalog.service("shop")?.endpoint("getItems") != nil, "\(catalog.diagnostics)")
            let bad = try await CLI.run(["import", "curl", "curl -F a https://x.io"], state: state)
            #expect(bad.status == 2)
            let form = try await CLI.run(["import", "curl", "curl -F a=@b https://x.io"], state: state)
            #expect(form.status == 0)
            #expect(form.output.contains("- { name: a, file: b }"))
        }
    }
}
