import Catalog
import DispatcherCore
import ExplorerApp
import ExplorerTestSupport
import TerminalKit
import Testing
import TestTraits

@Suite(.offPool) struct ReducerNavigationTests {
    @Test func startsOnTheFirstEnvironmentInStubModeWithTheEndpointsFocused() {
        let state = TestCatalog.state()
        #expect(state.activeService?.id == "shop")
        #expect(state.activeEnvironment?.name == "local")
        #expect(state.mode == .stub)
        #expect(state.focus == .endpoints)
        #expect(state.selectedEndpoint?.id == "listItems")
        #expect(state.environmentRows.count == 6)  // shop + 3 environments, echo + 1
    }

    @Test func theRowUnderTheCursorIsTheListedRow() {
        var state = TestCatalog.state()
        let rows = state.environmentRows
        for selected in [nil, -1] + Array(0...rows.count) as [Int?] {
            state.navigation.placeEnvironmentCursor(at: selected)
            let listed = selected.flatMap { rows.indices.contains($0) ? rows[$0] : nil } ?? rows.first
            #expect(state.currentEnvironmentRow == listed, "cursor at \(String(describing: selected))")
        }
    }

    @Test func tabCyclesFocusBothWays() {
        var state = TestCatalog.state()
        _ = state.press("Tab")
        #expect(state.focus == .response)
        _ = state.press("Tab")
        #expect(state.focus == .environments)
        _ = state.press("S-Tab")
        #expect(state.focus == .response)
        _ = state.press("S-Tab")
        #expect(state.focus == .endpoints)
    }

    @Test func vimKeysAndArrowsMoveTheEndpointCursorWithinBounds() {
        var state = TestCatalog.state()
        _ = state.press("j Down")
        #expect(state.selectedEndpoint?.id == "createItem")
        _ = state.press("j j j j")
        #expect(state.selectedEndpoint?.id == "deleteItem")
        _ = state.press("k")
        #expect(state.selectedEndpoint?.id == "createItem")
        _ = state.press("g")
        #expect(state.selectedEndpoint?.id == "listItems")
        _ = state.press("G")
        #expect(state.selectedEndpoint?.id == "deleteItem")
    }

    @Test func theEnvironmentCursorSkipsServiceHeadingsAndSwitchesService() {
        var state = TestCatalog.state()
        _ = state.press("S-Tab")  // environments pane
        _ = state.press("j j")
        #expect(state.activeEnvironment?.name == "production")
        _ = state.press("j")
        #expect(state.activeService?.id == "echo")
        #expect(state.activeEnvironment?.name == "local")
        #expect(state.selectedEndpoint?.id == "ping")
        _ = state.press("j")
        #expect(state.activeService?.id == "echo")
        _ = state.press("k")
        #expect(state.activeEnvironment?.name == "production")
    }

    @Test func eAndShiftECycleTheServicesEnvironmentsWhileTheAppRuns() {
        var state = TestCatalog.state()
        _ = state.press("e")
        #expect(state.activeEnvironment?.name == "staging")
        #expect(state.notice?.contains("staging") == true)
        _ = state.press("e e")
        #expect(state.activeEnvironment?.name == "local")
        _ = state.press("E")
        #expect(state.activeEnvironment?.name == "production")
        #expect(state.activeService?.id == "shop")
    }

    @Test func theEndpointCursorIsRememberedPerService() {
        var state = TestCatalog.state()
        _ = state.press("j j")
        _ = state.press("S-Tab G Tab")  // to echo
        #expect(state.selectedEndpoint?.id == "ping")
        _ = state.press("S-Tab g Tab")  // back to shop
        #expect(state.selectedEndpoint?.id == "createItem")
    }

    @Test func numberKeysChooseTabsAndBracketsCycleThem() {
        var state = TestCatalog.state()
        _ = state.press("3")
        #expect(state.tab == .errors)
        _ = state.press("]")
        #expect(state.tab == .request)
        _ = state.press("] ] ]")
        #expect(state.tab == .variables)
        _ = state.press("] ]")
        #expect(state.tab == .body)
        _ = state.press("[")
        #expect(state.tab == .tests)
        _ = state.press("6")
        #expect(state.tab == .edit)
    }

