import ExplorerApp
import ExplorerTestSupport
import TerminalKit
import Testing
import TestTraits

/// Panes that fit (Features/Panes): the list's width set with `<` `>` or by dragging the border,
/// bounded and kept; `.` zooms the focused pane; the status bar keeps the essentials at 80×24.
@Suite(.offPool) struct PanesTests {
    static func row(_ state: AppState, _ y: Int) -> Substring {
        state.screen.split(separator: "\n", omittingEmptySubsequences: false)[y]
    }

    static func drag(_ state: inout AppState, from start: Int, to end: Int, row: Int = 10) -> [AppEffect] {
        _ = AppReducer.reduce(&state, .terminal(.mouse(MouseEvent(.press(.left), at: Position(x: start, y: row)))))
        return AppReducer.reduce(&state, .terminal(.mouse(MouseEvent(.release, at: Position(x: end, y: row)))))
    }

    @Test func widthKeysMoveTheBorderAndKeepTheWidth() {
        var state = TestCatalog.state(size: Size(width: 120, height: 40))
        let automatic = state.layout.sidebarWidth
        #expect(automatic == 38)
        let wider = state.press(">")
        #expect(state.layout.sidebarWidth == automatic + PanesState.step)
        #expect(wider == [.panes(.save(listWidth: automatic + PanesState.step))])
        #expect(state.layout.response.x == automatic + PanesState.step)
        _ = state.press("< <")
        #expect(state.layout.sidebarWidth == automatic - PanesState.step)
        // The border is drawn where the width says.
        #expect(Self.row(state, 0).hasPrefix("╭  Environments") && Array(Self.row(state, 0))[automatic - PanesState.step - 1] == "╮")
    }

    @Test func theWidthIsBoundedAndSaysWhy() {
        var state = TestCatalog.state(size: Size(width: 80, height: 24))
        _ = state.press(String(repeating: "> ", count: 20))
        let widest = AppLayout.sidebarWidths(forWidth: 80).upperBound
        #expect(widest == 48 && state.layout.sidebarWidth == widest)
        #expect(state.layout.response.width >= 30)
        #expect(state.notice?.contains("the widest") == true)
        _ = state.press(String(repeating: "< ", count: 20))
        #expect(state.layout.sidebarWidth == AppLayout.sidebarWidthLimits.lowerBound)
        #expect(state.notice?.contains("the narrowest") == true)
        // A kept width wider than a smaller terminal allows is drawn at what it allows, and kept.
        _ = state.press(String(repeating: "> ", count: 20))
        _ = AppReducer.reduce(&state, .terminal(.resize(Size(width: 60, height: 20))))
        #expect(state.layout.sidebarWidth == AppLayout.sidebarWidths(forWidth: 60).upperBound)
        _ = AppReducer.reduce(&state, .terminal(.resize(Size(width: 80, height: 24))))
        #expect(state.layout.sidebarWidth == widest)
    }

    @Test func draggingTheBorderSetsTheWidth() {
        var state = TestCatalog.state(size: Size(width: 120, height: 40))
        let border = state.layout.sidebarWidth - 1
        let focus = state.focus
        let effects = Self.drag(&state, from: border, to: border + 15)
        #expect(state.layout.sidebarWidth == 38 + 15)
        #expect(effects == [.panes(.save(listWidth: 53))])
        #expect(state.focus == focus, "a press on the border focuses nothing")
        // From the response pane's side of the border, leftwards.
        _ = Self.drag(&state, from: state.layout.sidebarWidth, to: state.layout.sidebarWidth - 20)
        #expect(state.layout.sidebarWidth == 33)
        // Past the bounds: held at them.
        _ = Self.drag(&state, from: 32, to: 119)
        #expect(state.layout.sidebarWidth == AppLayout.sidebarWidths(forWidth: 120).upperBound)
    }

    static func mouse(_ state: inout AppState, _ kind: MouseEvent.Kind, x: Int, y: Int = 10) -> [AppEffect] {
        AppReducer.reduce(&state, .terminal(.mouse(MouseEvent(kind, at: Position(x: x, y: y)))))
    }

