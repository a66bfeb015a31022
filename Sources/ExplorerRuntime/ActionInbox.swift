import ExplorerApp
import Synchronization

/// Where actions wait for the run loop: producers on any thread append, the loop takes them all
/// at once, so a burst of actions becomes one frame.
final class ActionInbox: Sendable {
    private let pending = Mutex<[AppAction]>([])
    /// Rings when actions were posted; only the run loop listens.
    let doorbell: AsyncStream<Void>
    private let ring: AsyncStream<Void>.Continuation

    init() {
        (doorbell, ring) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Queues an action and wakes the loop.
    func post(_ action: AppAction) {
        pending.withLock { $0.append(action) }
        ring.yield()
    }

    /// Waits until something was posted, then takes everything queued; nil once closed.
    func next(_ bell: inout AsyncStream<Void>.Iterator) async -> [AppAction]? {
        while true {
            let batch = pending.withLock { queue -> [AppAction] in
                defer { queue.removeAll(keepingCapacity: true) }
                return queue
            }
            if !batch.isEmpty { return batch }
            guard await bell.next() != nil else { return nil }
        }
    }

    /// Whether nothing is queued.
    var isEmpty: Bool { pending.withLock { $0.isEmpty } }

    /// Stops the loop after what is queued.
    func close() { ring.finish() }
}
