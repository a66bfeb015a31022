import CatalogTestSupport
import Foundation
import TestSupport
import Testing
import TestTraits

/// An example is a fixture: `call --example` answers in stub mode, and a live call refuses it
/// rather than sending `X-Mock-Example` to a real server.
@Suite(.offPool) struct CallExampleTests {
    @Test func anExampleInALiveCallIsAUsageErrorAndNothingIsSent() async throws {
        let seen = LockedValue(0)
        try await withTestHTTPServer(handler: { _ in
            seen.withLock { $0 += 1 }
            return .json("{}")
        }) { server in
            let catalog = try TemporaryDirectory()
            let state = try TemporaryDirectory()
            try ShopCatalog.write(into: catalog, baseURL: server.url("/shop").absoluteString, fixtures: "never")
            let live = try await CLI.run(["call", "shop/getItem", "--example", "missing", "--catalog", catalog.path, "--no-history"], state: state)
            #expect(live.status == 2)
            #expect(live.errors.contains("--example missing picks a fixture, which answers in stub mode only"), "\(live.errors)")
            #expect(live.errors.contains("local has fixtures: never"))
            let forced = try await CLI.run(
                ["call", "shop/getItem", "--live", "--example", "missing", "--catalog", catalog.path, "--no-history"], state: state)
            #expect(forced.status == 2)
            #expect(seen.withLock { $0 } == 0)
            let stub = try await CLI.run(["call", "shop/getItem", "--stub", "--example", "missing", "--catalog", catalog.path, "--no-history"], state: state)
            #expect(stub.status == 1)
            #expect(stub.output.contains("No such item"))
        }
    }
}
