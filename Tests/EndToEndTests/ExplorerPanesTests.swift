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

        /// The left button pressed (`M`) or released (`m`) at a cell (0-based), as an SGR mouse report;
        /// `moved`: the pointer moved there with the button held (button code 32, as xterm reports it).
        static func report(x: Int, y: Int, pressed: Bool, moved: Bool = false) -> String {
            "\u{1B}[<\(moved ? 32 : 0);\(x + 1);\(y + 1)\(pressed ? "M" : "m")"
        }

        static func mouse(_ session: TmuxSession, x: Int, y: Int, pressed: Bool, moved: Bool = false) async throws {
            try await session.send(bytes: Array(report(x: x, y: y, pressed: pressed, moved: moved).utf8))
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
            // The app asked for the motion of a held button (1002), not every motion (1003).
            #expect(try await session.format("#{mouse_button_flag}#{mouse_all_flag}#{mouse_sgr_flag}") == "101")
            // Dragged from its border (column 49): the border follows before the button goes up.
            // The press and the first motion in one read, as a quick hand sends them.
            let start = Self.report(x: 49, y: 12, pressed: true) + Self.report(x: 39, y: 12, pressed: true, moved: true)
            try await session.send(bytes: Array(start.utf8))
            try await Self.waitForWidth(40, in: session)
            try await Self.mouse(session, x: 29, y: 14, pressed: true, moved: true)
            try await Self.waitForWidth(30, in: session)
            try await Self.mouse(session, x: 29, y: 14, pressed: false)
            try await Self.waitForWidth(30, in: session)
            try await session.send(".")
            try await session.waitFor("ZOOM")
            try await session.send("Escape")
            try await session.waitForAbsence("ZOOM")
            try await session.send("q")
            try await session.waitFor("EXIT=0")
            // The terminal is given back with no mouse reporting left on.
            #expect(try await session.format("#{mouse_any_flag}#{mouse_button_flag}") == "00")

            let again = try ExplorerSessionTests.launch(environment: ["XDG_STATE_HOME": state.path])
            defer { again.close() }
            try await again.waitFor("Enter sends GET /get to local (STUB)")
            try await Self.waitForWidth(30, in: again)
        }

        /// While a pager has the terminal the app asks for no mouse reports (the pager's own
        /// selection and scrolling work); back in the app they are on again and a drag still works.
        @Test func mouseReportsStopWhileThePagerHasTheTerminalAndResumeAfter() async throws {
            let folder = ExplorerEditingTests.stateFolder()
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let pager = folder.appendingPathComponent("pager.sh")
            try "#!/bin/sh\nclear\necho PAGER-RAN; read answer\n".write(to: pager, atomically: true, encoding: .utf8)
            chmod(pager.path, 0o755)
            let session = try ExplorerSessionTests.launch(environment: ["PAGER": pager.path, "XDG_STATE_HOME": folder.path])
            defer { session.close() }
            try await session.waitFor("Enter sends GET /get to local (STUB)")
            #expect(try await session.format("#{mouse_button_flag}#{mouse_all_flag}#{mouse_sgr_flag}") == "101")
            try await session.send("Enter")
            try await session.waitFor("200 OK")
            try await session.send("Tab")  // to the response pane, whose Body tab opens the pager
            try await session.send("o")
            try await session.waitFor("PAGER-RAN")
            #expect(try await session.format("#{mouse_any_flag}#{mouse_button_flag}#{mouse_sgr_flag}") == "000")
            try await session.send("Enter")
            try await session.waitForAbsence("PAGER-RAN")
            try await session.waitFor("╭  Endpoints")
            #expect(try await session.format("#{mouse_button_flag}#{mouse_all_flag}#{mouse_sgr_flag}") == "101")
            try await Self.waitForWidth(38, in: session)
            try await Self.mouse(session, x: 37, y: 12, pressed: true)
            try await Self.mouse(session, x: 45, y: 12, pressed: true, moved: true)
            try await Self.waitForWidth(46, in: session)
            try await Self.mouse(session, x: 45, y: 12, pressed: false)
            try await session.send("q")
            try await session.waitFor("EXIT=0")
            #expect(try await session.format("#{mouse_any_flag}#{mouse_button_flag}") == "00")
        }
    }
}
