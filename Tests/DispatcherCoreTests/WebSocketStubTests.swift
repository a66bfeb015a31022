import DispatcherCore
import Foundation
import TestSupport
import Testing
import TestTraits

/// Stub mode plays a WebSocket endpoint's script in process: the same conversation a live server gives.
@Suite(.offPool) struct WebSocketStubTests {
    private func converse(
        _ script: WebSocketScript?, subprotocols: [String] = [], _ caller: @Sendable (WebSocketConversation) -> Void = { _ in }
    ) async -> (Exchange, WebSocketConversation) {
        let environment = Environment(name: "dev", baseURL: URL(string: "https://api.example.com")!, fixtures: .immediate)
        let activity = NetworkActivityPlugin()
        let conversation = WebSocketConversation(subprotocols: subprotocols)
        var options = RequestOptions()
        options.webSocket = conversation
        caller(conversation)
        let exchange = await Dispatcher<Target>(environment: environment, plugins: [activity]).send(
            Target(.get, "/chat", webSocketScript: script), options: options)
        #expect(activity.inFlight == 0)
        return (exchange, conversation)
    }

    @Test func theScriptGreetsWaitsAcknowledgesThenEchoesUntilTheClientCloses() async throws {
        let script = WebSocketScript(steps: [
            .send(.text("welcome"), after: nil), .receive, .send(.text("ack"), after: nil), .echo,
        ])
        let (exchange, conversation) = await converse(script, subprotocols: ["chat.v1"]) { conversation in
            conversation.send(.text("first"))
            conversation.send(.text("second"))
            conversation.ping(Data([7]))
            conversation.close()
        }
        let response = try exchange.result.get()
        #expect(response.status == 101)
        #expect(response.headers["Sec-WebSocket-Protocol"] == "chat.v1")
        #expect(response.source == .stub(example: nil))
        let frames = conversation.transcript.map { "\($0.direction.rawValue) \($0.content)" }
        #expect(frames == [
            "received message(text(\"welcome\"))",
            "sent message(text(\"first\"))",
            "received message(text(\"ack\"))",
            "sent message(text(\"second\"))",
            "received message(text(\"second\"))",
            "sent ping(1 bytes)",
            "received pong(1 bytes)",
            "sent close(1000 normal)",
            "received close(1000 normal)",
        ])
        #expect(conversation.closedBy == .sent)
    }

    @Test func aScriptThatClosesWithAnErrorCodeIsAMappedError() async {
        let script = WebSocketScript(steps: [.close(WebSocketClose(code: .policyViolation, reason: "no guests"), after: nil)])
        let (exchange, conversation) = await converse(script)
        #expect(exchange.error?.kind == .webSocketClosed(.policyViolation))
        #expect(exchange.error?.message == "The server closed the WebSocket with 1008 policyViolation: no guests (policy violation: the server refused a message).")
        #expect(exchange.error?.response?.status == 101)
        #expect(conversation.closedBy == .received)
        // The stubbed client answers the close, as a live one does.
        #expect(conversation.transcript.map(\.direction) == [.received, .sent])
    }

    @Test func withoutAScriptTheStubEchoes() async {
        let (exchange, conversation) = await converse(nil) { conversation in
            conversation.send(.binary(Data([1, 2])))
            conversation.close()
        }
        #expect(exchange.error == nil)
        #expect(conversation.transcript.map(\.content).filter { if case .message = $0 { true } else { false } }.count == 2)
    }

    @Test func theTranscriptIsTheBodyOneJSONLineAFrame() async throws {
        let (exchange, _) = await converse(WebSocketScript(steps: [.send(.text(#"{"a":1}"#), after: nil), .close(WebSocketClose(), after: nil)]))
        let lines = try exchange.result.get().text.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix(#"{"at":"#))
        #expect(lines[0].hasSuffix(#","direction":"received","type":"text","data":"{\"a\":1}"}"#))
    }

    @Test func closeCodesSayWhatTheyMean() {
        #expect(WebSocketCloseCode.normal.isClean)
        #expect(WebSocketCloseCode.goingAway.isClean)
        #expect(!WebSocketCloseCode.messageTooBig.isClean)
        #expect(WebSocketCloseCode(4001).name == "application")
        #expect(WebSocketCloseCode(3003).name == "registered")
        #expect(!WebSocketCloseCode.abnormal.isSendable)
        #expect(WebSocketCloseCode.tryAgainLater.description == "1013 tryAgainLater")
        #expect(ErrorKind(name: "webSocketClosed", status: 1009) == .webSocketClosed(.messageTooBig))
    }
}

extension WebSocketFrameContent: CustomStringConvertible {
    public var description: String {
        switch self {
        case .message(let message): "message(\(message))"
        case .ping(let data): "ping(\(data.count) bytes)"
        case .pong(let data): "pong(\(data.count) bytes)"
        case .close(let close): "close(\(close))"
        }
    }
}
