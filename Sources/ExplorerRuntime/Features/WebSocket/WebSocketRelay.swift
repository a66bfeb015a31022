import DispatcherCore
import ExplorerApp
import Synchronization

/// Hands a WebSocket conversation's events to the explorer a frame at a time (at most one report
/// per `ReportTimer.interval`), so a chatty server costs one frame per interval, not one per message.
final class WebSocketRelay: Sendable {
    private struct State {
        var opened: WebSocketUpdate.Opened?
        var frames: [WebSocketFrameRecord] = []
        var reportedOpening = false
    }

    private let state = Mutex(State())
    private let timer = ReportTimer()
    private let ticket: Int
    private let post: @Sendable (AppAction) -> Void

    init(ticket: Int, post: @escaping @Sendable (AppAction) -> Void) {
        self.ticket = ticket
        self.post = post
    }

    /// What the conversation calls, on the transport's thread.
    func observe(_ event: WebSocketEvent) {
        state.withLock { state in
            switch event {
            case .opened(let headers, let subprotocol): state.opened = WebSocketUpdate.Opened(headers: headers, subprotocol: subprotocol)
            case .frame(let frame): state.frames.append(frame)
            }
        }
        scheduleFlush()
    }

    /// Posts what happened since the last report; under the lock, so no report comes after the
    /// request's end, which the runner posts after its own last `flush()`.
    func flush() {
        state.withLock { state in
            guard state.opened != nil || !state.frames.isEmpty else { return }
            post(.webSocket(.updated(ticket: ticket, update: WebSocketUpdate(opened: state.opened, frames: state.frames))))
            if state.opened != nil { state.reportedOpening = true }
            state.opened = nil
            state.frames = []
        }
    }

    /// Whether the conversation is open and everything that happened has been reported: it waits
    /// for the person (or the server), so the explorer counts as idle (snapshots, tests).
    var isSettled: Bool {
        !timer.isPending && state.withLock { $0.reportedOpening && $0.frames.isEmpty }
    }

    private func scheduleFlush() {
        timer.schedule { [self] in flush() }
    }
}
