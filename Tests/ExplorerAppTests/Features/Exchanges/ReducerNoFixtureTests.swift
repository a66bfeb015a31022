import DispatcherCore
import ExplorerApp
import ExplorerTestSupport
import Testing
import TestTraits

/// A stub without a fixture says so where the person looks — the status line names the endpoint,
/// where to add a fixture and how to go live — and is not put in the history (issue 34, point 4).
@Suite(.offPool) struct ReducerNoFixtureTests {
    @Test func theStatusLineNamesTheEndpointAndTheWayOutAndTheHistoryKeepsNothing() {
        var state = TestCatalog.state()
        let ticket = state.press("Enter").sent.first
        #expect(ticket?.call.mode == .stub)
        let exchange = TestCatalog.exchange(status: 0, error: .noFixture("shop/listItems"))
        _ = AppReducer.reduce(&state, .exchanges(.finished(FinishedExchange(ticket: ticket?.id ?? 1, exchange: exchange, redactor: .standard, finishedAt: TestCatalog.now))))
        let notice = state.notice ?? ""
        #expect(notice.hasPrefix("No fixture for shop/listItems: add a 'stub:' to listItems ("), "\(notice)")
        #expect(notice.hasSuffix("or send it live (s switches to live)."), "\(notice)")
        #expect(state.history.items.isEmpty)
        #expect(!state.screen.contains("200 OK"))
        #expect(state.screen.contains("noFixture"))
    }
}
