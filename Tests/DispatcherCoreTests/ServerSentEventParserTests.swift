import DispatcherCore
import Testing
import TestTraits

/// The event stream parser against the WHATWG HTML standard's rules (§9.2.5 "Parsing an event
/// stream", §9.2.6 "Interpreting an event stream").
@Suite(.offPool) struct ServerSentEventParserTests {
    func parse(_ chunks: [String]) -> (events: [ServerSentEvent], parser: ServerSentEventParser) {
        var parser = ServerSentEventParser()
        var events: [ServerSentEvent] = []
        for chunk in chunks { events += parser.parse(Array(chunk.utf8)) }
        return (events, parser)
    }

    @Test func dataLinesAreJoinedWithLineFeedsAndTheTypeDefaultsToMessage() {
        let (events, _) = parse(["data: YHOO\ndata: +2\ndata: 10\n\n"])
        #expect(events == [ServerSentEvent(type: "message", data: "YHOO\n+2\n10")])
    }

    @Test func theStandardsExampleOfFourBlocksGivesThreeEvents() {
        // §9.2.6's example: a comment, an event with an id, an event with an empty data field
        // (dispatched with empty data) and "data: " twice.
        let stream = ": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n\n"
        let (events, parser) = parse([stream])
        #expect(events.map(\.data) == ["first event", "second event", " third event"])
        #expect(events.map(\.lastEventID) == ["1", "", ""])
        #expect(parser.commentCount == 1)
    }

    @Test func anEmptyDataFieldDispatchesAnEmptyEventButNoDataFieldDispatchesNothing() {
        let (events, _) = parse(["data\n\ndata\ndata\n\ndata:\n", "\nevent: lonely\n\n"])
        #expect(events.map(\.data) == ["", "\n", ""])
    }

    @Test func crLFAndCRLFEndLinesAlsoWhenAChunkEndsBetweenCRAndLF() {
        let (events, _) = parse(["event: a\r\ndata: 1\r", "\n\r", "\ndata: 2\r\rdata: 3\n\n"])
        #expect(events == [ServerSentEvent(type: "a", data: "1"), ServerSentEvent(data: "2"), ServerSentEvent(data: "3")])
    }

    @Test func anEventSplitAnywhereAcrossChunksReadsTheSame() {
        let stream = "id: 7\nevent: update\ndata: {\"a\":1}\ndata: {\"b\":2}\n\n"
        let whole = parse([stream]).events
        let bytes = Array(stream)
        for cut in 1..<bytes.count {
            #expect(parse([String(bytes[..<cut]), String(bytes[cut...])]).events == whole, "cut at \(cut)")
        }
        #expect(whole == [ServerSentEvent(type: "update", data: "{\"a\":1}\n{\"b\":2}", lastEventID: "7")])
    }

    @Test func retryTakesDigitsOnlyAndTheIDCarriesOverUntilChanged() {
        let (events, parser) = parse(["retry: 2500\nretry: 1x\nid: 9\ndata: a\n\ndata: b\n\nid: 10\u{0}\ndata: c\n\n"])
        #expect(parser.retry == 2500)
        #expect(events.map(\.lastEventID) == ["9", "9", "9"])
        #expect(parser.lastEventID == "9")
    }

    @Test func aLeadingBOMIsSkippedEvenWhenSplitAndOnlyAtTheStart() {
        var parser = ServerSentEventParser()
        var all = parser.parse([0xEF, 0xBB])
        all += parser.parse([0xBF] + Array("data: x\n\n\u{FEFF}data: y\n\n".utf8))
        // Later, a BOM is part of the line: "\u{FEFF}data" is an unknown field.
        #expect(all.map(\.data) == ["x"])
    }

    @Test func unknownFieldsAndALineWithoutAColonAreIgnoredAndAnUnfinishedEventIsDropped() {
        var parser = ServerSentEventParser()
        var events = parser.parse(Array("foo: bar\ndata: kept\n\ndata: cut off".utf8))
        parser.reset()
        events += parser.parse(Array("data: after\n\n".utf8))
        #expect(events.map(\.data) == ["kept", "after"])
    }
}
