import Catalog
import DispatcherCore
import ExplorerApp
import ExplorerTestSupport
import Foundation
import TerminalKit
import Testing
import TestTraits

@Suite(.offPool) struct ScreenSnapshotTests {
    static let sizes = [Size(width: 80, height: 24), Size(width: 120, height: 40), Size(width: 200, height: 60)]

    /// The state after sending the listItems endpoint and getting a 200 back (timing fixed).
    static func answered(size: Size) -> AppState {
        var state = TestCatalog.state(size: size)
        _ = state.press("Enter")
        var exchange = TestCatalog.exchange(status: 200, body: #"[{"id":1,"name":"Lamp","tags":["light","home"]}]"#)
        if case .success(var response) = exchange.result {
            response.headers = Headers([("Content-Type", "application/json"), ("Set-Cookie", "sid=abc123; Path=/")], origin: .server)
            response.timing = Timing(firstByte: .milliseconds(3), total: .milliseconds(4))
            exchange.result = .success(response)
        }
        state.finish(ticket: 1, exchange, redactor: ReducerRequestTests.redactor)
        return state
    }

    @Test(arguments: sizes)
    func theMainViewInStubMode(size: Size) {
        assertSnapshot(TestCatalog.state(size: size).screen, named: "main-\(size)")
    }

    @Test(arguments: sizes)
    func aResponseInTheBodyTab(size: Size) {
        assertSnapshot(Self.answered(size: size).screen, named: "body-\(size)")
    }

    @Test(arguments: [Size(width: 80, height: 24), Size(width: 120, height: 40)])
    func anEventStreamWhileItIsOpen(size: Size) {
        var state = TestCatalog.state(size: size)
        _ = state.press("Enter")
        let head = StreamHead(status: 200, headers: Headers([("Content-Type", "text/event-stream")], origin: .server))
        let events = (1...12).map { index in
            StreamedEvent(
                at: .milliseconds(index * 37), event: ServerSentEvent(type: index == 12 ? "done" : "token", data: #"{"index":\#(index),"delta":"word \#(index)"}"#, lastEventID: "\(index)"))
        }
        _ = AppReducer.reduce(&state, .body(.streamed(ticket: 1, update: StreamUpdate(head: head, events: events, byteCount: 640))))
        _ = state.press("Tab")
        assertSnapshot(state.screen, named: "event-stream-\(size)")
    }

    @Test func theHeadersTab() {
        var state = Self.answered(size: Size(width: 120, height: 40))
        _ = state.press("2")
        assertSnapshot(state.screen, named: "headers-120x40")
    }

    @Test func theRequestTabWithOrigins() {
        var state = Self.answered(size: Size(width: 120, height: 40))
        _ = state.press("4")
        assertSnapshot(state.screen, named: "request-120x40")
    }

    @Test func liveModeInProduction() {
        var state = TestCatalog.state(size: Size(width: 120, height: 40))
        _ = state.press("E s s")  // production starts live (`fixtures: never`): off and on again shows the LIVE notice
        assertSnapshot(state.screen, named: "live-production-120x40")
    }

    /// getItem with a draft: PUT, a query item, the group's Authorization turned off, a header added.
    static func editing(size: Size) -> AppState {
        var state = TestCatalog.state(size: size)
        _ = state.press("j Tab 6 Enter C-u P U T Enter j j a v e r b o s e = 1 Enter j j j Space a X - T r a c e : o n Enter")
        return state
    }

    @Test(arguments: [Size(width: 80, height: 24), Size(width: 120, height: 40)])
    func theEditTab(size: Size) {
        assertSnapshot(Self.editing(size: size).screen, named: "edit-\(size)")
    }

    @Test(arguments: [Size(width: 80, height: 24), Size(width: 120, height: 40)])
    func theEditTabWhileARowIsTyped(size: Size) {
        var state = Self.editing(size: size)
        _ = state.press("g j Enter C-u / i t e m s / 9")
        assertSnapshot(state.screen, named: "edit-typing-\(size)")
    }

    @Test(arguments: [Size(width: 80, height: 24), Size(width: 120, height: 40)])
    func theVarsTab(size: Size) {
        var state = Self.editing(size: size)
        _ = state.press("7 Enter C-u 4 2 Enter j")
        assertSnapshot(state.screen, named: "vars-\(size)")
        _ = state.press("Enter C-u t y p e d")
        assertSnapshot(state.screen, named: "vars-secret-typing-\(size)")
    }

    @Test func theRequestTabWithADraft() {
        var state = Self.editing(size: Size(width: 120, height: 40))
        _ = state.press("4")
        assertSnapshot(state.screen, named: "request-draft-120x40")
    }

    @Test func theHelpOverlay() {
        var state = TestCatalog.state(size: Size(width: 120, height: 40))
        _ = state.press("?")
        assertSnapshot(state.screen, named: "help-120x40")
    }

    @Test func theExamplePicker() {
        var state = TestCatalog.state(size: Size(width: 80, height: 24))
        _ = state.press("x j")
        assertSnapshot(state.screen, named: "examples-80x24")
    }

    @Test(arguments: [Size(width: 1, height: 1), Size(width: 10, height: 3), Size(width: 59, height: 30), Size(width: 0, height: 0)])
    func tooSmallTerminalsSaySoAndNeverCrash(size: Size) {
        let screen = TestCatalog.state(size: size).screen
        if size.width >= 20 && size.height >= 3 {
            #expect(screen.contains("Terminal too small"))
        }
        #expect(AppView.render(TestCatalog.state(size: size)).buffer.width == size.width)
    }

    @Test func everySizeFromTinyToHugeRenders() {
        var state = Self.answered(size: Size(width: 1, height: 1))
        for width in stride(from: 1, through: 240, by: 13) {
            for height in stride(from: 1, through: 70, by: 7) {
                _ = AppReducer.reduce(&state, .terminal(.resize(Size(width: width, height: height))))
                for tab in ["1", "2", "3", "4", "5", "?", "Esc", "x", "Esc"] {
                    _ = state.press(tab)
                    #expect(AppView.render(state).buffer.height == height)
                }
            }
        }
    }
}
