import Catalog
import DispatcherCore
import ExplorerApp
import ExplorerTestSupport
import Foundation
import TerminalKit
import Testing
import TestTraits

/// WebSocket conversations in the explorer: frames listed as they come, `m` types a message (Tab
/// fills the named ones), Esc closes with a normal closure and a second Esc drops the connection.
@Suite(.offPool) struct ReducerWebSocketTests {
    static let chat = """
        service: chat
        environments:
          local: { baseURL: "http://127.0.0.1:9/chat" }
        endpoints:
          room:
            path: /room
            websocket:
              subprotocols: [chat.v1]
              messages:
                hello: { type: hello }
                bye: { type: bye }
          plain:
            path: /plain
        """

    static func state(size: Size = Size(width: 120, height: 40)) -> AppState {
        AppState(catalog: CatalogLoader.load(fileSystem: InMemoryFileSystem(texts: ["chat.yaml": chat]), source: .bundled), size: size)
    }

    static let opened = WebSocketUpdate.Opened(headers: Headers([("Upgrade", "websocket")], origin: .server), subprotocol: "chat.v1")

    static func frames() -> [WebSocketFrameRecord] {
        [
            WebSocketFrameRecord(at: .milliseconds(12), direction: .received, content: .message(.text(#"{"type":"welcome","room":"lobby"}"#))),
            WebSocketFrameRecord(at: .milliseconds(40), direction: .sent, content: .message(.text(#"{"type":"hello"}"#))),
            WebSocketFrameRecord(at: .milliseconds(41), direction: .received, content: .message(.binary(Data([0xDE, 0xAD, 0xBE, 0xEF])))),
            WebSocketFrameRecord(at: .milliseconds(90), direction: .received, content: .ping(Data())),
            WebSocketFrameRecord(at: .milliseconds(90), direction: .sent, content: .pong(Data())),
            WebSocketFrameRecord(at: .milliseconds(120), direction: .received, content: .message(.text(#"{"type":"ack","note":"first message received"}"#))),
        ]
    }

    /// An open conversation on the first endpoint, its frames shown, the response pane focused.
    static func open(size: Size = Size(width: 120, height: 40)) -> AppState {
        var state = state(size: size)
        _ = state.press("Enter")
        _ = AppReducer.reduce(&state, .webSocket(.updated(ticket: 1, update: WebSocketUpdate(opened: opened, frames: frames()))))
        return state
    }

    @Test func framesAreListedAsTheyComeWhileTheConversationIsOpen() {
        var state = Self.open()
        #expect(state.inFlight[1] != nil)
        #expect(state.selectedWebSocket?.frames.count == 6)
        let screen = state.screen
        #expect(screen.contains("101 Switching Protocols · WebSocket open · ↑ 1 ↓ 3"))
        #expect(screen.contains("WebSocket · chat.v1 · ↑ 1 ↓ 3 messages"))
        #expect(screen.contains(#"+0.012s  ↓ text    {"type":"welcome","room":"lobby"}"#))
        #expect(screen.contains("+0.041s  ↓ binary  4 B deadbeef"))
        #expect(screen.contains("+0.090s  ↑ pong"))
        // The newest frame in full, pretty-printed.
        #expect(screen.contains(#""note": "first message received""#))
        #expect(state.log.lines.contains { $0.contains("#1 ⇅ WebSocket open (subprotocol chat.v1)") })
        // j/k move through the frames; a binary frame shows as a hex dump.
        _ = state.press("Tab k k k")
        #expect(state.selectedWebSocket?.selectedIndex == 2)
        #expect(state.screen.contains("00000000  de ad be ef"))
        _ = state.press("G")
        #expect(state.selectedWebSocket?.cursor == nil)
    }

    @Test func mTypesAMessageTabFillsTheNamedOnesAndEnterSendsIt() {
        var state = Self.open()
        #expect(state.press("m").isEmpty)
        guard case .webSocket(let composer)? = state.overlay else {
            Issue.record("the composer is open")
            return
        }
        #expect(composer.input.text == #"{"type":"hello"}"#)
        #expect(state.keyContext == .typing)
        #expect(state.screen.contains("Message on chat/room"))
        // Enter sends the named message by name: the runner fills its placeholders.
        #expect(state.press("Tab Enter") == [.webSocket(.send(ticket: 1, message: .named("bye")))])
        #expect(state.overlay == nil)
        // Typed text goes as typed.
        _ = state.press("m C-u")
        #expect(state.press("h i Enter") == [.webSocket(.send(ticket: 1, message: .typed("hi")))])
    }

    @Test func mOnAnEndpointThatIsNotOpenSaysWhatToDo() {
        var state = Self.state()
        _ = state.press("m")
        #expect(state.notice == "Open the WebSocket first (Enter): m types a message once it is open.")
        _ = state.press("j m")
        #expect(state.notice == "m sends a message on a WebSocket endpoint; chat/plain is plain HTTP.")
        #expect(state.overlay == nil)
    }

    @Test func escClosesNormallyFirstAndDropsTheConnectionSecond() {
        var state = Self.open()
        #expect(state.press("Esc") == [.webSocket(.close(ticket: 1))])
        #expect(state.selectedWebSocket?.isClosing == true)
        #expect(state.screen.contains("closing"))
        #expect(state.press("Esc") == [.exchanges(.cancel(ticket: 1))])
    }

    @Test func aServerCloseIsShownWithItsMeaningOnceTheRequestEnds() {
        var state = Self.open()
        let close = WebSocketRecordClose.policy
        _ = AppReducer.reduce(&state, .webSocket(.updated(ticket: 1, update: WebSocketUpdate(frames: [close]))))
        let error = DispatchError(kind: .webSocketClosed(.policyViolation), message: "The server closed the WebSocket with 1008 policyViolation: no guests.", status: 101, source: "close 1008")
        state.finish(ticket: 1, TestCatalog.exchange(status: 0, error: error))
        #expect(state.selectedWebSocket?.isOpen == false)
        let screen = state.screen
        #expect(screen.contains("closed by the server: 1008 policyViola"))
        #expect(screen.contains("↓ close   1008 policyViolation: no guests"))
        #expect(screen.contains("policy violation: the server refused a message"))
        #expect(state.log.lines.contains { $0.contains("#1 ⇅ close received: 1008 policyViolation: no guests") })
    }

    @Test(arguments: [Size(width: 80, height: 24), Size(width: 120, height: 40)])
    func aConversationWhileItIsOpen(size: Size) {
        var state = Self.open(size: size)
        _ = state.press("Tab")
        assertSnapshot(state.screen, named: "websocket-\(size)")
    }
}

private enum WebSocketRecordClose {
    static let policy = WebSocketFrameRecord(
        at: .milliseconds(300), direction: .received, content: .close(WebSocketClose(code: .policyViolation, reason: "no guests")))
}
