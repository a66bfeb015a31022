import Foundation
import TestSupport
import Testing
import TestTraits

extension EndToEnd {
    /// The Tests tab and a flow run from the palette, on the bundled petstore in stub mode.
    @Suite(.offPool) struct ExplorerTestsTabTests {
        @Test func theTestsTabChecksTheLastResponseAndThePaletteRunsTheAdoptFlow() async throws {
            try await ExplorerTourTests.onPetstore { session in try await testsAndFlow(session) }
        }

        func testsAndFlow(_ session: TmuxSession) async throws {

            // listPets declares seven assertions; the stub satisfies them all.
            try await session.send("/", "Find pets by status", "Enter")
            try await session.waitFor("GET    /pet/findByStatus")
            try await session.send("8")
            try await session.waitFor("its 7 assertions are checked as it arrives")
            try await session.send("Enter")
            try await session.waitFor("✓ all 7 passed · the endpoint's expect: · local STUB")
            try await session.waitFor("✓ $[*].name includes all of")

            // The palette runs the service's flow; its steps pass one by one.
            try await session.send("C-k")
            try await session.waitFor("Commands ·")
            try await session.send("run a flow")
            try await session.waitFor("run a flow of the service")
            try await session.send("Enter")
            let flow = try await session.waitFor("Flow adopt ✓ passed · 5/5 steps passed · local STUB")
            for step in ["login", "addPet", "findPet", "getInventory", "listPets"] {
                #expect(flow.contains("✓ \(step)"), "\(step) did not pass:\n\(flow)")
            }
            try await session.waitFor("Flow adopt: every step passed.")

            // o: the selected step's response (the first, login) in the Body tab.
            try await session.send("o")
            try await session.waitFor("access_token")

            // A: every test of the service, as `apiexplorer test petstore --stub` runs them.
            try await session.send("V")
            try await session.waitFor("Tests of petstore ✓ passed")
            try await session.waitFor("Tests of petstore: every test passed.")
        }
    }
}