    @Test func slashFiltersAsYouTypeAndEscClearsIt() {
        var state = TestCatalog.state()
        _ = state.press("/ p o s t")
        #expect(state.filter?.query == "post")
        #expect(state.visibleEndpoints.map(\.id) == ["createItem"])
        _ = state.press("Enter")
        #expect(state.filter?.isEditing == false)
        #expect(state.selectedEndpoint?.id == "createItem")
        _ = state.press("Esc")
        #expect(state.filter == nil)
        #expect(state.visibleEndpoints.count == 4)
    }

    @Test func typedFilterKeysAreNotCommands() {
        var state = TestCatalog.state()
        let effects = state.press("/ q s e")
        #expect(effects.isEmpty)
        #expect(!state.isQuitting)
        #expect(state.mode == .stub)
        #expect(state.filter?.query == "qse")
    }

    @Test func helpIsGeneratedFromTheKeymap() {
        var state = TestCatalog.state()
        _ = state.press("?")
        #expect(state.overlay == .help(scroll: 0))
        // Help is longer than the screen since the Body tab's keys joined it: read it page by page.
        var screen = state.screen
        for _ in 0..<8 {
            _ = state.press("PageDown")
            screen += state.screen
        }
        for (_, bindings) in Keymap.sections {
            for binding in bindings { #expect(screen.contains(binding.help ?? ""), "help lacks \(binding.help ?? "")") }
        }
        _ = state.press("Esc")
        #expect(state.overlay == nil)
    }

    @Test func resizesAreActions() {
        var state = TestCatalog.state()
        _ = AppReducer.reduce(&state, .terminal(.resize(Size(width: 80, height: 24))))
        #expect(state.size == Size(width: 80, height: 24))
    }

    @Test func clicksSelectRowsAndTabsAndTheWheelScrolls() {
        var state = TestCatalog.state()
        let layout = state.layout
        let row = Position(x: layout.endpoints.x + 3, y: layout.endpoints.y + 1 + 2)
        _ = AppReducer.reduce(&state, .terminal(.mouse(MouseEvent(.press(.left), at: row))))
        #expect(state.selectedEndpoint?.id == "createItem")

        let environment = Position(x: layout.environments.x + 3, y: layout.environments.y + 1 + 2)
        _ = AppReducer.reduce(&state, .terminal(.mouse(MouseEvent(.press(.left), at: environment))))
        #expect(state.focus == .environments)
        #expect(state.activeEnvironment?.name == "staging")

        let tabsRow = layout.responseInner.row(0)
        let tabs = Tabs(ResponseTab.allCases.map(\.title), selected: 0, isNumbered: true)
        let headersColumn = (tabsRow.x..<tabsRow.right).first { tabs.tab(atColumn: $0, in: tabsRow) == 1 }
        _ = AppReducer.reduce(&state, .terminal(.mouse(MouseEvent(.press(.left), at: Position(x: headersColumn ?? 0, y: tabsRow.y)))))
        #expect(state.tab == .headers)

        let endpoints = Position(x: layout.endpoints.x + 3, y: layout.endpoints.y + 2)
        _ = AppReducer.reduce(&state, .terminal(.mouse(MouseEvent(.wheelDown, at: endpoints))))
        #expect(state.selectedEndpoint?.id == "deleteItem")
        #expect(state.focus == .response)
    }

    @Test func quitCancelsWhatIsInFlight() {
        var state = TestCatalog.state()
        _ = state.press("Enter")
        let effects = state.press("q")
        #expect(effects == [.exchanges(.cancel(ticket: 1)), .quit])
        #expect(state.isQuitting)
        var other = TestCatalog.state()
        #expect(other.press("C-c") == [.quit])
    }
}
