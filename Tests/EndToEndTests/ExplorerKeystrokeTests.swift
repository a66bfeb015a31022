import Foundation
import TestSupport
import Testing
import TestTraits

extension EndToEnd {
    /// The three tasks README's table counts, each from "a request was just sent" to the next
    /// response, typed into the real binary: the counts asserted are the table's.
    ///
    /// Counting: one key press is one; a typed text (a value, a name, a word to find) is one, as
    /// in the counts of Posting the table compares with. Keys that only check the result (the
    /// Request tab) are not part of a task.
    @Suite(.offPool) struct ExplorerKeystrokeTests {
        /// A task's keys; each element is one counted key (a typed text is one element).
        static func type(_ keys: [String], into session: TmuxSession) async throws {
            for key in keys { try await session.send(key) }
        }

        static func launched() async throws -> TmuxSession {
            let state = FileManager.default.temporaryDirectory.appendingPathComponent("e2e-state-\(UUID().uuidString)")
            let session = try ExplorerSessionTests.launch(environment: ["XDG_STATE_HOME": state.path])
            try await session.waitFor("Enter sends GET /get to local (STUB)")
            return session
        }

        /// httpbin/get sent, then `task`; the Request tab shows `sent` (its key is not counted).
        static func afterGetIsSent(_ task: [String], showsInTheRequest sent: String) async throws {
            let session = try await Self.launched()
            defer { session.close() }
            try await session.send("Enter")
            try await session.waitFor("200")
            try await Self.type(task, into: session)
            try await session.waitFor("✎")
            try await session.send("4")
            try await session.waitFor(sent)
        }

        /// (a) `show=all` becomes `show=none` and the request goes again.
        @Test func changeAQueryValueAndResendIn3Keys() async throws {
            let task = ["P", "show=none", "C-s"]
            #expect(task.count == 3)
            #expect(task.count <= 8, "Posting: 8")
            try await Self.afterGetIsSent(task, showsInTheRequest: "/get?show=none&page=1")
        }

        /// (b) a header is added and the request goes again.
        @Test func addAHeaderAndResendIn3Keys() async throws {
            let task = ["A", "X-Trace: on", "C-s"]
            #expect(task.count == 3)
            #expect(task.count <= 13, "Posting: 13")
            try await Self.afterGetIsSent(task, showsInTheRequest: "X-Trace: on")
        }

        /// (c) petstore/addPet sent (its response holds the new pet's `"id": 8`); findPet is sent
        /// with that id. With the catalog's `captures:` (declared once, as Posting needs a script
        /// file) it takes 4 keys; by hand in the Vars tab, 8.
        @Test func chainAValueIntoTheNextRequest() async throws {
            let session = try await Self.launched()
            defer { session.close() }
            try await Self.type(["C-p", "addPet", "Enter", "Enter"], into: session)
            try await session.waitFor("\"id\": 8")

            let captured = ["C-p", "findPet", "Enter", "C-s"]
            #expect(captured.count == 4)
            try await Self.type(captured, into: session)
            try await session.send("4")
            try await session.waitFor("/pet/8")

            // By hand: the value read off the response, typed as the run-time value of {{petId}}.
            try await Self.type(["C-p", "addPet", "Enter", "1", "Enter"], into: session)
            try await session.waitFor("\"id\": 8")
            let byHand = ["C-p", "findPet", "Enter", "7", "Enter", "C-u", "9", "C-s"]
            #expect(byHand.count == 8)
            #expect(byHand.count <= 14, "Posting: 14 and a Python file")
            try await Self.type(byHand, into: session)
            try await session.send("4")
            try await session.waitFor("/pet/9")
        }
    }
}
