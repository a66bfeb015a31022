import Foundation
import TestSupport
import Testing
import TestTraits

extension EndToEnd {
    /// Panes that fit, in the real binary: the list's width set with `>` and by dragging the border
    /// with the mouse (SGR mouse reports, as xterm sends them), kept for the next launch; `.` zooms.
    @Suite(.offPool) struct ExplorerPanesTests {
        /// The sidebar's width on the screen: where the first row's border turns (`╮╭`).
        static func sidebarWidth(_ screen: String) -> Int? {
            guard let top = screen.split(separator: "\n").first(where: { $0.hasPrefix("╭  Environments") }) else { return nil }
            let characters = Array(top)
            return characters.indices.first { $0 + 1 < characters.count && characters[$0] == "╮" && characters[$0 + 1] == "╭" }.map { $0 + 1 }
        }

        static func waitForWidth(_ width: Int, in session: TmuxSession, sourceLocation: SourceLocation = #_sourceLocation) async throws {
            let screen = try await session.waitUntil { sidebarWidth($0) == width }
            if screen == nil {
                Issue.record("the list did not become \(width) wide: \(try await session.capture())", sourceLocation: sourceLocation)
            }
        }

        /// The left button pressed (`M`) or released (`m`) at a cell (0-based), as an SGR mouse report.
        static func mouse(_ session: TmuxSession, x: Int, y: Int, pressed: Bool) async throws {
            let report = "\u{1B}[<0;\(x + 1);\(y + 1)\(pressed ? "M" : "m")"
            try await session.send(bytes: Array(report.utf8))
        }

        @Test func theWidthKeysAndADragOfTheBorderSetTheWidthKeptForTheNextLaunch() async throws {
            let state = ExplorerEditingTests.stateFolder()
            defer { try? FileManager.default.removeItem(at: state) }
            let session = try ExplorerSessionTests.launch(environment: ["XDG_STATE_HOME": state.path])
            defer { session.close() }
            try await session.waitFor("Enter sends GET /get to local (STUB)")
            try await Self.waitForWidth(38, in: session)
            try await session.send(">", ">", ">")
            try await Self.waitForWidth(50, in: session)
            // Dragged from its border (column 49) to column 29.
            try await Self.mouse(session, x: 49, y: 12, pressed: true)
            try await Self.mouse(session, x: 29, y: 12, pressed: false)
            try await Self.waitForWidth(30, in: session)
            try await session.send(".")
            try await session.waitFor("ZOOM")
            try await session.send("Escape")
            try await session.waitForAbsence("ZOOM")
            try await session.send("q")
            try await session.waitFor("EXIT=0")

            let again = try ExplorerSessionTests.launch(environment: ["XDG_STATE_HOME": state.path])
            defer { again.close() }
            try await again.waitFor("Enter sends GET /get to local (STUB)")
            try await Self.waitForWidth(30, in: again)
        }
    }
}
