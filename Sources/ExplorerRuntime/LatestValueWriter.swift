import Synchronization

/// Writes a value in the background, in order, with only the latest waiting: saves asked for while
/// one is being written collapse into one, so a burst of edits costs one write and the last wins.
final class LatestValueWriter<Value: Sendable>: Sendable {
    private struct Queue {
        var pending: (@Sendable () -> Void)?
        var writer: Task<Void, Never>?
    }

    private let queue = Mutex(Queue())

    /// Saves `value` with `write`; a value waiting to be written is replaced.
    func save(_ value: Value, with write: @escaping @Sendable (Value) -> Void) {
        queue.withLock { queue in
            queue.pending = { write(value) }
            if queue.writer == nil { queue.writer = Task.detached { self.drain() } }
        }
    }

    /// Waits until nothing is waiting or being written (quitting, tests).
    func flush() async {
        while let writer = queue.withLock({ $0.writer }) { await writer.value }
    }

    private func drain() {
        while let next = queue.withLock({ queue -> (@Sendable () -> Void)? in
            let next = queue.pending
            queue.pending = nil
            if next == nil { queue.writer = nil }
            return next
        }) {
            next()
        }
    }
}
