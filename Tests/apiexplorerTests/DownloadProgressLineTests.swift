@testable import apiexplorer
import DispatcherCore
import Synchronization
import TestSupport
import Testing
import TestTraits

/// `call -o FILE`'s progress line: only on a terminal and never with `--json`; the first report at
/// once, then at most one a tenth of a second (by the injected clock); cleared at the end.
@Suite(.offPool) struct DownloadProgressLineTests {
    @Test func shownOnlyOnATerminalAndNeverWithJSON() {
        #expect(DownloadProgressLine.forCall(downloading: true, json: false, errorIsTerminal: false) == nil)
        #expect(DownloadProgressLine.forCall(downloading: true, json: true, errorIsTerminal: true) == nil)
        #expect(DownloadProgressLine.forCall(downloading: false, json: false, errorIsTerminal: true) == nil)
        #expect(DownloadProgressLine.forCall(downloading: true, json: false, errorIsTerminal: true) != nil)
    }

    @Test func theFirstReportShowsAtOnceThenATenthOfASecondApartAndTheEndClears() {
        let clock = ManualClock()
        let written = Mutex<[String]>([])
        let line = DownloadProgressLine(clock: DispatchClock(clock)) { text in written.withLock { $0.append(text) } }
        line.report(received: 1000, expected: 10_000)
        clock.advance(by: .milliseconds(50))
        line.report(received: 2000, expected: 10_000)
        clock.advance(by: .milliseconds(450))
        line.report(received: 6000, expected: 10_000)
        line.end()
        #expect(written.withLock { $0 } == ["↓ 1.0 kB of 10 kB (10%)", "↓ 6.0 kB of 10 kB (60%) · 10 kB/s", ""])
    }
}
