import FoundationEssentials
import JSONSupport
import Synchronization

/// One WebSocket conversation, between whoever talks (the explorer, `call`, a Swift program) and
/// the transport that carries it (live over the network, or the stub's script). The caller queues
/// messages with `send`, ends it with `close`, and hears every frame through `onEvent`; the
/// transport takes what to send with `nextOutgoing()` and reports with `record`. Give it to a
/// request as `RequestOptions.webSocket`: the request stays in flight (the spinner turns) until
/// the conversation closes, and its response is the handshake's head with the transcript as body.
package final class WebSocketConversation: Sendable {
    /// What the caller asks the transport to put on the wire.
    package enum Outgoing: Sendable, Hashable {
        case message(WebSocketMessage)
        case ping(Data)
        case close(WebSocketClose)
    }

    /// How many frames the transcript (the response body, history) keeps; later ones are counted only.
    package static let transcriptLimit = 1000

    /// The subprotocols offered in `Sec-WebSocket-Protocol`, in order of preference.
    package let subprotocols: [String]
    /// How often the transport pings an idle server to keep the connection (and learn it is gone); nil: never.
    package let pingInterval: Duration?
    private let clock: DispatchClock
    private let started: Duration
    private let onEvent: @Sendable (WebSocketEvent) -> Void

    private struct State {
        var queue: [Outgoing] = []
        var waiter: CheckedContinuation<Outgoing?, Never>?
        var finished = false
        var transcript: [WebSocketFrameRecord] = []
        var frameCount = 0
        var close: WebSocketClose?
        var closedBy: WebSocketDirection?
        var subprotocol: String?
        /// Queued by the caller and not yet recorded as sent.
        var unsent = 0
    }

    private let state = Mutex(State())

    /// Makes a conversation.
    /// - Parameters:
    ///   - subprotocols: offered to the server.
    ///   - pingInterval: keep-alive pings; nil sends none (pings can always be sent with `ping`).
    ///   - clock: stamps frames (a stepping clock in snapshots).
    ///   - onEvent: hears the opening and every frame, on the transport's thread: return quickly.
    package init(
        subprotocols: [String] = [], pingInterval: Duration? = nil, clock: DispatchClock = .continuous,
        onEvent: @escaping @Sendable (WebSocketEvent) -> Void = { _ in }
    ) {
        self.subprotocols = subprotocols
        self.pingInterval = pingInterval
        self.clock = clock
        started = clock.now()
        self.onEvent = onEvent
    }

    // MARK: The caller's side

    /// Queues a message; sent once the conversation is open (in order).
    package func send(_ message: WebSocketMessage) { enqueue(.message(message)) }

    /// Queues a ping.
    package func ping(_ payload: Data = Data()) { enqueue(.ping(payload)) }

    /// Starts the closing handshake (normal closure unless told otherwise).
    package func close(_ close: WebSocketClose = WebSocketClose()) { enqueue(.close(close)) }

    /// How it ended, once it has: the close frame's code and reason (`abnormal` when the
    /// connection dropped without one).
    package var closing: WebSocketClose? { state.withLock { $0.close } }

    /// Who closed first, once it has ended.
    package var closedBy: WebSocketDirection? { state.withLock { $0.closedBy } }

    /// The subprotocol the server chose.
    package var subprotocol: String? { state.withLock { $0.subprotocol } }

    /// The frames so far (the first `transcriptLimit`).
    package var transcript: [WebSocketFrameRecord] { state.withLock { $0.transcript } }

    /// Whether something the caller queued has not gone out yet (nor been dropped at the end).
    package var hasUnsentFrames: Bool { state.withLock { $0.unsent > 0 } }

    /// Frames in all, the ones past the transcript's limit included.
    package var frameCount: Int { state.withLock { $0.frameCount } }

    // MARK: The transport's side

    /// The next thing to put on the wire; nil once the conversation has ended (or the task is cancelled).
    package func nextOutgoing() async -> Outgoing? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Outgoing?, Never>) in
                let ready: Outgoing?? = state.withLock { state in
                    if !state.queue.isEmpty { return .some(state.queue.removeFirst()) }
                    if state.finished || Task.isCancelled { return .some(nil) }
                    state.waiter = continuation
                    return .none
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: nil)
        }
    }

    /// The server accepted the upgrade.
    package func recordOpened(headers: Headers, subprotocol: String?) {
        state.withLock { $0.subprotocol = subprotocol }
        onEvent(.opened(headers: headers, subprotocol: subprotocol))
    }

    /// A frame went one way or the other; a close frame's first record says who closed.
    package func record(_ direction: WebSocketDirection, _ content: WebSocketFrameContent) {
        let record = WebSocketFrameRecord(at: clock.now() - started, direction: direction, content: content)
        state.withLock { state in
            state.frameCount += 1
            if state.transcript.count < Self.transcriptLimit { state.transcript.append(record) }
            if case .close(let close) = content, state.close == nil {
                state.close = close
                state.closedBy = direction
            }
        }
        onEvent(.frame(record))
        // After the watcher heard it, so "nothing unsent" never comes before the watcher knows.
        if direction == .sent, case .message = content { state.withLock { $0.unsent = max(0, $0.unsent - 1) } }
    }

    /// The conversation is over (closed, dropped, or never opened): `nextOutgoing` answers nil from
    /// now on. A connection that dropped without a close frame is recorded as `abnormal` (1006).
    package func finish(droppedWithout reason: String? = nil) {
        let (waiter, dropped): (CheckedContinuation<Outgoing?, Never>?, Bool) = state.withLock { state in
            state.finished = true
            state.queue.removeAll()
            state.unsent = 0
            defer { state.waiter = nil }
            return (state.waiter, state.close == nil && reason != nil)
        }
        waiter?.resume(returning: nil)
        if dropped, let reason { record(.received, .close(WebSocketClose(code: .abnormal, reason: reason))) }
    }

    /// Whether it has finished.
    package var isFinished: Bool { state.withLock { $0.finished } }

    private func enqueue(_ outgoing: Outgoing) {
        let waiter: CheckedContinuation<Outgoing?, Never>? = state.withLock { state in
            guard !state.finished else { return nil }
            if case .message = outgoing { state.unsent += 1 }
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.queue.append(outgoing)
            return nil
        }
        waiter?.resume(returning: outgoing)
    }

    // MARK: The transcript as a body

    /// The transcript as NDJSON, one frame per line: what the response body holds (so the Body tab,
    /// `call --json`, history and HAR all read a conversation like any body). Binary payloads are hex.
    package func transcriptBody() -> Data {
        let (records, count) = state.withLock { ($0.transcript, $0.frameCount) }
        var text = ""
        for record in records { text += Self.line(for: record) + "\n" }
        if count > records.count {
            text += JSONValue.object(["omitted": .integer(count - records.count)]).compactText + "\n"
        }
        return Data(text.utf8)
    }

    /// One transcript line: `{"at":0.012,"direction":"received","type":"text","data":"hi"}`.
    package static func line(for record: WebSocketFrameRecord) -> String {
        var members: [(String, JSONValue)] = [
            ("at", .double((record.at.seconds * 1000).rounded() / 1000)), ("direction", .string(record.direction.rawValue)),
        ]
        switch record.content {
        case .message(.text(let text)): members += [("type", "text"), ("data", .string(text))]
        case .message(.binary(let data)): members += [("type", "binary"), ("hex", .string(data.hexText))]
        case .ping(let data): members += [("type", "ping"), ("hex", .string(data.hexText))]
        case .pong(let data): members += [("type", "pong"), ("hex", .string(data.hexText))]
        case .close(let close):
            members += [("type", "close"), ("code", .integer(close.code.rawValue)), ("name", .string(close.code.name))]
            if !close.reason.isEmpty { members.append(("reason", .string(close.reason))) }
        }
        return JSONValue.object(JSONObject(members.map { (key: $0.0, value: $0.1) })).compactText
    }
}

extension Data {
    /// Lower-case hex, two digits a byte.
    package var hexText: String {
        let digits = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count * 2)
        for byte in self {
            bytes.append(digits[Int(byte >> 4)])
            bytes.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