    @Test func theBorderFollowsThePointerAndTheWidthIsKeptOnlyOnRelease() {
        var state = TestCatalog.state(size: Size(width: 120, height: 40))
        #expect(Self.mouse(&state, .press(.left), x: 37).isEmpty)
        for (column, width) in [(40, 41), (45, 46), (30, 31)] {
            #expect(Self.mouse(&state, .motion, x: column).isEmpty, "nothing is written while the button is held")
            #expect(state.layout.sidebarWidth == width)
            #expect(Array(Self.row(state, 0))[width - 1] == "╮", "the border is drawn where the pointer is")
        }
        // Past the bounds the border stops, with no notice per motion.
        let notice = state.notice
        _ = Self.mouse(&state, .motion, x: 119)
        #expect(state.layout.sidebarWidth == AppLayout.sidebarWidths(forWidth: 120).upperBound && state.notice == notice)
        _ = Self.mouse(&state, .motion, x: 50)
        #expect(Self.mouse(&state, .release, x: 52) == [.panes(.save(listWidth: 53))])
        #expect(state.layout.sidebarWidth == 53 && state.panes.drag == nil)
        // Motion with no drag under way (the button held elsewhere, or after the release) moves nothing.
        let before = state
        _ = Self.mouse(&state, .motion, x: 70)
        _ = Self.mouse(&state, .press(.left), x: 80)
        let focused = state
        _ = Self.mouse(&state, .motion, x: 90)
        _ = Self.mouse(&state, .motion, x: 20, y: 5)
        #expect(state.panes == before.panes && state.focus == focused.focus && state.screen == focused.screen)
    }

    @Test func aDragThatComesBackToWhereItBeganChangesNothing() {
        var state = TestCatalog.state(size: Size(width: 120, height: 40))
        _ = Self.mouse(&state, .press(.left), x: 37)
        _ = Self.mouse(&state, .motion, x: 60)
        #expect(state.layout.sidebarWidth == 61)
        #expect(Self.mouse(&state, .release, x: 37).isEmpty)
        #expect(state.panes.listWidth == nil && state.layout.sidebarWidth == 38)
        // The zoom key in the middle of a drag cancels it.
        _ = Self.mouse(&state, .press(.left), x: 37)
        _ = Self.mouse(&state, .motion, x: 50)
        _ = state.press(".")
        #expect(state.panes.drag == nil && state.panes.listWidth == nil)
        _ = state.press(".")
        #expect(state.layout.sidebarWidth == 38)
        // A release the terminal never reported: the next press keeps what was drawn last.
        _ = Self.mouse(&state, .press(.left), x: 37)
        _ = Self.mouse(&state, .motion, x: 47)
        #expect(Self.mouse(&state, .press(.left), x: 10, y: 12).contains(.panes(.save(listWidth: 48))))
        #expect(state.panes.drag == nil && state.layout.sidebarWidth == 48 && state.focus == .endpoints)
    }

    @Test func aClickOnTheBorderThatDoesNotMoveChangesNothing() {
        var state = TestCatalog.state(size: Size(width: 120, height: 40))
        let effects = Self.drag(&state, from: 37, to: 37)
        #expect(effects.isEmpty && state.panes.listWidth == nil && state.panes.drag == nil)
        // A release with no press on the border before is no drag.
        _ = AppReducer.reduce(&state, .terminal(.mouse(MouseEvent(.press(.left), at: Position(x: 60, y: 10)))))
        _ = AppReducer.reduce(&state, .terminal(.mouse(MouseEvent(.release, at: Position(x: 80, y: 10)))))
        #expect(state.panes.listWidth == nil && state.focus == .response)
        // A press on the border whose release never came ends with the next press elsewhere.
        _ = AppReducer.reduce(&state, .terminal(.mouse(MouseEvent(.press(.left), at: Position(x: 37, y: 10)))))
        _ = AppReducer.reduce(&state, .terminal(.mouse(MouseEvent(.press(.left), at: Position(x: 10, y: 12)))))
        #expect(state.panes.drag == nil && state.focus == .endpoints)
        _ = AppReducer.reduce(&state, .terminal(.mouse(MouseEvent(.release, at: Position(x: 60, y: 12)))))
        #expect(state.panes.listWidth == nil)
    }

