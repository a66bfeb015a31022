import Testing
import TestTraits
import TimingReport

/// p50, p95 and max by nearest rank, outcomes most frequent first, a sparkline of the newest.
@Suite(.offPool) struct ResponseTimesTests {
    @Test func percentilesByNearestRank() {
        let times = ResponseTimes((1...20).map { (microseconds: $0 * 1000, outcome: "200") })
        #expect(times.percentile(0.5) == 10_000)
        #expect(times.percentile(0.95) == 19_000)
        #expect(times.maximum == 20_000)
        #expect(times.summary == "p50 10.0 ms  p95 19.0 ms  max 20.0 ms")
    }

    @Test func outcomesMostFrequentFirstAndStubsWithoutTimes() {
        let times = ResponseTimes([(1000, "200"), (nil, "200"), (3000, "503"), (2000, "503"), (5000, "503"), (4000, "timedOut")])
        #expect(times.times == [1000, 3000, 2000, 5000, 4000])
        #expect(times.outcomeSummary == "503 ×3, 200 ×2, timedOut ×1")
    }

    @Test func sparklineScalesLowToHighOverTheNewest() {
        let times = ResponseTimes([(9, "200"), (0, "200"), (7, "200"), (14, "200")])
        #expect(times.sparkline(width: 3) == "▁▅█")
        #expect(ResponseTimes([(5, "200"), (5, "200")]).sparkline(width: 10) == "▁▁")
        #expect(ResponseTimes([]).summary == nil)
    }
}
