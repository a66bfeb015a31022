import Foundation
import TestSupport
import Testing
import TestTraits

extension EndToEnd {
    /// The real binary on a published description of a few hundred operations (Box Platform API,
    /// Tests/InteropTests/Resources/real: source and license in its README): imported, an endpoint
    /// found by a word of its title in the finder, sent in stub mode, its response shown.
    @Suite(.offPool) struct ExplorerPublishedDocumentTests {
        @Test func findAnEndpointByAWordOfItsTitleAndSendIt() async throws {
            let document = Products.repositoryRoot.appendingPathComponent("Tests/InteropTests/Resources/real/openapi/box-platform-api.json")
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("e2e-box-\(UUID().uuidString)")
            let state = FileManager.default.temporaryDirectory.appendingPathComponent("e2e-state-\(UUID().uuidString)")
            defer {
                try? FileManager.default.removeItem(at: folder)
                try? FileManager.default.removeItem(at: state)
            }
            let environment = ["XDG_STATE_HOME": state.path]
            let (status, output) = try await ProductProcess.run(["import", "openapi", document.path, "--out", folder.path], environment: environment)
            // 0: every operation comes in (Box's variants whose path keys hold '#' repaired, named); untrusted, it answers in stub mode.
            #expect(status == 0, "\(String(decoding: output, as: UTF8.self))")
            let session = try ExplorerSessionTests.launch(
                "--catalog \(TmuxSession.quote(folder.path))", width: 120, height: 40, environment: environment)
            defer { session.close() }
            try await session.waitFor("box-platform-api · local")
            try await session.send("C-p")
            try await session.send("recently")
            // The best match first, under the finder's cursor (`›`): the one endpoint whose title has the word.
            try await session.waitFor("› box-platform-api › Recent-items › get_recent_items")
            try await session.send("Enter")
            try await session.waitFor("Enter sends GET /recent_items")
            try await session.send("Enter")
            let screen = try await session.waitFor("next_marker")
            #expect(screen.contains("200") && screen.contains("recent_item"))
            try await session.send("q")
            try await session.waitFor("EXIT=0")
        }
    }
}
