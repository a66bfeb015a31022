import Catalog
import CatalogTestSupport
import Foundation
import MockServer
import Sessions
import TestSupport
import NIOHTTP1
import Testing
import TestTraits

/// `apiexplorer call` on a stream: events printed as they arrive, one JSON object per line with
/// `--json` and the outcome on the last line; the plain body printed as it comes.
@Suite(.offPool) struct CallStreamTests {
    static func catalog(baseURL: String) -> String {
        """
        service: ticker
        environments:
          local: { baseURL: "\(baseURL)", fixtures: never }
        endpoints:
          ticks:
            path: /ticks
            stream: true
            stub:
              headers: { Content-Type: text/event-stream }
              streamInterval: 150ms
              body: "id: 1\\ndata: {\\"n\\":1}\\n\\nid: 2\\nevent: tick\\ndata: {\\"n\\":2}\\n\\nid: 3\\ndata: three\\n\\n"
        """
    }

    /// A catalog whose `ticker/ticks` streams from `server` and reconnects.
    static func reconnectingCatalog(_ server: TestHTTPServer) -> String {
        """
        service: ticker
        environments:
          local: { baseURL: "\(server.baseURL.absoluteString)", fixtures: never }
        endpoints:
          ticks: { path: /ticks, stream: { reconnect: true } }
        """
    }

