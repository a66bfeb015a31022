import ExplorerApp
import Synchronization

/// Where actions wait for the run loop: producers on any thread append, the loop takes them all
/// at once, so a burst of actions becomes one frame.
final class ActionInbox: Sendable {
    /// The queue, and whether the loop holds a batch it has not yet reduced, performed and drawn
    /// (so the explorer is not idle between taking a batch and showing its frame).
    private let pending = Mutex<(queue: [AppAction], taken: Bool)>(([], false))
    /// Rings when actions were posted; only the run loop listens.
    let doorbell: AsyncStream<Void>
    private let ring: AsyncStream<Void>.Continuation

    init() {
        (doorbell, ring) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Queues an action and wakes the loop.
    func post(_ action: AppAction) {
        pending.withLock { $0.queue.append(action) }
        ring.yield()
    }

    /// Waits until something was posted, then takes everything queued; nil once closed.
    func next(_ bell: inout AsyncStream<Void>.Iterator) async -> [AppAction]? {
        while true {
            let batch = pending.withLock { pending -> [AppAction] in
                defer { pending.queue.removeAll(keepingCapacity: true) }
                pending.taken = !pending.queue.isEmpty
                return pending.queue
            }
            if !batch.isEmpty { return batch }
            guard await bell.next() != nil else { return nil }
        }
    }

    /// The loop has handled the batch `next` gave it.
    func finishedBatch() { pending.withLock { $0.taken = false } }

    /// Whether nothing is queued or being handled.
    var isEmpty: Bool { pending.withLock { $0.queue.isEmpty && !$0.taken } }

    /// Stops the loop after what is queued.
    func close() { ring.finish() }
}
