import Foundation
import TestSupport
import Testing
import TestTraits

extension EndToEnd {
    /// Issue 34's proof in a real terminal: an event stream that the server drops twice and then
    /// stops with 204 keeps every event in the stream view and in the history.
    @Suite(.offPool) struct ExplorerReconnectTests {
        @Test func aStreamDroppedTwiceThenStoppedWith204KeepsEveryEvent() async throws {
            let handler: TestHTTPServer.Handler = { request in
                switch request.header("Last-Event-ID") {
                case nil: return .chunked(["retry: 100\nid: 1\ndata: first\n\n", "id: 2\ndata: second\n\n"], headers: ["Content-Type": "text/event-stream"])
                case "2": return .chunked(["id: 3\ndata: third\n\n"], headers: ["Content-Type": "text/event-stream"])
                default: return .status(.noContent)
                }
            }
            try await withTestHTTPServer(handler: handler) { server in
                let folder = try TemporaryDirectory()
                let state = try TemporaryDirectory()
                try folder.write("ticker.yaml", """
                    service: ticker
                    environments:
                      local: { baseURL: "\(server.baseURL.absoluteString)", fixtures: never }
                    endpoints:
                      ticks: { path: /ticks, stream: { reconnect: true } }
                    """)
                let session = try ExplorerSessionTests.launch(
                    "--trust --catalog \(TmuxSession.quote(folder.path)) --env ticker/local", environment: ["XDG_STATE_HOME": state.path])
                defer { session.close() }
                try await session.waitFor("Enter sends")
                try await session.send("Enter")
                let ended = try await session.waitFor("reconnected 2×")
                try await session.waitFor("ended")
                #expect(ended.contains("3 events"), "\(ended)")
                for event in ["first", "second", "third"] { #expect(ended.contains(event), "\(ended)") }
                #expect(server.requests.map { $0.header("Last-Event-ID") } == [nil, "2", "3"])
                // The history keeps the stream, every connection's events, not the 204 that stopped it.
                var entries: [[String: Any]] = []
                for _ in 0..<50 where entries.isEmpty {
                    let history = try await ProductProcess.run(["history", "--json"], environment: ["XDG_STATE_HOME": state.path])
                    entries = (try? JSONSerialization.jsonObject(with: history.output) as? [[String: Any]]) ?? []
                    if entries.isEmpty { try await Task.sleep(for: .milliseconds(100)) }
                }
                let response = try #require(entries.last?["response"] as? [String: Any])
                #expect(response["status"] as? Int == 200)
                let body = (response["body"] as? [String: Any])?["text"] as? String ?? ""
                #expect(body.contains("data: first") && body.contains("data: second") && body.contains("data: third"), "\(body)")
            }
        }
    }
}
