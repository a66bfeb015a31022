import CatalogTestSupport
import Foundation
import TestSupport
import Testing
import TestTraits

/// `call --stub` of an endpoint without a fixture says so and exits 2, instead of printing an
/// invented empty `200` (issue 34, point 4); the history keeps nothing for it.
@Suite(.offPool) struct CallNoFixtureTests {
    @Test func aStubCallWithoutAFixtureSaysSoExitsTwoAndIsNotKept() async throws {
        let catalog = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        try ShopCatalog.write(into: catalog)
        let call = try await CLI.run(["call", "shop/needsValue", "--stub", "--var", "query=x", "--catalog", catalog.path], state: state)
        #expect(call.status == 2, "\(call.output)\(call.errors)")
        #expect(call.output.isEmpty)
        #expect(call.errors.contains("error: noFixture: shop/needsValue has no fixture: stub mode has nothing to answer with"), "\(call.errors)")
        #expect(call.errors.contains("hint: add a 'stub:' to needsValue (") && call.errors.contains("shop.yaml:52:3)"), "\(call.errors)")
        #expect(call.errors.contains("or send it live (--live)"))

        let json = try await CLI.run(["call", "shop/needsValue", "--stub", "--var", "query=x", "--json", "--catalog", catalog.path], state: state)
        #expect(json.status == 2)
        let object = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        let error = try #require(object["error"] as? [String: Any])
        #expect(error["kind"] as? String == "noFixture")
        #expect(object["response"] == nil || object["response"] is NSNull)

        // A call with a fixture is kept; the ones without are not.
        let kept = try await CLI.run(["call", "shop/listItems", "--stub", "--catalog", catalog.path], state: state)
        #expect(kept.status == 0)
        let history = try await CLI.run(["history", "--json"], state: state)
        #expect(history.output.contains("listItems"))
        #expect(!history.output.contains("needsValue"), "\(history.output)")
    }
}
