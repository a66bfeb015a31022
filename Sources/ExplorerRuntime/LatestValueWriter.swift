import Catalog
import StateStore
import Synchronization
import SystemSupport

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

/// Keeps one of the state folder's files that other explorers and `call`s write too (drafts,
/// run-time values, captured values): each save writes what this explorer changed since it last
/// read or wrote the file, merged over what the file holds now (`EnvironmentStateFile.save(_:over:)`),
/// so two explorers sharing the folder keep each other's changes.
final class StateFileKeeper<Value: Codable & Sendable & MergeableState>: Sendable {
    private let writer = LatestValueWriter<[EnvironmentKey: Value]>()
    /// What this explorer last read from or wrote to the file.
    private let base = Mutex<[EnvironmentKey: Value]>([:])

    /// Reads the file (what later saves are compared with).
    func load(_ file: EnvironmentStateFile<Value>) -> [EnvironmentKey: Value] {
        let values = file.load()
        base.withLock { $0 = values }
        return values
    }

    /// Saves `values` in the background, the latest only; `failed` says why one could not be.
    func keep(_ values: [EnvironmentKey: Value], in file: EnvironmentStateFile<Value>, failed: @escaping @Sendable (SystemError) -> Void) {
        writer.save(values) { values in
            do throws(SystemError) {
                try file.save(values, over: self.base.withLock { $0 })
                self.base.withLock { $0 = values }
            } catch {
                failed(error)
            }
        }
    }

    /// Waits until nothing is waiting or being written.
    func flush() async { await writer.flush() }
}
