import DispatcherCore
import ExplorerApp
import ExplorerTestSupport
import Testing
import TestTraits

/// A download's progress on the status line: bytes so far, the total when known, the rate from
/// the runtime clock's readings (no wall time in the reducer); gone when the request ends.
@Suite(.offPool) struct ReducerDownloadProgressTests {
    @Test func progressShowsBytesTotalAndRateThenGoesWhenTheDownloadEnds() throws {
        var state = TestCatalog.state()
        let ticket = try #require(state.press("Enter").sent.first)
        _ = AppReducer.reduce(&state, .downloads(.progressed(ticket: ticket.id, received: 0, expected: 4_000_000, at: .seconds(10))))
        #expect(state.screen.contains("↓ 0 B of 4.0 MB (0%)"))
        _ = AppReducer.reduce(&state, .downloads(.progressed(ticket: ticket.id, received: 1_000_000, expected: 4_000_000, at: .seconds(10.5))))
        #expect(state.downloads.shown?.bytesPerSecond == 2_000_000)
        #expect(state.screen.contains("↓ 1.0 MB of 4.0 MB (25%) · 2.0 MB/s"), "\(state.screen)")
        // A report for a request that is not in flight is dropped.
        _ = AppReducer.reduce(&state, .downloads(.progressed(ticket: 999, received: 5, expected: nil, at: .seconds(11))))
        #expect(state.downloads.progress.count == 1)
        _ = AppReducer.reduce(&state, .exchanges(.finished(FinishedExchange(ticket: ticket.id, exchange: TestCatalog.exchange(status: 200), redactor: .standard, finishedAt: TestCatalog.now))))
        #expect(state.downloads.shown == nil)
        #expect(!state.screen.contains("↓ "))
    }
}
