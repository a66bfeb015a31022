import Catalog
import DispatcherCore
@testable import ExplorerApp
import ExplorerTestSupport
import Sessions
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
        _ = AppReducer.reduce(&state, .exchanges(.finished(FinishedExchange(ticket: 1, exchange: TestCatalog.exchange(status: 201), redactor: ReducerRequestTests.redactor, finishedAt: TestCatalog.now))))
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
        #expect(command == .exchanges(.toggleMode))
        _ = state.press("Enter")
        #expect(state.mode == .live)
        #expect(!state.finder.isOpen)
    }

    /// Requests sent before, by method and URL: once each, after the endpoints that match as well,
    /// and Enter sends one again as `H` does (with its edits, where it went).
    @Test func aRequestSentBeforeIsFoundByItsURLAndEnterSendsItAgain() throws {
        var state = TestCatalog.state()
        let edited = EndpointCall(
            endpoint: "shop/listItems", catalog: TestCatalog.key("shop", "").catalog, environment: "local", mode: .stub, example: nil,
            edits: EndpointEdits(query: [EndpointEdits.Item(name: "q", value: "lamps")]))
        let sent = [
            HistoryItem(call: edited, requestLine: "GET http://127.0.0.1:9/shop/items?q=lamps", outcome: "200 OK", failed: false, date: TestCatalog.now),
            HistoryItem(call: edited, requestLine: "GET http://127.0.0.1:9/shop/items?q=lamps", outcome: "500 server", failed: true, date: TestCatalog.now),
            HistoryItem(
                call: EndpointCall(endpoint: "echo/ping", catalog: TestCatalog.key("echo", "").catalog, environment: "local", mode: .stub, example: nil),
                requestLine: "GET http://127.0.0.1:9/ping", outcome: "200 OK", failed: false, date: TestCatalog.now),
        ]
        _ = AppReducer.reduce(&state, .history(.loaded(sent)))
        _ = state.press("C-p")
        #expect(state.finder.results.allSatisfy { if case .endpoint = $0.target { true } else { false } }, "an empty query lists endpoints only")
        _ = state.press("l a m p s")
        let rows = state.finder.results.map(\.target)
        #expect(rows == [.history(sent[0])], "the endpoints do not hold 'lamps'; the request line once, the newest")
        #expect(state.screen.contains("sent › GET http://127.0.0.1:9/shop/items?q=lamps  200 OK"))
        let ticket = try #require(state.press("Enter").sent.first)
        #expect(ticket.call == edited)
        #expect(!state.finder.isOpen)

        _ = state.press("C-p p i n g")
        let ping = state.finder.results.map(\.target)
        #expect(ping.first == .endpoint("echo/ping"), "the endpoint before the request sent to it on the same kind of match")
        #expect(ping.contains(.history(sent[2])))
    }

    @Test func pastRequestsAreMergedByTheKindOfTheirMatch() {
        let item = HistoryItem(
            call: EndpointCall(endpoint: "echo/ping", catalog: TestCatalog.key("echo", "").catalog, environment: "local", mode: .stub, example: nil),
            requestLine: "GET /x", outcome: "200 OK", failed: false, date: TestCatalog.now)
        let exact = FinderResult(target: .endpoint("a/exact"), match: EndpointMatch(kind: .exact, score: 9, field: .id, positions: [:]))
        let fuzzy = FinderResult(target: .endpoint("a/fuzzy"), match: EndpointMatch(kind: .subsequence, score: 1, field: .path, positions: [:]))
        let past = FinderResult(target: .history(item))
        #expect(FinderFeature.merged([exact, fuzzy], [(past, .prefix)]).map(\.target) == [exact.target, past.target, fuzzy.target])
        #expect(FinderFeature.merged([exact, fuzzy], [(past, .exact)]).map(\.target) == [exact.target, past.target, fuzzy.target])
        #expect(FinderFeature.merged([exact], [(past, .subsequence)]).map(\.target) == [exact.target, past.target])
        #expect(FinderFeature.merged([], [(past, .subsequence)]).map(\.target) == [past.target])
    }

    @Test(arguments: [Size(width: 80, height: 24), Size(width: 120, height: 40), Size(width: 200, height: 60)])
    func theFinderOnScreen(size: Size) {
        var state = TestCatalog.state(size: size)
        _ = state.press("C-p i t e m")
        assertSnapshot(state.screen, named: "finder-\(size)")
    }

    /// The palette at each size: every command with its key, then narrowed to what matches "env".
    @Test(arguments: ScreenSnapshotTests.sizes)
    func thePaletteOnScreen(size: Size) {
        var state = TestCatalog.state(size: size)
        _ = state.press("F1")
        #expect(state.finder.mode == .commands)
        assertSnapshot(state.screen, named: "palette-\(size)")
        _ = state.press("e n v")
        assertSnapshot(state.screen, named: "palette-env-\(size)")
    }
}
