import Catalog
import CatalogTestSupport
import DispatcherCore
import Foundation
import CatalogAuthoring
import DriftCheck
import StateStore
import JSONSupport
import LiveTransport
import MockServer
import NIOHTTP1
import TestSupport
import Testing
import TestTraits

extension BinaryTests {
    /// `apiexplorer check`: a faithful mock shows no drift and the result is kept, a drifting server
    /// fails the check (the comparisons themselves: DriftCheckTests).
    @Suite(.offPool) struct DriftTests {
        @Test func faithfulMockShowsNoDriftAndTheResultIsKept() async throws {
            let source = try TemporaryDirectory()
            try ShopCatalog.write(into: source)
            let service = try #require(CatalogLoader.load(source.catalogSource, trust: .everything).service("shop"))
            let server = MockServer(services: [service], configuration: MockServer.Configuration(port: 0, honourDelays: false))
            try await server.start()
            let folder = try TemporaryDirectory()
            let state = try TemporaryDirectory()
            try ShopCatalog.write(into: folder, baseURL: try #require(server.baseURL(of: "shop")).absoluteString)
            let result = try await CLI.run(["check", "shop", "--var", "query=x", "--catalog", folder.path], state: state)
            let json = try await CLI.run(["check", "shop", "--var", "query=x", "--json", "--catalog", folder.path], state: state)
            let unsafe = try await CLI.run(["check", "shop", "--var", "query=x", "--var", "name=Lamp", "--include-unsafe", "--catalog", folder.path], state: state)
            await server.stop()

            #expect(result.status == 0, "\(result.output)\(result.errors)")
            // needsValue declares no stub: nothing to compare, so it is skipped and counted as such.
            #expect(result.output.contains("shop (local): 2 endpoints checked, 2 skipped (1 without a fixture)"), "\(result.output)")
            #expect(result.output.contains("needsValue  GET   skipped: \(EndpointDrift.noFixtureReason)"), "\(result.output)")
            #expect(result.output.contains("✓ getItem"))
            let object = try jsonObject(json.stdout)
            #expect(object["service"] as? String == "shop")
            let endpoints = try #require(object["endpoints"] as? [[String: Any]])
            #expect(endpoints.map { $0["outcome"] as? String } == ["same", "same", "skipped", "skipped"])
            #expect(endpoints[0]["liveStatus"] as? Int == 200)
            #expect(unsafe.status == 0, "\(unsafe.output)")
            #expect(unsafe.output.contains("3 endpoints checked, 1 skipped (1 without a fixture)\n"), "\(unsafe.output)")

            let store = DriftStore(directory: state.url.appendingPathComponent("apiexplorer"))
            let shop = try #require(CatalogLoader.load(.folder(folder.path), trust: .everything).service("shop"))
            #expect(store.last("getItem", in: EnvironmentKey(shop, environment: "local"))?.result.outcome == .same)
            #expect(store.results(EnvironmentKey(shop, environment: "local")).count == 4)
            // Another catalog declaring the same service finds none of its results.
            #expect(store.results(EnvironmentKey(catalog: .inMemory("shop"), service: "shop", environment: "local")).isEmpty)
        }

        @Test func driftingServerFailsTheCheck() async throws {
            let server = try await TestHTTPServer.start { request in
                switch request.path {
                case "/shop/items/7":
                    .json(#"{"id": 7, "name": "Pen", "price": "1.50", "owner": {"name": "Ann", "email": "ann@x.io"}, "sku": "P-7"}"#)
                case "/shop/items":
                    .text("<html>busy</html>", status: .serviceUnavailable, headers: ["Content-Type": "text/html"])
                default:
                    .status(.notFound)
                }
            }
            let folder = try TemporaryDirectory()
            let state = try TemporaryDirectory()
            try ShopCatalog.write(into: folder, baseURL: server.url("/shop").absoluteString)
            let result = try await CLI.run(["check", "shop", "--catalog", folder.path], state: state)
            try await server.shutdown()

            #expect(result.status == 1)
            let output = result.output
            #expect(output.contains("shop (local): 2 endpoints checked, 2 drifted, 2 skipped (1 without a fixture)"), "\(output)")
            for line in [
                "$.price: stub is number, live is string", "$.owner.email: the stub can be null, live never is", "$.tags: missing live (the stub has it)",
                "$.sku: live has it, the stub does not", "status: stub 200, live 503", "content type: stub application/json, live text/html",
                "body: stub is JSON, live is not JSON", "skipped: \(EndpointDrift.noFixtureReason)",
            ] {
                #expect(output.contains(line), "\(line)")
            }
            let store = DriftStore(directory: state.url.appendingPathComponent("apiexplorer"))
            let shop = try #require(CatalogLoader.load(.folder(folder.path), trust: .everything).service("shop"))
            #expect(store.last("getItem", in: EnvironmentKey(shop, environment: "local"))?.result.outcome == .drifted)
        }

        /// With the response schemas of its import (`schemas:`), a live body the same shape as the
        /// stub but breaking its schema is drift, named by its JSON Pointer.
        @Test func aLiveBodyBreakingTheKeptSchemaDrifts() async throws {
            let server = try await TestHTTPServer.start { request in
                request.path == "/shop/items/7"
                    ? .json(#"{"id": -7, "name": "Pen", "price": 1.5, "owner": {"name": "Ann", "email": null}, "tags": ["office"]}"#) : .status(.notFound)
            }
            let folder = try TemporaryDirectory()
            let state = try TemporaryDirectory()
            try ShopCatalog.write(into: folder, baseURL: server.url("/shop").absoluteString)
            try folder.write("shop.yaml", "schemas: shop.schemas.json\n" + ShopCatalog.text(baseURL: server.url("/shop").absoluteString))
            try folder.write("shop.schemas.json", #"""
                { "format": "apiexplorer-response-schemas/1", "dialect": "openapi-3.0",
                  "endpoints": { "getItem": { "200": { "application/json": { "$ref": "#/components/schemas/Item" } } } },
                  "components": { "schemas": { "Item": { "type": "object", "properties": { "id": { "type": "integer", "minimum": 1 } } } } } }
                """#)
            let result = try await CLI.run(["check", "shop", "--catalog", folder.path], state: state)
            try await server.shutdown()

            #expect(result.status == 1)
            #expect(result.output.contains("/id: live breaks the schema: -7 is less than the minimum 1"), "\(result.output)")
            #expect(!result.output.contains("$.id"), "\(result.output)")
        }

        @Test func unknownServiceExitsTwo() async throws {
            let folder = try TemporaryDirectory()
            try ShopCatalog.write(into: folder)
            let result = try await CLI.run(["check", "shops", "--catalog", folder.path], state: try TemporaryDirectory())
            #expect(result.status == 2)
            #expect(result.errors.contains("did you mean 'shop'?"))
        }
    }
}
