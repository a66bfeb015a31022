import FoundationEssentials
import Synchronization

/// Lets identical requests in flight share one response (Moya's `trackInflights`). A waiter that
/// is cancelled leaves at once; the shared request is cancelled when its last waiter leaves.
final class InflightRegistry: Sendable {
    /// What makes two requests identical.
    struct Key: Hashable, Sendable {
        let method: HTTPMethod
        let url: String
        let headers: [String]
        let body: Data?
        let behavior: StubBehavior
        let example: String?

        init(request: Request, behavior: StubBehavior) {
            method = request.method
            url = request.url.absoluteString
            headers = request.headers.map { "\($0.name.lowercased()):\($0.value)" }
            body = request.body
            self.behavior = behavior
            example = request.options.example
        }
    }

    private struct Entry {
        var task: Task<Void, Never>?
        var waiters: [UInt64: CheckedContinuation<Exchange?, Never>] = [:]
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var waiterKeys: [UInt64: Key] = [:]
        var cancelledEarly: Set<UInt64> = []
        var nextWaiter: UInt64 = 0
    }

    private let state = Mutex(State())

    /// Joins the request in flight for `key`, or starts `work` when there is none.
    /// Returns nil when the caller was cancelled before the shared request finished.
    func share(_ key: Key, work: @escaping @Sendable () async -> Exchange) async -> Exchange? {
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Exchange?, Never>) in
                let startsWork = state.withLock { state -> Bool? in
                    if state.cancelledEarly.remove(id) != nil { return nil }
                    state.waiterKeys[id] = key
                    if state.entries[key] != nil {
                        state.entries[key]?.waiters[id] = continuation
                        return false
                    }
                    state.entries[key] = Entry(waiters: [id: continuation])
                    return true
                }
                switch startsWork {
                case nil: continuation.resume(returning: nil)
                case false?: break
                case true?:
                    let task = Task { self.complete(key, with: await work()) }
                    state.withLock { state in state.entries[key]?.task = task }
                }
            }
        } onCancel: {
            leave(id)
        }
        state.withLock { state in _ = state.cancelledEarly.remove(id) }
        return result
    }

    private func leave(_ id: UInt64) {
        let (continuation, orphaned) = state.withLock { state -> (CheckedContinuation<Exchange?, Never>?, Task<Void, Never>?) in
            guard let key = state.waiterKeys.removeValue(forKey: id) else {
                state.cancelledEarly.insert(id)
                return (nil, nil)
            }
            let continuation = state.entries[key]?.waiters.removeValue(forKey: id)
            let orphaned = state.entries[key]?.waiters.isEmpty == true ? state.entries[key]?.task : nil
            return (continuation, orphaned)
        }
        continuation?.resume(returning: nil)
        orphaned?.cancel()
    }

    private func complete(_ key: Key, with exchange: Exchange) {
        let waiters = state.withLock { state -> [CheckedContinuation<Exchange?, Never>] in
            guard let entry = state.entries.removeValue(forKey: key) else { return [] }
            for id in entry.waiters.keys { state.waiterKeys.removeValue(forKey: id) }
            return Array(entry.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: exchange) }
    }
}
