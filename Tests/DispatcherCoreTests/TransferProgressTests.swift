import DispatcherCore
import Testing
import TestTraits

@Suite(.offPool) struct TransferProgressTests {
    @Test func theRateIsFromTheFirstReportAndNeedsAQuarterSecond() {
        var progress = TransferProgress(received: 500_000, expected: nil, at: .seconds(1))
        #expect(progress.text == "↓ 500 kB")
        progress.update(received: 600_000, expected: nil, at: .seconds(1.1))
        #expect(progress.bytesPerSecond == nil)
        progress.update(received: 1_500_000, expected: 3_000_000, at: .seconds(2))
        #expect(progress.bytesPerSecond == 1_000_000)
        #expect(progress.text == "↓ 1.5 MB of 3.0 MB (50%) · 1.0 MB/s")
        // An older report arriving late does not move it back.
        progress.update(received: 700_000, expected: nil, at: .seconds(1.5))
        #expect(progress.received == 1_500_000 && progress.expected == 3_000_000)
    }
}
