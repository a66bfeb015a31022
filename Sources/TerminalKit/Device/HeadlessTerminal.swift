import Synchronization

/// A terminal in memory: a fixed (but resizable) size, recorded frames and injectable events.
/// Used by tests and by the `snapshot` command.
package final class HeadlessTerminal: TerminalDevice {
    private struct State {
        var size: Size
        var frames: [Frame] = []
        var controlSequences: [String] = []
        var suspensions = 0
        var isShutDown = false
    }

    private let state: Mutex<State>
    private let continuation: AsyncStream<TerminalEvent>.Continuation
    /// Events sent with `send(_:)` and `resize(to:)`.
    package let events: AsyncStream<TerminalEvent>
    /// How many presented frames to keep (the oldest are dropped first).
    package let frameHistoryLimit: Int

    /// Creates a headless terminal of `size`, keeping at most `frameHistoryLimit` frames.
    package init(size: Size, frameHistoryLimit: Int = 64) {
        state = Mutex(State(size: size))
        self.frameHistoryLimit = max(1, frameHistoryLimit)
        (events, continuation) = AsyncStream.makeStream(of: TerminalEvent.self, bufferingPolicy: .unbounded)
    }

    /// The current size.
    package var size: Size { state.withLock { $0.size } }

    /// Records the frame.
    package func present(_ frame: Frame) {
        state.withLock { state in
            guard !state.isShutDown else { return }
            state.frames.append(frame)
            if state.frames.count > frameHistoryLimit { state.frames.removeFirst(state.frames.count - frameHistoryLimit) }
        }
    }

    /// Records the bytes.
    package func writeControlSequence(_ bytes: String) {
        state.withLock { $0.controlSequences.append(bytes) }
    }

    /// Runs `body` at once and counts the suspension.
    package func suspend<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) async throws -> Result {
        state.withLock { $0.suspensions += 1 }
        return try body()
    }

    /// Finishes the event stream; later frames are ignored.
    package func shutdown() {
        state.withLock { $0.isShutDown = true }
        continuation.finish()
    }

    // MARK: Test controls

    /// Delivers an event as if the user had caused it.
    package func send(_ event: TerminalEvent) { continuation.yield(event) }

    /// Delivers key events parsed from a description like "j j Enter".
    package func send(keys: String) throws(KeyParseError) {
        for key in try KeyEvent.parseSequence(keys) { continuation.yield(.key(key)) }
    }

    /// Changes the size and delivers the `.resize` event.
    package func resize(to size: Size) {
        state.withLock { $0.size = size }
        continuation.yield(.resize(size))
    }

    /// Frames presented so far, oldest first (at most `frameHistoryLimit`).
    package var frames: [Frame] { state.withLock { $0.frames } }
    /// The most recent frame.
    package var lastFrame: Frame? { state.withLock { $0.frames.last } }
    /// Control sequences written so far.
    package var controlSequences: [String] { state.withLock { $0.controlSequences } }
    /// How many times `suspend` ran.
    package var suspensionCount: Int { state.withLock { $0.suspensions } }
    /// True after `shutdown()`.
    package var isShutDown: Bool { state.withLock { $0.isShutDown } }
}
