import Catalog
import DispatcherCore
import ExplorerApp
import ExplorerTestSupport
import TerminalKit
import Testing
import TestTraits

/// The finder (`C-p`) and the command palette (`F1`) (Features/Finder).
@Suite(.offPool) struct FinderTests {
    @Test func findsAnEndpointOfAnotherServiceByAWordOfItsTitleAndShowsIt() {
        var state = TestCatalog.state()
        _ = state.press("C-p")
        #expect(state.finder.mode == .endpoints)
        #expect(state.finder.results.count == 5, "an empty query lists every endpoint")
        _ = state.press("p i n g")
        #expect(state.finder.results.first?.target == .endpoint("echo/ping"))
        #expect(state.screen.contains("echo › ping"))
        let effects = state.press("Enter")
        #expect(effects.sent.isEmpty)
        #expect(!state.finder.isOpen)
        #expect(state.activeService?.id == "echo")
        #expect(state.selectedEndpoint?.id == "ping")
        #expect(state.press("Enter").sent.map(\.call.endpoint) == ["echo/ping"])
    }

    /// The finder's index: a query that grows re-scores only the last query's matches, and ranks
    /// exactly as the tree's full ranking does.
    @Test func aGrowingQueryScoresOnlyThePreviousMatchesAndRanksAsTheTreeDoes() {
        var state = TestCatalog.state()
        _ = state.press("C-p")
        var previousMatches = state.finder.results.count
        for key in ["i", "t", "e"] {
            _ = state.press(key)
            #expect(state.finder.index.scored == previousMatches, "after \(state.finder.input.text)")
            let full = EndpointTree.rankedAcross(state.catalog.services, query: state.finder.input.text, recency: state.navigation.recency, limit: 200)
            #expect(state.finder.results.map(\.target) == full.map { .endpoint(state.catalog.services[$0.service].endpoints[$0.index].key) })
            previousMatches = state.finder.results.count
        }
        #expect(previousMatches < 5, "the narrowing narrowed")
        _ = state.press("Backspace")
        #expect(state.finder.index.scored < 5, "Backspace goes back to a kept set, no full rescan")
    }

    @Test func recentEndpointsComeFirstOnTiesAndEscCloses() {
        var state = TestCatalog.state()
        _ = state.press("j j Enter")  // createItem sent
        _ = AppReducer.reduce(&state, .exchangeFinished(ticket: 1, exchange: TestCatalog.exchange(status: 201), redactor: ReducerRequestTests.redactor, finishedAt: TestCatalog.now))
        _ = state.press("C-p")
        #expect(state.finder.results.first?.target == .endpoint("shop/createItem"), "the last sent leads an empty query")
        _ = state.press("i t e m")
        #expect(state.finder.results.first?.target == .endpoint("shop/createItem"), "items tie on the word start: the recent first")
        _ = state.press("Esc")
        #expect(!state.finder.isOpen)
        #expect(state.selectedEndpoint?.id == "createItem")
    }

    @Test func thePaletteListsEveryPaneCommandWithItsKeyAndRunsTheChosenOne() {
        var state = TestCatalog.state()
        _ = state.press("F1")
        #expect(state.finder.mode == .commands)
        let listed = state.finder.results.compactMap { result -> String? in
            if case .command(_, let key, _) = result.target { key } else { nil }
        }
        #expect(listed.contains("s") && listed.contains("H") && listed.contains("C-p"))
        #expect(state.screen.contains("switch stub / live"))
        _ = state.press("s t u b")
        guard case .command(let command, _, _)? = state.finder.results.first?.target else {
            Issue.record("no command matches 'stub'")
            return
        }
        #expect(command == .toggleMode)
        _ = state.press("Enter")
        #expect(state.mode == .live)
        #expect(!state.finder.isOpen)
    }

    @Test(arguments: [Size(width: 80, height: 24), Size(width: 120, height: 40), Size(width: 200, height: 60)])
    func theFinderOnScreen(size: Size) {
        var state = TestCatalog.state(size: size)
        _ = state.press("C-p i t e m")
        assertSnapshot(state.screen, named: "finder-\(size)")
    }
}
