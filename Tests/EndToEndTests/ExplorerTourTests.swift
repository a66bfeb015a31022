import Foundation
import TestSupport
import Testing
import TestTraits

extension EndToEnd {
    /// README's tour, the steps not covered by the other end-to-end tests: a 400 with its messages
    /// gathered, an error inside a 200, an expired session refreshed and resumed, an offline
    /// answer recovered from an example, all from the bundled petstore in stub mode.
    @Suite(.offPool) struct ExplorerTourTests {
        /// Runs `steps` on the binary showing a trusted copy of the bundled catalogs in petstore/local,
        /// with a state folder of its own.
        static func onPetstore(_ steps: (TmuxSession) async throws -> Void) async throws {
            let state = FileManager.default.temporaryDirectory.appendingPathComponent("e2e-state-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: state) }
            let catalog = try TemporaryCatalog(mockPort: 4010)
            defer { catalog.remove() }
            let session = try ExplorerSessionTests.launch(
                "--trust --catalog \(TmuxSession.quote(catalog.directory.path)) --env petstore/local", environment: ["XDG_STATE_HOME": state.path])
            defer { session.close() }
            try await session.waitFor("Enter sends")
            try await steps(session)
        }

        @Test func theTourOfErrorsAndHandlersFromTheBundledPetstore() async throws {
            try await Self.onPetstore { session in try await tour(session) }
        }

        func tour(_ session: TmuxSession) async throws {

            // 3. A 400 with its messages gathered from the body (invalidStatus is listPets' second example).
            try await session.send("/", "Find pets by status", "Enter")
            try await session.waitFor("GET    /pet/findByStatus")
            try await send(session, exampleAt: 2, named: "invalidStatus")
            try await session.waitFor("✗ badRequest")
            try await session.waitFor("status must be one of available, pending, sold; limit must be at most 100")

            // 4. An error hidden in a 200; 7. an offline answer recovered from an example.
            try await session.send("/", "C-u", "Store inventory", "Enter")
            try await session.waitFor("GET    /store/inventory")
            try await send(session, exampleAt: 4, named: "maintenance")
            try await session.waitFor("applicationError")
            try await send(session, exampleAt: 2, named: "offline")
            try await session.waitFor("recovered with the example 'lastKnown'")

            // 6. An expired session: refreshed, resumed once, 200.
            try await session.send("/", "C-u", "Find pet by id", "Enter")
            try await session.waitFor("GET    /pet/{{petId}}")
            try await send(session, exampleAt: 3, named: "expired")
            try await session.waitFor("200 OK")
            try await session.waitFor("resumed by token refresh")

            // 13. A session revoked for good: refreshed, refused again, signed out by the chain.
            try await send(session, exampleAt: 4, named: "revoked")
            try await session.waitFor("✗ expiredUserSession")
            try await session.waitFor("signed out of petstore · local")
            let banner = try await session.waitFor("signed out: expiredUserSession")
            #expect(banner.contains("resumed by token refresh"))
            // A request that succeeds there clears the banner.
            try await session.send("x", "g", "Enter")
            try await session.waitForAbsence("signed out: expiredUserSession")
        }

        /// Sends the example at `index` of the picker (0 is the default), then shows the Errors tab.
        func send(_ session: TmuxSession, exampleAt index: Int, named name: String) async throws {
            try await session.send("x")
            try await session.waitFor(name)
            try await session.send("g")
            for _ in 0..<index { try await session.send("j") }
            try await session.waitFor("› \(name)")
            try await session.send("Enter", "3")
        }
    }
}
