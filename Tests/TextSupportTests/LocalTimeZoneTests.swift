import FoundationEssentials
import Testing
import TextSupport
import TestTraits

@Suite(.offPool) struct LocalTimeZoneTests {
    /// A zone like Europe/Paris: +1 h, +2 h from the last Sunday of March 01:00 UTC to the last
    /// Sunday of October 01:00 UTC.
    static func parisOffset(at instant: Int64) -> Int {
        summers.contains { instant >= $0.0 && instant < $0.1 } ? 7200 : 3600
    }

    /// 2024–2027 summers (UTC): 31 Mar 2024 – 27 Oct 2024, 30 Mar 2025 – 26 Oct 2025, 29 Mar 2026 – 25 Oct 2026.
    static let summers: [(Int64, Int64)] = [
        (1_711_846_800, 1_729_990_800), (1_743_296_400, 1_761_440_400), (1_774_746_000, 1_792_890_000),
    ]

    @Test func samplingFindsEachChangeToTheSecond() {
        let zone = LocalTimeZone.sampling(from: 1_704_067_200, to: 1_798_761_600, offsetAt: Self.parisOffset)
        #expect(zone.periods.count == 7, "winter, then a summer and a winter per year")
        for (start, end) in Self.summers {
            #expect(zone.secondsFromGMT(at: start - 1) == 3600)
            #expect(zone.secondsFromGMT(at: start) == 7200)
            #expect(zone.secondsFromGMT(at: end - 1) == 7200)
            #expect(zone.secondsFromGMT(at: end) == 3600)
        }
        #expect(zone.secondsFromGMT(at: 0) == 3600, "before the sampled years, the first period holds")
        #expect(zone.secondsFromGMT(at: 4_000_000_000) == 3600, "after them, the last")
    }

    @Test func aFixedZoneAndUTC() {
        #expect(LocalTimeZone.utc.secondsFromGMT(for: Date(timeIntervalSince1970: 1_000_000)) == 0)
        let tokyo = LocalTimeZone(secondsFromGMT: 9 * 3600)
        #expect(tokyo.secondsFromGMT(for: Date(timeIntervalSince1970: -5)) == 32_400)
        #expect(LocalTimeZone.sampling(from: 0, to: 10_000_000) { _ in 19_800 } == LocalTimeZone(secondsFromGMT: 19_800))
        #expect(LocalTimeZone(periods: []) == .utc)
    }

    @Test func periodsAreSortedAndMerged() {
        let zone = LocalTimeZone(periods: [
            .init(start: 100, secondsFromGMT: 60), .init(start: .min, secondsFromGMT: 0), .init(start: 200, secondsFromGMT: 60),
        ])
        #expect(zone.periods == [.init(start: .min, secondsFromGMT: 0), .init(start: 100, secondsFromGMT: 60)])
        #expect(zone.secondsFromGMT(at: 99) == 0 && zone.secondsFromGMT(at: 100) == 60 && zone.secondsFromGMT(at: 250) == 60)
    }
}
