import CatalogTestSupport
import DispatcherCore
import Foundation
import Sessions
import Synchronization
import Testing

@testable import Catalog
import TestTraits

/// Per-request options a catalog sets: `showsActivity: false` keeps an endpoint out of the activity
/// count, `trackInflights: true` lets identical requests in flight share one response.
@Suite(.offPool) struct RequestOptionsCatalogTests {
    static let catalog = """
        service: feed
        environments:
          local: { baseURL: "http://127.0.0.1:1/feed", fixtures: never, trackInflights: true }
        endpoints:
          poll: { path: /poll, showsActivity: false }
          items: { path: /items }
        """

    /// A transport that answers after a pause, so requests overlap.
    final class SlowTransport: Transport {
        let count = Atomic<Int>(0)
        func send(_ request: Request) async throws(TransportError) -> Response {
            count.add(1, ordering: .relaxed)
            try? await Task.sleep(for: .milliseconds(100))
            return .json(200, "{}")
        }
    }

    @Test func aBackgroundPollDoesNotCountAsActivityAndIdenticalRequestsShareOneResponse() async throws {
        let catalog = CatalogLoader.load(fileSystem: InMemoryFileSystem(texts: ["feed.yaml": Self.catalog]), source: .bundled)
        #expect(!catalog.hasErrors, "\(catalog.diagnostics)")
        let service = try #require(catalog.service("feed"))
        #expect(service.environments[0].tracksInflights)
        let peak = Atomic<Int>(0)
        let activity = NetworkActivityPlugin { _, inFlight in
            var current = peak.load(ordering: .relaxed)
            while inFlight > current, !peak.compareExchange(expected: current, desired: inFlight, ordering: .relaxed).exchanged {
                current = peak.load(ordering: .relaxed)
            }
        }
        let transport = SlowTransport()
        let session = ServiceSession(service: service, environment: service.environments[0], transport: transport, plugins: [activity])
        _ = await session.send("poll", options: RequestOptions(stubBehavior: .never))
        #expect(peak.load(ordering: .relaxed) == 0)

        async let first = session.send("items", options: RequestOptions(stubBehavior: .never))
        async let second = session.send("items", options: RequestOptions(stubBehavior: .never))
        let (a, b) = await (first, second)
        #expect(a.response?.status == 200 && b.response?.status == 200)
        #expect(transport.count.load(ordering: .relaxed) == 2)  // the poll, then one shared request
        #expect(peak.load(ordering: .relaxed) >= 1)
    }
}
