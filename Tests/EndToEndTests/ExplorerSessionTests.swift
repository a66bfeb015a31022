import Foundation
import TestSupport
import Testing
import TestTraits

extension EndToEnd {
    /// The app in a real terminal (tmux): launch, navigate, send, switch, resize, quit.
    @Suite(.offPool) struct ExplorerSessionTests {
        /// A session of the binary on a catalog (the bundled one unless given), from an empty folder so
        /// ./environments is not picked up by accident.
        static func launch(_ arguments: String = "", width: Int = 120, height: Int = 40, environment: [String: String] = [:]) throws -> TmuxSession {
            let empty = FileManager.default.temporaryDirectory.appendingPathComponent("e2e-cwd-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
            let command = "cd \(TmuxSession.quote(empty.path)) && \(TmuxSession.quote(Products.apiexplorer.path)) \(arguments)"
            // The person's own config file (keys, theme) stays out: an empty config folder.
            return try TmuxSession(
                command: command, width: width, height: height,
                environment: ["APIEXPLORER_CATALOG": "", "XDG_CONFIG_HOME": empty.path].merging(environment) { $1 })
        }

        /// A 100×30 session of the binary on the repository's catalogs, its command line led by
        /// `prefix` (an environment change such as `TERM=dumb`).
        static func launchOnRepositoryCatalogs(after prefix: String) throws -> TmuxSession {
            let catalogs = Products.repositoryRoot.appendingPathComponent("environments").path
            let command = "\(prefix) \(TmuxSession.quote(Products.apiexplorer.path)) --catalog \(TmuxSession.quote(catalogs))"
            let config = FileManager.default.temporaryDirectory.appendingPathComponent("e2e-config-\(UUID().uuidString)")
            return try TmuxSession(command: command, width: 100, height: 30, environment: ["XDG_CONFIG_HOME": config.path])
        }

        /// The line `stty -a` printed after the program ended.
        static func sttyLine(_ screen: String) -> String {
            screen.split(separator: "\n").first { $0.hasPrefix("STTY:") }.map(String.init) ?? ""
        }

        static func expectTerminalRestored(_ screen: String, sourceLocation: SourceLocation = #_sourceLocation) {
            let stty = " " + sttyLine(screen) + " "
            #expect(stty.contains(" icanon "), "canonical mode not restored: \(stty)", sourceLocation: sourceLocation)
            #expect(stty.contains(" echo "), "echo not restored: \(stty)", sourceLocation: sourceLocation)
        }

        @Test func launchNavigateSendInStubModeAndQuitWithQ() async throws {
            let session = try Self.launch()
            defer { session.close() }
            var screen = try await session.waitFor("Enter sends GET /get to local (STUB)")
            #expect(screen.contains("httpbin") && screen.contains("petstore"))
            #expect(screen.contains("STUB"))
            try await session.send("j")
            try await session.waitFor("Enter sends POST /post to local (STUB)")
            try await session.send("Down")
            try await session.waitFor("Enter sends PUT /put")
            try await session.send("k")
            try await session.waitFor("Enter sends POST /post")
            try await session.send("Enter")
            screen = try await session.waitFor("200 OK")
            #expect(screen.contains("stub · local STUB"))
            try await session.send("2")
            try await session.waitFor("HTTP/1.1 200 OK")
            try await session.send("q")
            screen = try await session.waitFor("EXIT=")
            #expect(screen.contains("EXIT=0"))
            try await session.waitFor("STTY:")
            Self.expectTerminalRestored(try await session.capture())
        }

        @Test func liveModeAgainstTheMockServerSwitchingEnvironmentAndAMappedError() async throws {
            let catalog = try TemporaryCatalog(mockPort: 4010)  // port replaced below, once known
            defer { catalog.remove() }
            let (mock, port, _, _) = try ProductProcess.startMock(catalog: catalog.directory)
            defer { kill(mock.pid, SIGTERM) }
            let pointed = try TemporaryCatalog(mockPort: port)
            defer { pointed.remove() }

            let session = try Self.launch("--trust --catalog \(TmuxSession.quote(pointed.directory.path)) --env petstore/local")
            defer { session.close() }
            try await session.waitFor("petstore · local")
            try await session.send("s")
            try await session.waitFor("LIVE")
            try await session.send("j", "Enter")
            try await session.waitFor("network · local LIVE")
            // The body is formatted off the UI thread: it may show a frame after the status line.
            var screen = try await session.waitFor("\"name\"")
            #expect(screen.contains("200 OK"))

            // A named example is a fixture: picked in LIVE it goes nowhere (the mock answers 200 as
            // before); in STUB it answers: 429, mapped and explained.
            try await session.send("x", "j", "j", "j", "Enter")
            try await session.send("s")
            try await session.waitFor("STUB  petstore · local")
            try await session.send("Enter")
            try await session.waitFor("429 Too Many Requests")
            try await session.send("3")
            screen = try await session.waitFor("Mapped by")
            #expect(screen.contains("✗ tooManyRequests"))
            #expect(screen.contains("Retry-After    2 s"))

            // Back to LIVE: the same Enter carries no example (no X-Mock-Example): the mock's 200.
            try await session.send("s")
            try await session.waitFor("LIVE  petstore · local")
            try await session.send("Enter")
            screen = try await session.waitFor("200 OK")
            #expect(!screen.contains("429"))

            // Next environment: staging starts as its fixtures say (immediate: STUB), the example
            // picked above still chosen for the endpoint.
            try await session.send("e")
            try await session.waitFor("STUB  petstore · staging")
            try await session.send("Enter")
            try await session.waitFor("stub (rateLimited)")
            // tmux may be read between two parts of one frame: wait for the trace line itself.
            screen = try await session.waitFor("ttempt 1 answered by stub")
            #expect(screen.contains("stub (rateLimited)"))

            try await session.send("C-c")
            screen = try await session.waitFor("EXIT=")
            #expect(screen.contains("EXIT=0"))
            Self.expectTerminalRestored(try await session.waitFor("STTY:"))
        }

        @Test func resizingRedrawsAndATinyTerminalSaysSo() async throws {
            let session = try Self.launch(width: 100, height: 30)
            defer { session.close() }
            try await session.waitFor("Endpoints")
            try await session.resize(width: 40, height: 10)
            try await session.waitFor("Terminal too small")
            try await session.resize(width: 150, height: 45)
            let screen = try await session.waitFor("Endpoints")
            let widest = screen.split(separator: Character("\n")).map(\.count).max() ?? 0
            #expect(widest >= 140)
            try await session.send("q")
            try await session.waitFor("EXIT=0")
        }

        @Test func requestsSentInTheExplorerAreKeptInTheHistory() async throws {
            let state = FileManager.default.temporaryDirectory.appendingPathComponent("e2e-state-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: state) }
            let session = try Self.launch("--env petstore/local", environment: ["XDG_STATE_HOME": state.path])
            defer { session.close() }
            try await session.waitFor("petstore · local")
            let beforeSending = Date()
            try await session.send("j", "j", "Enter")  // GET /pet/{{petId}}, signed in with a bearer token
            try await session.waitFor("200 OK")
            let afterTheResponse = Date()
            try await session.send("q")
            try await session.waitFor("EXIT=0")
            let (status, output) = try await ProductProcess.run(["history", "--json"], environment: ["XDG_STATE_HOME": state.path])
            #expect(status == 0)
            let text = String(decoding: output, as: UTF8.self)
            #expect(text.contains("findPet") || text.contains("/pet/7"), "history: \(text)")
            #expect(!text.contains("demo-token"), "a secret reached the history: \(text)")

            // A new run lists it under H, at the local time of the zone TZ names (UTC+9 here), and
            // sends it again from there.
            let again = try Self.launch(environment: ["XDG_STATE_HOME": state.path, "TZ": "JST-9"])
            defer { again.close() }
            try await again.waitFor("httpbin · local")
            try await again.send("H")
            let history = try await again.waitFor("petstore/findPet · local")
            let row = history.split(separator: "\n").first { $0.contains("petstore/findPet · local") }.map(String.init) ?? ""
            let clocks = stride(from: beforeSending.timeIntervalSince1970.rounded(.down), through: afterTheResponse.timeIntervalSince1970, by: 1).map { second in
                let local = (Int(second) + 9 * 3600) % 86_400
                return [local / 3600, local / 60 % 60, local % 60].map { $0 < 10 ? "0\($0)" : "\($0)" }.joined(separator: ":")
            }
            #expect(clocks.contains { row.contains($0) }, "the time in UTC+9 (one of \(clocks)): \(row)")
            try await again.send("Enter")
            let screen = try await again.waitFor("200 OK · ")
            #expect(screen.contains("petstore/findPet"))  // the response pane moved to it
            #expect(screen.contains("petstore · local"))
            try await again.send("q")
            try await again.waitFor("EXIT=0")
        }

        @Test func aDriftCheckShowsAsABadgeInTheExplorer() async throws {
            let catalog = try TemporaryCatalog(mockPort: 4010)
            defer { catalog.remove() }
            let (mock, port, _, _) = try ProductProcess.startMock(catalog: catalog.directory)
            defer { kill(mock.pid, SIGTERM) }
            let pointed = try TemporaryCatalog(mockPort: port)
            defer { pointed.remove() }
            let state = FileManager.default.temporaryDirectory.appendingPathComponent("e2e-state-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: state) }

            let (status, _) = try await ProductProcess.run(
                ["check", "petstore", "--env", "local", "--trust", "--catalog", pointed.directory.path], environment: ["XDG_STATE_HOME": state.path])
            #expect(status == 0)  // a faithful mock: no drift
            let session = try Self.launch(
                "--trust --catalog \(TmuxSession.quote(pointed.directory.path)) --env petstore/local", environment: ["XDG_STATE_HOME": state.path])
            defer { session.close() }
            let screen = try await session.waitFor("=stub")
            #expect(screen.contains("/pet/findByStatus =stub"))
            try await session.send("q")
            try await session.waitFor("EXIT=0")
        }

        @Test func withoutAnyLocaleTheBoxesAndSymbolsStillDraw() async throws {
            let session = try Self.launchOnRepositoryCatalogs(after: "env -u LANG -u LC_ALL -u LC_CTYPE")
            defer { session.close() }
            let screen = try await session.waitFor("● local")
            #expect(screen.contains("╭  Environments"))
            try await session.send("q")
            try await session.waitFor("EXIT=0")
        }

        /// Curses hands the terminal to the pager and takes it back; the explorer then draws its
        /// whole screen again, with colours and keys working.
        @Test func thePagerGetsTheTerminalAndTheScreenComesBackWhole() async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("e2e-pager-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let pager = folder.appendingPathComponent("pager.sh")
            try "#!/bin/sh\nclear\necho PAGER-RAN; head -c 40 \"$1\"; echo; read answer\n".write(to: pager, atomically: true, encoding: .utf8)
            chmod(pager.path, 0o755)
            let session = try Self.launch(environment: ["PAGER": pager.path])
            defer { session.close() }
            try await session.waitFor("Enter sends GET /get to local (STUB)")
            try await session.send("Enter")
            try await session.waitFor("200 OK")
            try await session.send("Tab")  // to the response pane, whose Body tab opens the pager
            try await session.send("o")
            var screen = try await session.waitFor("PAGER-RAN")
            #expect(!screen.contains("Environments"))
            try await session.send("Enter")
            screen = try await session.waitForAbsence("PAGER-RAN")
            // tmux may show the redrawn frame before it has read all of it: wait for its last row
            // (capture-pane leaves out blank rows at the bottom).
            screen = try await session.waitUntil(timeout: .seconds(10), interval: .milliseconds(20)) { $0.split(separator: "\n").count >= 39 } ?? ""
            #expect(screen.contains("Environments") && screen.contains("╭  Endpoints") && screen.contains("200 OK") && screen.contains("STUB"))
            #expect(screen.split(separator: "\n").count >= 39, "the whole screen is drawn again:\n\(screen)")
            try await session.send("BTab")
            try await session.send("j")
            try await session.waitFor("Enter sends POST /post")
            try await session.send("q")
            try await session.waitFor("EXIT=0")
        }

        @Test func aTerminalThatCannotMoveItsCursorIsRefusedWithAReason() async throws {
            let session = try Self.launchOnRepositoryCatalogs(after: "TERM=dumb")
            defer { session.close() }
            let screen = try await session.waitFor("EXIT=")
            #expect(screen.contains("the terminal type TERM=dumb cannot move the cursor"))
            #expect(screen.contains("EXIT=2"))
        }

        @Test func sigtermRestoresTheTerminal() async throws {
            let session = try Self.launch()
            defer { session.close() }
            try await session.waitFor("Endpoints")
            let pid = try #require(try await session.programPID())
            kill(pid, SIGTERM)
            let screen = try await session.waitFor("EXIT=")
            #expect(screen.contains("EXIT=143"))
            Self.expectTerminalRestored(try await session.waitFor("STTY:"))
        }
    }
}
