import NIOCore
import Synchronization

/// Everything a test server records, behind one lock.
final class TestServerState: Sendable {
    private struct Inner {
        var requests: [TestRequest] = []
        var requestCount = 0
        var connectionCount = 0
        var tlsHandshakeCount = 0
        var open: [Int: TestConnection] = [:]
        var isShuttingDown = false
        var waiters: [Int: (count: Int, continuation: CheckedContinuation<Void, Never>)] = [:]
        var nextWaiterID = 0
    }

    private let inner = Mutex(Inner())
    /// False for benchmarks: requests are counted but not kept.
    private let recordsRequests: Bool

    init(recordsRequests: Bool) {
        self.recordsRequests = recordsRequests
    }

    var requests: [TestRequest] { inner.withLock { $0.requests } }
    var requestCount: Int { inner.withLock { $0.requestCount } }
    var connectionCount: Int { inner.withLock { $0.connectionCount } }
    var openConnectionCount: Int { inner.withLock { $0.open.count } }
    var tlsHandshakeCount: Int { inner.withLock { $0.tlsHandshakeCount } }

    /// Registers an accepted connection, or returns nil when the server is shutting down.
    func openConnection(_ channel: Channel) -> TestConnection? {
        inner.withLock { state in
            guard !state.isShuttingDown else { return nil }
            state.connectionCount += 1
            let connection = TestConnection(id: state.connectionCount, channel: channel)
            state.open[connection.id] = connection
            return connection
        }
    }

    func connectionClosed(_ id: Int) {
        _ = inner.withLock { $0.open.removeValue(forKey: id) }
    }

    func recordHandshake() {
        inner.withLock { $0.tlsHandshakeCount += 1 }
    }

    func record(_ request: TestRequest) {
        let ready = inner.withLock { state in
            if recordsRequests { state.requests.append(request) }
            state.requestCount += 1
            let count = state.requestCount
            let ready = state.waiters.filter { $0.value.count <= count }
            for id in ready.keys { state.waiters[id] = nil }
            return ready.values.map(\.continuation)
        }
        for continuation in ready { continuation.resume() }
    }

    /// Returns once at least `count` requests were recorded, at shutdown, or when cancelled.
    func waitForRequests(_ count: Int) async {
        let id = inner.withLock { state in
            state.nextWaiterID += 1
            return state.nextWaiterID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let satisfied = inner.withLock { state in
                    // Cancellation sets the flag before onCancel runs, so checking it under the lock closes the race.
                    guard state.requestCount < count, !state.isShuttingDown, !Task.isCancelled else { return true }
                    state.waiters[id] = (count, continuation)
                    return false
                }
                if satisfied { continuation.resume() }
            }
        } onCancel: {
            inner.withLock { $0.waiters.removeValue(forKey: id) }?.continuation.resume()
        }
    }

    /// Marks the server as shutting down; returns the open connections, or nil if already shut down.
    func beginShutdown() -> [TestConnection]? {
        let (connections, waiters) = inner.withLock { state -> ([TestConnection]?, [CheckedContinuation<Void, Never>]) in
            guard !state.isShuttingDown else { return (nil, []) }
            state.isShuttingDown = true
            let waiters = state.waiters.values.map(\.continuation)
            state.waiters = [:]
            return (Array(state.open.values), waiters)
        }
        for waiter in waiters { waiter.resume() }
        return connections
    }
}