    @Test func aKeptWidthIsLoadedAtLaunchUnlessOneWasSetMeanwhile() {
        var state = TestCatalog.state(size: Size(width: 120, height: 40))
        let effects = AppReducer.reduce(&state, .launched)
        #expect(effects.contains(.panes(.load)) && state.pendingLoads.contains(.panes(.load)))
        _ = AppReducer.reduce(&state, .panes(.loaded(listWidth: 50)))
        #expect(state.layout.sidebarWidth == 50 && !state.pendingLoads.contains(.panes(.load)))

        var meanwhile = TestCatalog.state(size: Size(width: 120, height: 40))
        _ = meanwhile.press(">")
        _ = AppReducer.reduce(&meanwhile, .panes(.loaded(listWidth: 50)))
        #expect(meanwhile.layout.sidebarWidth == 42)
        // A damaged value is held within what any terminal allows.
        var damaged = TestCatalog.state(size: Size(width: 120, height: 40))
        _ = AppReducer.reduce(&damaged, .panes(.loaded(listWidth: -5)))
        #expect(damaged.panes.listWidth == AppLayout.sidebarWidthLimits.lowerBound)
    }

    @Test func zoomFillsTheScreenWithTheFocusedPaneAndComesBack() {
        var state = TestCatalog.state(size: Size(width: 80, height: 24))
        _ = state.press("Tab")
        #expect(state.focus == .response)
        _ = state.press(".")
        #expect(state.layout.response == Rect(x: 0, y: 0, width: 80, height: 23))
        #expect(state.layout.endpoints.isEmpty && state.layout.environments.isEmpty)
        let screen = state.screen
        #expect(!screen.contains("Environments") && screen.contains("Response"))
        #expect(Self.row(state, 23).contains("ZOOM") && Self.row(state, 23).contains(". unzoom"))
        // The zoom follows the focus.
        _ = state.press("Tab")
        #expect(state.focus == .environments && state.layout.environments.width == 80)
        // Width keys wait until the panes are back.
        _ = state.press(">")
        #expect(state.panes.listWidth == nil && state.notice?.contains("zoomed") == true)
        _ = state.press(".")
        #expect(!state.panes.isZoomed && state.layout.sidebarWidth == 28)
        // Esc brings them back too, once there is nothing else to cancel.
        _ = state.press(". Esc")
        #expect(!state.panes.isZoomed)
        #expect(!Self.row(state, 23).contains("ZOOM"))
    }

    @Test func escClosesTheFilterBeforeTheZoom() {
        var state = TestCatalog.state(size: Size(width: 80, height: 24))
        _ = state.press(". / i t e m Enter")
        #expect(state.panes.isZoomed && state.filter != nil)
        _ = state.press("Esc")
        #expect(state.filter == nil && state.panes.isZoomed)
        _ = state.press("Esc")
        #expect(!state.panes.isZoomed)
    }

    @Test func thePaletteListsThePanesCommands() {
        var state = TestCatalog.state()
        _ = state.press("F1 z o o m")
        #expect(state.screen.contains("zoom: the focused pane fills the screen"))
        _ = state.press("Enter")
        #expect(state.panes.isZoomed)
    }

    /// The endpoints zoomed, then the panes back with the list two steps wider (the main view at
    /// each size is ScreenSnapshotTests' `main-SIZE`).
    @Test(arguments: ScreenSnapshotTests.sizes)
    func layouts(size: Size) {
        var state = TestCatalog.state(size: size)
        for (keys, name) in [("Tab Tab Tab .", "panes-zoomed-endpoints"), (". > >", "panes-wider")] {
            _ = state.press(keys)
            assertSnapshot(state.screen, named: "\(name)-\(size)")
        }
    }

    /// The essentials stay on the status bar at 80 columns however long the service's and
    /// environment's names and the message are: the hints give way, the message is cut with a hint.
    @Test func theStatusBarKeepsTheEssentialsAt80Columns() {
        var state = TestCatalog.state(size: Size(width: 80, height: 24))
        let bar = Self.row(state, 23)
        #expect(bar.contains("STUB") && bar.contains("shop · local") && bar.contains("? help"))
        let long = "Not sent: the JSON body does not parse: line 3, column 17: expected ',' or '}' after an object's value."
        _ = AppReducer.reduce(&state, .body(.message(long)))
        let cut = Self.row(state, 23)
        #expect(cut.contains("STUB") && cut.contains("shop · local") && cut.contains("M full message"))
        #expect(cut.contains("Not sent: the JSON") && cut.contains("…"))
        _ = state.press("s")
        #expect(Self.row(state, 23).contains("LIVE") && Self.row(state, 23).contains("shop · local"))
    }
}
