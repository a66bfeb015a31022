import Foundation
import StateStore
import TestSupport
import Testing
import TestTraits

extension BinaryTests {
    /// A canary secret sent through every output path, in headers, a query item and a body field
    /// whose names say nothing secret, and echoed back by the server: no output and no file may
    /// show it, unless revealed.
    @Suite(.offPool) struct CanaryTests {
        static let canary = "canary-7f3a9c1e5b"

        static func catalog(baseURL: String) -> String {
            """
            service: canary
            environments:
              local:
                baseURL: \(baseURL)
                fixtures: immediate
                retry: none
            endpoints:
              echo:
                path: /echo
                query:
                  q: "{{secret.CANARY_TOKEN}}"
                headers:
                  X-Auth: "{{secret.CANARY_TOKEN}}"
                stub:
                  body: { ok: true }
              note:
                method: POST
                path: /note
                body: { note: "{{secret.CANARY_TOKEN}}" }
                stub:
                  body: { ok: true }

            """
        }

        /// Echoes the request's X-Auth header and query back in a header and the body, as a careless server might.
        static func echo(_ request: TestRequest) -> TestResponse {
            let auth = request.header("X-Auth") ?? ""
            return .json(#"{"echo":"\#(auth)","q":"\#(request.query("q") ?? "")","body":\#(request.body.isEmpty ? "null" : request.bodyText)}"#)
                .withHeader("X-Echo", auth)
        }

        @Test func theCanaryNeverShowsUnlessRevealed() async throws {
            try await withTestHTTPServer(handler: { Self.echo($0) }) { server in
                let folder = try TemporaryDirectory()
                let state = try TemporaryDirectory()
                try folder.write("canary.yaml", Self.catalog(baseURL: server.baseURL.absoluteString))
                let environment = ["APIEXPLORER_SECRET_CANARY_TOKEN": Self.canary]
                func run(_ arguments: [String]) async throws -> CLI.Result {
                    try await CLI.run(arguments + ["--catalog", folder.path], state: state, environment: environment)
                }
                func expectMasked(_ result: CLI.Result, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
                    #expect(!result.output.contains(Self.canary), "\(what): \(result.output)", sourceLocation: sourceLocation)
                    #expect(!result.errors.contains(Self.canary), "\(what): \(result.errors)", sourceLocation: sourceLocation)
                }

                // The explorer: Headers, Errors, Request and Log tabs of both endpoints, live.
                for keys in ["Enter 2", "Enter 3", "Enter 4", "Enter 5", "j Enter 4", "j Enter 5"] {
                    let screen = try await run(["snapshot", "--live", "--keys", keys])
                    #expect(screen.status == 0, "\(screen.errors)")
                    expectMasked(screen, "snapshot --keys \(keys)")
                }
                // The test can see it: revealed, the Log tab shows it.
                let revealed = try await run(["snapshot", "--live", "--keys", "Enter 5 v"])
                #expect(revealed.output.contains(Self.canary))
                #expect(server.requests.contains { $0.header("X-Auth") == Self.canary && $0.query("q") == Self.canary })

                // call: plain with headers, JSON, an error message; history, HAR, curl, a recorded fixture.
                expectMasked(try await run(["call", "canary/echo", "--live", "--include"]), "call --include")
                expectMasked(try await run(["call", "canary/echo", "--live", "--json"]), "call --json")
                expectMasked(try await run(["call", "canary/note", "--live", "--json"]), "call note --json")
                #expect(try await run(["call", "canary/echo", "--live", "--reveal"]).output.contains(Self.canary))
                expectMasked(try await run(["export", "curl", "canary/echo"]), "export curl")
                expectMasked(try await run(["export", "curl", "canary/note"]), "export curl note")
                expectMasked(try await CLI.run(["history", "--json"], state: state), "history")
                expectMasked(try await CLI.run(["export", "har"], state: state), "export har")
                let recorded = try await run(["record", "canary/echo", "--example", "recorded"])
                #expect(recorded.status == 0, "\(recorded.errors)")
                expectMasked(recorded, "record")

                // Every file written: the history, its bodies, the catalog and its fixtures.
                for root in [state.url, folder.url] {
                    let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?.allObjects as? [URL] ?? []
                    for file in files {
                        guard let data = FileManager.default.contents(atPath: file.path) else { continue }
                        #expect(!String(decoding: data, as: UTF8.self).contains(Self.canary), "\(file.path)")
                    }
                }
            }
        }
    }
}