    /// Runs `body` with a mock that keeps the stream's pace and a catalog pointed at it.
    func withStreamingMock(_ body: (TemporaryDirectory, TemporaryDirectory) async throws -> Void) async throws {
        let source = try TemporaryDirectory()
        try source.write("ticker.yaml", Self.catalog(baseURL: "http://127.0.0.1:9/ticker"))
        let service = try #require(CatalogLoader.load(source.catalogSource, trust: .everything).service("ticker"))
        let server = MockServer(services: [service], configuration: MockServer.Configuration(port: 0, honourDelays: true))
        try await server.start()
        do {
            let catalog = try TemporaryDirectory()
            try catalog.write("ticker.yaml", Self.catalog(baseURL: try #require(server.baseURL(of: "ticker")).absoluteString))
            try await body(catalog, try TemporaryDirectory())
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test func jsonPrintsEachEventOnItsLineAsItArrivesThenTheOutcome() async throws {
        try await withStreamingMock { catalog, state in
            let result = try await CLI.run(["call", "ticker/ticks", "--json", "--catalog", catalog.path], state: state)
            #expect(result.status == 0, "\(result.errors)")
            let lines = result.output.split(separator: "\n").map(String.init)
            try #require(lines.count == 4, "\(result.output)")
            let events = try lines.prefix(3).map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
            #expect(events.map { $0["id"] as? String } == ["1", "2", "3"])
            #expect(events.map { $0["event"] as? String } == ["message", "tick", "message"])
            #expect((events[1]["data"] as? [String: Any])?["n"] as? Int == 2)
            #expect(events[2]["data"] as? String == "three")
            // Stamped when each arrived (the mock sent them 150 ms apart), not all at the end: in
            // order and apart; how far apart depends on how busy the machine is.
            let times = events.compactMap { ($0["at"] as? NSNumber)?.doubleValue }
            #expect(times.count == 3 && times == times.sorted() && times[2] > times[0], "\(times)")
            let outcome = try #require(try JSONSerialization.jsonObject(with: Data(lines[3].utf8)) as? [String: Any])
            #expect((outcome["response"] as? [String: Any])?["status"] as? Int == 200)
        }
    }

    @Test func plainOutputIsTheBodyAsItCameOnce() async throws {
        try await withStreamingMock { catalog, state in
            let result = try await CLI.run(["call", "ticker/ticks", "--catalog", catalog.path], state: state)
            #expect(result.status == 0)
            #expect(result.output == "id: 1\ndata: {\"n\":1}\n\nid: 2\nevent: tick\ndata: {\"n\":2}\n\nid: 3\ndata: three\n\n")
        }
    }

    @Test func aClosedStreamThatAsksForItReconnectsWithLastEventIDUntilA204() async throws {
        let handler: TestHTTPServer.Handler = { request in
            let headers: HTTPHeaders = ["Content-Type": "text/event-stream"]
            switch request.headers.first(name: "Last-Event-ID") {
            case nil: return .chunked(["retry: 50\nid: 1\ndata: a\n\n", "id: 2\ndata: b\n\n"], headers: headers)
            case "2": return .chunked(["id: 3\ndata: c\n\n", "data: d\n\n"], headers: headers)
            default: return .status(.noContent)
            }
        }
        try await withTestHTTPServer(handler: handler) { server in
            let catalog = try TemporaryDirectory()
            try catalog.write("ticker.yaml", Self.reconnectingCatalog(server))
            let result = try await CLI.run(["call", "ticker/ticks", "--json", "--catalog", catalog.path], state: try TemporaryDirectory())
            let lines = result.output.split(separator: "\n")
            let events = try lines.dropLast().map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
            #expect(events.map { $0["data"] as? String } == ["a", "b", "c", "d"])
            // The id carries over to an event without one, and the third connection asks from 3.
            #expect(events.map { $0["id"] as? String } == ["1", "2", "3", "3"])
            let asked = server.requests.map { $0.headers.first(name: "Last-Event-ID") }
            #expect(asked == [nil, "2", "3"])
            // The 204 said stop: the outcome is the stream, every connection's events kept, and a note says why it ended.
            #expect(result.status == 0)
            let outcome = try jsonObject(Data(try #require(lines.last).utf8))
            let response = try #require(outcome["response"] as? [String: Any])
            #expect(response["status"] as? Int == 200)
            let body = try #require((response["body"] as? [String: Any])?["text"] as? String)
            #expect(body == "retry: 50\nid: 1\ndata: a\n\nid: 2\ndata: b\n\nid: 3\ndata: c\n\ndata: d\n\n")
            #expect(result.errors.contains("204 No Content to reconnection 2: the stream is over. The 4 events received are kept."), "\(result.errors)")
        }
    }

    /// An in-process server that drops the stream twice, then answers 204: plain `call` prints every
    /// connection's bytes, asks each time from the last id after the server's `retry`, and the
    /// history keeps all the events.
    @Test func aStreamDroppedTwiceThenStoppedKeepsEveryEventInTheHistory() async throws {
        let handler: TestHTTPServer.Handler = { request in
            let headers: HTTPHeaders = ["Content-Type": "text/event-stream"]
            switch request.headers.first(name: "Last-Event-ID") {
            case nil: return .chunked(["retry: 20\nid: 1\ndata: one\n\n"], headers: headers)
            case "1": return .chunked(["id: 2\ndata: two\n\n"], headers: headers)
            default: return .status(.noContent)
            }
        }
        try await withTestHTTPServer(handler: handler) { server in
            let catalog = try TemporaryDirectory()
            let state = try TemporaryDirectory()
            try catalog.write("ticker.yaml", Self.reconnectingCatalog(server))
            let result = try await CLI.run(["call", "ticker/ticks", "--catalog", catalog.path], state: state)
            #expect(result.status == 0, "\(result.errors)")
            #expect(result.output == "retry: 20\nid: 1\ndata: one\n\nid: 2\ndata: two\n\n")
            #expect(server.requests.map { $0.headers.first(name: "Last-Event-ID") } == [nil, "1", "2"])
            // Each reconnection is said before it is made, with its bound.
            #expect(result.errors.contains("reconnecting in 20 ms with Last-Event-ID: 1 (connection 2; 1 of at most 10 in a row without an event)"), "\(result.errors)")
            let history = try await CLI.run(["history", "--json"], state: state)
            let entries = try #require(try JSONSerialization.jsonObject(with: history.stdout) as? [[String: Any]])
            let entry = try #require(entries.last)
            let response = try #require(entry["response"] as? [String: Any])
            #expect(response["status"] as? Int == 200)
            #expect((response["body"] as? [String: Any])?["text"] as? String == "retry: 20\nid: 1\ndata: one\n\nid: 2\ndata: two\n\n")
        }
    }

    /// A server that closes at once, over and over, without an event, is given up after the bound.
    @Test func reconnectionsWithoutAnEventStopAtTheBound() async throws {
        let handler: TestHTTPServer.Handler = { _ in .chunked(["retry: 1\n\n"], headers: ["Content-Type": "text/event-stream"]) }
        try await withTestHTTPServer(handler: handler) { server in
            let catalog = try TemporaryDirectory()
            try catalog.write("ticker.yaml", Self.reconnectingCatalog(server))
            let result = try await CLI.run(["call", "ticker/ticks", "--no-history", "--catalog", catalog.path], state: try TemporaryDirectory())
            #expect(result.status == 0, "\(result.errors)")
            #expect(server.requestCount == 1 + StreamReconnection.maximumFruitlessReconnections)
            #expect(result.errors.contains("Gave up after 10 reconnections in a row without an event"), "\(result.errors)")
        }
    }
}
