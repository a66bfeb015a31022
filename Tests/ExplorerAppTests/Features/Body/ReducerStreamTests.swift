import BodyViewer
import DispatcherCore
import ExplorerApp
import ExplorerTestSupport
import Foundation
import TerminalKit
import Testing
import TestTraits

/// Responses read as they arrive: event streams listed as events come, NDJSON formatted again as
/// bytes come (one build at a time), Esc closing a stream while keeping what arrived.
@Suite(.offPool) struct ReducerStreamTests {
    static let eventHead = StreamHead(status: 200, headers: Headers([("Content-Type", "text/event-stream")], origin: .server))
    static let ndjsonHead = StreamHead(status: 200, headers: Headers([("Content-Type", "application/x-ndjson")], origin: .server))

    static func events(_ range: ClosedRange<Int>) -> [StreamedEvent] {
        range.map { StreamedEvent(at: .milliseconds($0 * 30), event: ServerSentEvent(type: "token", data: #"{"index":\#($0)}"#, lastEventID: "\($0)")) }
    }

    @Test func eventsAreListedAsTheyArriveWhileTheRequestIsInFlight() {
        var state = TestCatalog.state()
        _ = state.press("Enter")
        _ = AppReducer.reduce(&state, .body(.streamed(ticket: 1, update: StreamUpdate(head: Self.eventHead, events: Self.events(1...2), byteCount: 60))))
        #expect(state.inFlight[1] != nil)
        #expect(state.selectedStream?.events.count == 2)
        var screen = state.screen
        #expect(screen.contains("200 OK · streaming · 2 events"))
        #expect(screen.contains("Event stream · 2 events"))
        #expect(screen.contains("+0.060s  token  #2"))
        // The newest event is shown in full below the list, pretty-printed.
        #expect(screen.contains(#""index": 2"#))
        _ = AppReducer.reduce(&state, .body(.streamed(ticket: 1, update: StreamUpdate(events: Self.events(3...3), byteCount: 90))))
        screen = state.screen
        #expect(screen.contains("#3"))
        #expect(screen.contains(#""index": 3"#))
    }

    @Test func theCursorStaysOnAnEarlierEventAndGFollowsAgain() {
        var state = TestCatalog.state()
        _ = state.press("Enter")
        _ = AppReducer.reduce(&state, .body(.streamed(ticket: 1, update: StreamUpdate(head: Self.eventHead, events: Self.events(1...5), byteCount: 150))))
        _ = state.press("Tab k k")
        #expect(state.focus == .response)
        #expect(state.selectedStream?.cursor == 2)
        _ = AppReducer.reduce(&state, .body(.streamed(ticket: 1, update: StreamUpdate(events: Self.events(6...8), byteCount: 240))))
        #expect(state.selectedStream?.selectedIndex == 2)
        #expect(state.screen.contains(#""index": 3"#))
        #expect(state.screen.contains("G follows"))
        _ = state.press("G")
        #expect(state.selectedStream?.cursor == nil)
        #expect(state.selectedStream?.selectedIndex == 7)
    }

    @Test func escClosesTheStreamAndWhatArrivedIsTheResponseNotACancellation() {
        var state = TestCatalog.state()
        _ = state.press("Enter")
        _ = AppReducer.reduce(&state, .body(.streamed(ticket: 1, update: StreamUpdate(head: Self.eventHead, events: Self.events(1...4), byteCount: 120))))
        #expect(state.press("Esc") == [.exchanges(.cancel(ticket: 1))])
        #expect(state.notice?.contains("Closing the stream") == true)
        let partial = Response(status: 200, headers: Self.eventHead.headers, body: Data("id: 1\ndata: {}\n\n".utf8), source: .network)
        var cancelled = DispatchError.cancelled
        cancelled.response = partial
        state.finish(ticket: 1, TestCatalog.exchange(status: 0, error: cancelled))
        #expect(state.selectedStream?.isOpen == false)
        #expect(state.selectedStream?.closedByUser == true)
        #expect(state.selectedResponse?.exchange.error == nil)
        #expect(state.selectedResponse?.exchange.notes == ["The stream was closed by you after 4 events."])
        let screen = state.screen
        #expect(screen.contains("closed by you"))
        #expect(!screen.contains("cancelled"))
    }

    @Test func aServerThatEndsTheStreamLeavesTheEventsShown() {
        var state = TestCatalog.state()
        _ = state.press("Enter")
        _ = AppReducer.reduce(&state, .body(.streamed(ticket: 1, update: StreamUpdate(head: Self.eventHead, events: Self.events(1...3), byteCount: 90))))
        var exchange = TestCatalog.exchange(status: 200)
        if case .success(var response) = exchange.result {
            response.headers = Self.eventHead.headers
            exchange.result = .success(response)
        }
        state.finish(ticket: 1, exchange)
        #expect(state.screen.contains("Event stream · 3 events"))
        #expect(state.screen.contains("ended"))
        // An answer that is no stream replaces it.
        _ = state.press("Enter")
        state.finish(ticket: 2, TestCatalog.exchange(status: 200, body: #"{"plain":true}"#))
        #expect(state.selectedStream == nil)
        #expect(state.screen.contains(#""plain": true"#))
    }

    @Test func anNDJSONStreamIsFormattedAgainAsBytesArriveOneBuildAtATime() {
        var state = TestCatalog.state()
        _ = state.press("Enter")
        let first = AppReducer.reduce(&state, .body(.streamed(
            ticket: 1, update: StreamUpdate(head: Self.ndjsonHead, bytes: Data(#"{"seq":1}"#.utf8 + [0x0A]), byteCount: 10))))
        #expect(first.builds.count == 1)
        // Bytes that come while the build runs wait for it.
        let second = AppReducer.reduce(&state, .body(.streamed(ticket: 1, update: StreamUpdate(bytes: Data(#"{"seq":2}"#.utf8 + [0x0A]), byteCount: 20))))
        #expect(second.builds.isEmpty)
        var next = first
        for _ in 0..<3 {
            var followUp: [AppEffect] = []
            for case .body(.build(let key, let generation, let data, let contentType, _)) in next {
                followUp += AppReducer.reduce(&state, .body(.built(key: key, generation: generation, document: BodyHandle(BodyDocument(data: data, contentType: contentType)))))
            }
            next = followUp
        }
        #expect(state.screen.contains(#""seq": 2"#))
        #expect(state.screen.contains("streaming"))
        #expect(!state.screen.contains("Formatting"))
    }
}

extension [AppEffect] {
    /// The body builds asked for.
    var builds: [AppEffect] { filter { if case .body(.build) = $0 { true } else { false } } }
}
