import DispatcherCore
import Testing
import TestTraits
import TimingReport

/// The waterfall: bars to scale, in curl's order, hops under each other, never wider than asked.
@Suite(.offPool) struct WaterfallTests {
    @Test func phasesInCurlsOrderWithBarsToScale() {
        let lines = Waterfall.lines([WriteOutTests.transfer], width: 80)
        let texts = lines.map(\.text)
        #expect(texts.allSatisfy { $0.count <= 80 })
        #expect(texts[0] == "https://api.example/old → 302")
        #expect(texts[1] == "  new connection to 10.0.0.1:443, TLSv1.3, HTTP/1.1")
        let names = lines.compactMap { line in
            line.spans.compactMap { span -> HopTiming.Phase.Name? in if case .bar(let name) = span.role { name } else { nil } }.first
        }
        #expect(names == [.nameLookup, .connect, .tlsHandshake, .sending, .waiting, .receiving, .nameLookup, .sending, .waiting, .receiving])
        // The waiting bar of the first hop (10.2 → 50 ms of 100 ms) starts near a tenth of the bar and is 40 % long.
        let waiting = lines[6].spans
        let barWidth = 80 - 19 - 11
        #expect(waiting[1].text.count == Int(Double(barWidth) * 0.102))
        #expect(waiting[2].text.count == Int(Double(barWidth) * 0.398))
        #expect(texts.contains("  reused connection to 10.0.0.1:443, TLSv1.3, HTTP/1.1"))
        #expect(texts.last?.hasSuffix("100.0 ms") == true)
    }

    @Test func attemptsAreHeadedAndNarrowWidthsStillFit() {
        let failed = TransferTiming(hops: [HopTiming(url: "http://127.0.0.1:9/", nameLookup: .zero)])
        let lines = Waterfall.lines([failed, WriteOutTests.transfer], width: 20)
        #expect(lines.first?.text == "Attempt 1")
        #expect(lines[1].text.hasSuffix("no response") || lines[1].text.hasSuffix("…"))
        #expect(lines[2].text == "  no connection was made")
        #expect(lines.contains { $0.text == "Attempt 2" })
        let masked = Waterfall.lines([WriteOutTests.transfer], width: 80) { $0.replacing("api.example", with: "••••") }
        #expect(masked[0].text == "https://••••/old → 302")
        #expect(lines.allSatisfy { $0.text.count <= 40 })  // the narrowest layout: names, 10 cells, figures
    }
}
