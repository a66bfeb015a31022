import Foundation
import TestSupport
import Testing
import TestTraits

extension EndToEnd {
    /// Shaping requests in the real binary: variables and edits sent live, drafts that survive
    /// `kill -9` and are written back into the catalog, catalogs changed while it runs, values
    /// captured from one response for the next request, and a pasted curl command.
    @Suite(.offPool) struct ExplorerEditingTests {
        /// A state folder of its own, so no test reads the user's drafts or history.
        static func stateFolder() -> URL {
            FileManager.default.temporaryDirectory.appendingPathComponent("e2e-state-\(UUID().uuidString)")
        }

        @Test func anEditedRequestGoesLiveSurvivesKill9AndIsWrittenBack() async throws {
            let served = try TemporaryCatalog(mockPort: 4010)
            defer { served.remove() }
            let (mock, port, _) = try ProductProcess.startMock(catalog: served.directory)
            defer { kill(mock.pid, SIGTERM) }
            let catalog = try TemporaryCatalog(mockPort: port)
            defer { catalog.remove() }
            let state = Self.stateFolder()
            defer { try? FileManager.default.removeItem(at: state) }
            let file = catalog.directory.appendingPathComponent("httpbin.yaml")
            let before = try String(contentsOf: file, encoding: .utf8)
            let arguments = "--trust --catalog \(TmuxSession.quote(catalog.directory.path)) --env httpbin/local"

            let session = try ExplorerSessionTests.launch(arguments, environment: ["XDG_STATE_HOME": state.path])
            defer { session.close() }
            try await session.waitFor("Enter sends")
            // httpbin/status: {{code}} set to 418 in the Vars tab, a header added in the Edit tab.
            try await session.send("/", "/status/", "Enter")
            try await session.waitFor("/status/{{code}}")
            try await session.send("Tab", "7")
            try await session.waitFor("code")
            try await session.send("Enter", "C-u", "418", "Enter")
            try await session.send("6")
            try await session.waitFor("+ add a header")
            try await session.send("j", "j", "j", "Enter", "X-Mock-Example: teapot", "Enter")
            try await session.waitFor("X-Mock-Example: teapot")
            try await session.send("s", "C-s")
            try await session.waitFor("418")
            try await session.waitFor("LIVE")
            try await session.send("4")
            try await session.waitFor("/status/418")
            try await session.waitFor("X-Mock-Example: teapot")

            // kill -9: the draft was already in the state folder.
            let pid = try #require(try await session.programPID())
            kill(pid, SIGKILL)
            try await session.waitFor("EXIT=")

            let again = try ExplorerSessionTests.launch(arguments, environment: ["XDG_STATE_HOME": state.path])
            defer { again.close() }
            try await again.waitFor("Restored 1 draft")
            // The list marks the draft (waited for: tmux may be read between two parts of a frame).
            try await again.waitFor("/status/{{code}} ✎")
            // W asks, then writes it into httpbin.yaml: only the header's line is new, nothing else moved.
            try await again.send("/", "/status/", "Enter", "W")
            try await again.waitFor("Write the catalog file?")
            try await again.send("y")
            try await again.waitFor("Wrote httpbin/status")
            let after = try String(contentsOf: file, encoding: .utf8)
            let beforeLines = before.split(separator: "\n", omittingEmptySubsequences: false)
            let afterLines = after.split(separator: "\n", omittingEmptySubsequences: false)
            let added = afterLines.filter { !beforeLines.contains($0) }
            #expect(added.count == 1 && added.first?.contains("X-Mock-Example: teapot") == true, "added lines: \(added)")
            #expect(afterLines.filter { beforeLines.contains($0) }.count == beforeLines.count)
            // u in the Edit tab puts the file back as it was, and the edits back into the draft.
            try await again.send("6", "u")
            try await again.waitFor("The catalog file is back as it was before W")
            #expect(try String(contentsOf: file, encoding: .utf8) == before)
            try await again.send("q")
            try await again.waitFor("EXIT=0")
        }

        @Test func catalogChangesShowWhileItRunsAndABrokenFileKeepsItsLastGoodVersion() async throws {
            let catalog = try TemporaryCatalog(mockPort: 4010)
            defer { catalog.remove() }
            let file = catalog.directory.appendingPathComponent("httpbin.yaml")
            let session = try ExplorerSessionTests.launch(
                "--trust --catalog \(TmuxSession.quote(catalog.directory.path)) --env httpbin/local", environment: ["XDG_STATE_HOME": Self.stateFolder().path])
            defer { session.close() }
            try await session.waitFor("Enter sends")
            let text = try String(contentsOf: file, encoding: .utf8)
            // First in the list, so it shows however many endpoints the bundled catalog has.
            let added = text.replacing("\nendpoints:\n", with: "\nendpoints:\n  teapotNow:\n    path: /added-while-running\n")
            try added.write(to: file, atomically: true, encoding: .utf8)
            try await session.waitFor("/added-while-running")
            try await session.waitFor("Reloaded httpbin.yaml")
            try (text + "\n  broken: [unclosed\n").write(to: file, atomically: true, encoding: .utf8)
            try await session.waitFor("/httpbin.yaml:")  // the first error, file:line:column as at launch
            try await session.waitFor(": error: ")
            try await session.waitFor("/added-while-running")  // the last good version stays
            try await session.send("q")
            try await session.waitFor("EXIT=0")
        }

        @Test func aCapturedIdFeedsTheNextRequest() async throws {
            let session = try ExplorerSessionTests.launch("--env petstore/local", environment: ["XDG_STATE_HOME": Self.stateFolder().path])
            defer { session.close() }
            try await session.waitFor("Enter sends")
            // login, listPets, findPet, addPet: addPet is sent, then findPet above it.
            try await session.send("j", "j", "j", "Enter")
            try await session.waitFor("201 Created")
            try await session.send("k", "Enter")
            try await session.waitFor("200 OK")
            try await session.send("4")
            let screen = try await session.waitFor("/pet/8")
            #expect(screen.contains("GET"))
            try await session.send("7")
            try await session.waitFor("captured from petstore/addPet")
            try await session.send("q")
            try await session.waitFor("EXIT=0")
        }

        @Test func aPastedCurlCommandIsSentAsAScratchRequest() async throws {
            let served = try TemporaryCatalog(mockPort: 4010)
            defer { served.remove() }
            let (mock, port, _) = try ProductProcess.startMock(catalog: served.directory)
            defer { kill(mock.pid, SIGTERM) }
            let session = try ExplorerSessionTests.launch(environment: ["XDG_STATE_HOME": Self.stateFolder().path])
            defer { session.close() }
            try await session.waitFor("Enter sends")
            try await session.send("C-n")
            try await session.waitFor("New request")
            try await session.send("curl -X POST http://127.0.0.1:\(port)/httpbin/post -H 'X-Trace: e2e-1' -d '{\"a\":1}'", "Enter")
            try await session.waitFor("200 OK")
            try await session.waitFor("scratch-1")
            try await session.send("4")
            try await session.waitFor("e2e-1")
            try await session.waitFor("POST http://127.0.0.1:\(port)/httpbin/post")
            try await session.waitFor("\"a\": 1")  // the body as it was sent, not form-encoded
            try await session.send("q")
            try await session.waitFor("EXIT=0")
        }
    }
}
