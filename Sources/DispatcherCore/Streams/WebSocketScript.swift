import FoundationEssentials

/// What the far end of a stubbed WebSocket does, step by step: the conversation a catalog scripts
/// (`websocket: script:`) for stub mode and the mock server. Without a script the far end echoes.
public struct WebSocketScript: Sendable, Hashable {
    /// One step.
    public enum Step: Sendable, Hashable {
        /// Sends a message, after a pause when given.
        case send(WebSocketMessage, after: Duration?)
        /// Waits for the client's next message.
        case receive
        /// From here on, sends every message back as it comes.
        case echo
        /// Closes the conversation, after a pause when given.
        case close(WebSocketClose, after: Duration?)
    }

    /// The steps, in order. After the last one the far end stays open, answering pings, until the client closes.
    public var steps: [Step]

    /// Makes a script.
    public init(steps: [Step]) {
        self.steps = steps
    }

    /// Echo everything: the far end when a catalog scripts none.
    public static let echo = WebSocketScript(steps: [.echo])
}

/// The far end's connection, as a script player sees it: the stub's in-process conversation, or
/// the mock server's socket.
package protocol WebSocketScriptPeer: Sendable {
    /// Sends a frame to the client.
    func send(_ content: WebSocketFrameContent) async
    /// The client's next frame; nil once the client is gone.
    func receive() async -> WebSocketFrameContent?
}

/// Plays a script against a client: pings are answered with pongs and a client's close with the
/// same close (the closing handshake), whatever step the script is at.
package enum WebSocketScriptPlayer {
    /// Plays `script` until it closes, the client closes or goes away, or the task is cancelled.
    /// Returns the close that ended the conversation, nil when the client went away without one.
    @discardableResult
    package static func play(_ script: WebSocketScript, with peer: some WebSocketScriptPeer, clock: DispatchClock) async -> WebSocketClose? {
        for step in script.steps {
            if Task.isCancelled { return nil }
            switch step {
            case .send(let message, let pause):
                if let pause { try? await clock.sleep(for: pause) }
                await peer.send(.message(message))
            case .receive:
                switch await nextMessage(from: peer) {
                case .message: break
                case .closed(let close): return close
                }
            case .echo:
                while true {
                    switch await nextMessage(from: peer) {
                    case .message(let message): await peer.send(.message(message))
                    case .closed(let close): return close
                    }
                }
            case .close(let close, let pause):
                if let pause { try? await clock.sleep(for: pause) }
                await peer.send(.close(close))
                // The client answers with its own close; what it sends before that is dropped.
                while let frame = await peer.receive() {
                    if case .close = frame { break }
                }
                return close
            }
        }
        while true {
            if case .closed(let close) = await nextMessage(from: peer) { return close }
        }
    }

    private enum Next {
        case message(WebSocketMessage)
        case closed(WebSocketClose?)
    }

    /// The client's next message, answering pings and the closing handshake on the way.
    private static func nextMessage(from peer: some WebSocketScriptPeer) async -> Next {
        while let frame = await peer.receive() {
            switch frame {
            case .message(let message): return .message(message)
            case .ping(let payload): await peer.send(.pong(payload))
            case .pong: continue
            case .close(let close):
                // RFC 6455 §5.5.1: the answer echoes the code; 1005 (no code) is answered with none.
                await peer.send(.close(close.code.isSendable ? WebSocketClose(code: close.code) : WebSocketClose(code: .normal)))
                return .closed(close)
            }
        }
        return .closed(nil)
    }
}
