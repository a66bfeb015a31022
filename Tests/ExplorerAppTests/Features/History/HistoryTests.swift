import Catalog
import DispatcherCore
import ExplorerApp
import ExplorerTestSupport
import Sessions
import TerminalKit
import Testing
import TestTraits

/// The request history (Features/History): what a finished request leaves there, and `H`.
@Suite(.offPool) struct HistoryDialogTests {
    @Test func aFinishedRequestIsInTheHistoryAndSendsAgainAsItWasSent() {
        var state = TestCatalog.state()
        _ = state.press("s Enter")  // live, shop/listItems, local
        _ = AppReducer.reduce(&state, .exchanges(.finished(FinishedExchange(ticket: 1, exchange: TestCatalog.exchange(status: 200), redactor: ReducerRequestTests.redactor, finishedAt: TestCatalog.now))))
        #expect(state.history.items.count == 1)
        #expect(state.history.items.first?.outcome == "200 OK")
        #expect(state.history.items.first?.requestLine.contains("tok-secret-123") == false)

        _ = state.press("s e j")  // stub, staging, another endpoint: the history keeps what was sent
        _ = state.press("H")
        #expect(state.overlay == .history(list: ListState(selected: 0)))
        #expect(state.screen.contains("History · 1"))
        #expect(state.screen.contains("shop/listItems · local"))
        let effects = state.press("Enter")
        let again = RequestTicket(id: 2, call: EndpointCall(endpoint: "shop/listItems", catalog: TestCatalog.key("shop", "").catalog, environment: "local", mode: .live, example: nil))
        #expect(effects.sent == [again])
        #expect(state.overlay == nil)
        #expect(state.activeEnvironment?.name == "local")  // its environment and endpoint are shown again
        #expect(state.selectedEndpoint?.id == "listItems")
    }

    @Test func anEmptyHistorySaysHowToFillIt() {
        var state = TestCatalog.state()
        _ = state.press("H")
        #expect(state.overlay == nil)
        #expect(state.notice == "No request sent yet: Enter sends one.")
    }
}
