import DispatcherCore
import ExplorerApp
import ExplorerTestSupport
import Testing
import TestTraits

/// A request body being uploaded: its progress in the status bar, a log line when it is sent.
@Suite(.offPool) struct ReducerUploadTests {
    @Test func progressShowsInTheStatusBarAndTheLogSaysWhenTheBodyIsSent() {
        var state = TestCatalog.state()
        _ = state.press("Enter")
        _ = AppReducer.reduce(&state, .uploads(.progressed(ticket: 1, sent: 3 << 20, total: 12 << 20)))
        #expect(state.screen.contains("↑ 25% of 13 MB"))
        _ = AppReducer.reduce(&state, .uploads(.progressed(ticket: 1, sent: 12 << 20, total: 12 << 20)))
        #expect(state.log.lines.last == "#1 ↑ request body sent: 13 MB")
        state.finish(ticket: 1, TestCatalog.exchange(status: 201))
        #expect(state.uploads.progress.isEmpty)
        #expect(!state.screen.contains("↑ 100%"))
    }
}
