import ExplorerApp
import ExplorerTestSupport
import Testing
import TestTraits

/// The network log (Features/Log): bounded, shown in the Log tab.
@Suite(.offPool) struct LogTests {
    @Test func logLinesAreKeptBounded() {
        var state = TestCatalog.state()
        _ = AppReducer.reduce(&state, .log(.logged((0..<(LogState.limit + 10)).map { "line \($0)" })))
        #expect(state.log.lines.count == LogState.limit)
        #expect(state.log.lines.last == "line \(LogState.limit + 9)")
        _ = state.press("5")
        #expect(state.screen.contains("line \(LogState.limit + 9)"))
    }
}
