import DispatcherCore
import Foundation
@testable import MockServer
import Testing

@testable import Catalog

/// The mock server as a real server revalidates and streams: `If-None-Match` naming a fixture's
/// `ETag` gets a 304, and an example with `streamInterval` is sent piece by piece.
extension MockServerTests {
    static let cached = """
        service: cache
        environments:
          local: { baseURL: "http://127.0.0.1:9/cache" }
        endpoints:
          doc:
            path: /doc
            stub:
              headers: { ETag: '"v1"', Cache-Control: max-age=10 }
              body: { version: 1 }
          ticks:
            path: /ticks
            stub:
              headers: { Content-Type: text/event-stream }
              streamInterval: 40ms
              body: "data: 1\\n\\ndata: 2\\n\\ndata: 3\\n\\n"
        """

    @Test func ifNoneMatchNamingTheETagGetsA304WithTheValidators() async throws {
        let catalog = CatalogLoader.load(fileSystem: InMemoryFileSystem(texts: ["cache.yaml": Self.cached]), source: .bundled)
        let service = try #require(catalog.service("cache"))
        try await withServer([service]) { server, _ in
            let url = try #require(server.baseURL(of: "cache")).appendingPathComponent("doc")
            let (body, first) = try await fetch(url)
            #expect(first.status == 200 && first.headers["ETag"] == "\"v1\"" && !body.isEmpty)
            let (empty, again) = try await fetch(url, headers: ["If-None-Match": "W/\"v0\", \"v1\""])
            #expect(again.status == 304)
            #expect(empty.isEmpty)
            #expect(again.headers["ETag"] == "\"v1\"")
            #expect(again.headers["Cache-Control"] == "max-age=10")
            let (_, other) = try await fetch(url, headers: ["If-None-Match": "\"v2\""])
            #expect(other.status == 200)
        }
    }

    @Test func aStreamIntervalSendsTheBodyEventByEvent() async throws {
        #expect(MockPlanner.streamPieces(Data("data: 1\n\ndata: 2\n\n".utf8), eventStream: true).map { String(decoding: $0, as: UTF8.self) }
            == ["data: 1\n\n", "data: 2\n\n"])
        #expect(MockPlanner.streamPieces(Data("a\nb\nc".utf8), eventStream: false).map { String(decoding: $0, as: UTF8.self) } == ["a\n", "b\n", "c"])
        let catalog = CatalogLoader.load(fileSystem: InMemoryFileSystem(texts: ["cache.yaml": Self.cached]), source: .bundled)
        let service = try #require(catalog.service("cache"))
        try await withServer([service], honourDelays: true) { server, _ in
            let url = try #require(server.baseURL(of: "cache")).appendingPathComponent("ticks")
            let started = ContinuousClock.now
            let (body, response) = try await fetch(url)
            #expect(response.status == 200)
            #expect(response.headers["Content-Length"] == nil)
            #expect(String(decoding: body, as: UTF8.self) == "data: 1\n\ndata: 2\n\ndata: 3\n\n")
            #expect(ContinuousClock.now - started >= .milliseconds(80))
        }
    }
}
