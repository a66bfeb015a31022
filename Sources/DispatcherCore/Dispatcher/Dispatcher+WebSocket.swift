import FoundationEssentials

/// WebSocket conversations through the pipeline: the upgrade is a request like any other (plugins,
/// auth adapters, the error filter and handlers all see it), it stays in flight until the
/// conversation closes, and its close code decides success.
extension Dispatcher {
    /// Stub mode: the endpoint's script (or an echo) plays the server, in process.
    func stubConversation(_ conversation: WebSocketConversation, request: Request, script: WebSocketScript?, sentAt: Duration) async -> Response {
        var headers: Headers = ["Upgrade": "websocket", "Connection": "Upgrade"]
        let subprotocol = conversation.subprotocols.first
        if let subprotocol { headers.set("Sec-WebSocket-Protocol", subprotocol, origin: .server) }
        conversation.recordOpened(headers: headers, subprotocol: subprotocol)
        let opened = clock.now()
        await WebSocketScriptPlayer.play(script ?? .echo, with: StubPeer(conversation: conversation), clock: clock)
        conversation.finish(droppedWithout: Task.isCancelled ? "cancelled" : nil)
        let ended = clock.now()
        return Response(
            status: 101, headers: headers, body: conversation.transcriptBody(), url: request.url,
            source: .stub(example: request.options.example), timing: Timing(firstByte: opened - sentAt, total: ended - sentAt))
    }

    /// A server that answered the upgrade with an ordinary success: it does not speak WebSocket there.
    static func notUpgraded(_ response: Response) -> DispatchError {
        DispatchError(
            kind: .unknown,
            message: "The server answered \(response.statusLine) instead of 101 Switching Protocols: it does not accept a WebSocket at this URL.",
            status: response.status, response: response, source: "upgrade refused")
    }

    /// A conversation that ended: clean when it closed normally (or going away, or without a code),
    /// a `webSocketClosed` error otherwise, with the transcript as the response.
    static func conversationOutcome(_ response: Response, conversation: WebSocketConversation) -> Result<Response, DispatchError> {
        let close = conversation.closing ?? WebSocketClose(code: .abnormal, reason: "")
        if close.code.isClean { return .success(response) }
        let who = close.code == .abnormal ? "The WebSocket connection dropped"
            : conversation.closedBy == .sent ? "The WebSocket was closed" : "The server closed the WebSocket"
        let reason = close.reason.isEmpty || close.code == .abnormal ? "" : ": \(close.reason)"
        let message = "\(who) with \(close.code)\(reason) (\(close.code.meaning))."
        return .failure(DispatchError(
            kind: .webSocketClosed(close.code), message: message, status: response.status, response: response,
            source: "close \(close.code.rawValue)"))
    }
}

/// The far end of a stubbed conversation: what the script sends is recorded as received, what
/// the caller queues is recorded as sent.
private struct StubPeer: WebSocketScriptPeer {
    let conversation: WebSocketConversation

    func send(_ content: WebSocketFrameContent) async {
        guard !conversation.isFinished else { return }
        conversation.record(.received, content)
        // The client answers a server's close at once, as the live transport does, unless it closed first.
        if case .close(let close) = content {
            if conversation.closedBy == .received { conversation.record(.sent, .close(WebSocketClose(code: close.code.isSendable ? close.code : .normal))) }
            conversation.finish()
        }
    }

    func receive() async -> WebSocketFrameContent? {
        guard let outgoing = await conversation.nextOutgoing() else { return nil }
        let content: WebSocketFrameContent = switch outgoing {
        case .message(let message): .message(message)
        case .ping(let payload): .ping(payload)
        case .close(let close): .close(close)
        }
        conversation.record(.sent, content)
        return content
    }
}
