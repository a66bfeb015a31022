import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A plain thread of its own, for work that blocks for good (a `poll` loop, a signal pipe) and so
/// must never hold a thread of Swift's cooperative pool.
package enum PosixThread {
    private final class Box {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// Starts `body` on a new detached thread. Returns false when no thread could be made.
    @discardableResult
    package static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { argument in
            guard let argument else { return nil }
            let box = Unmanaged<Box>.fromOpaque(argument).takeRetainedValue()
            box.body()
            return nil
        }, box)
        guard status == 0 else {
            Unmanaged<Box>.fromOpaque(box).release()
            return false
        }
        pthread_detach(thread)
        return true
    }

    /// Runs `body` on a new thread and returns its result: blocking or CPU-bound work that must
    /// not hold a thread of the cooperative pool. Runs it on the caller's thread when no thread
    /// can be made.
    package static func run<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
        await withCheckedContinuation { (continuation: CheckedContinuation<Result, Never>) in
            let box = Mutex<CheckedContinuation<Result, Never>?>(continuation)
            let started = start {
                let result = body()
                box.withLock { $0.take() }?.resume(returning: result)
            }
            if !started { box.withLock { $0.take() }?.resume(returning: body()) }
        }
    }
}
