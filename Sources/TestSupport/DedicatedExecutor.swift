import Dispatch
import NIOCore
import NIOPosix

/// Runs tasks on dispatch threads instead of Swift's cooperative pool.
///
/// The tests of this process share that pool, one thread per core; CPU-bound tests or blocking
/// calls can hold it for seconds. An in-process server whose handlers waited for the pool would
/// then answer late, and a client's read timeout would blame the code under test. Each job goes
/// to a serial queue of its own, which dispatch serves from its overcommitting threads: a job
/// here never waits for another to finish, and the kernel shares the cores among them all.
package final class DedicatedExecutor: TaskExecutor, Sendable {
    private let label: String

    /// The executor in-process test servers run their handlers on.
    package static let servers = DedicatedExecutor(label: "test-servers")
    /// The executor `offPool` and the `.offPool` test trait run work on.
    package static let work = DedicatedExecutor(label: "test-work")

    /// Makes an executor whose threads are named after `label`.
    package init(label: String) {
        self.label = "apiexplorer.\(label)"
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        DispatchQueue(label: label).async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

/// Runs blocking or CPU-bound work (a subprocess, a long loop) away from the cooperative pool and
/// returns its result, so the other tests of the process keep their threads meanwhile.
package func offPool<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
    try await withTaskExecutorPreference(DedicatedExecutor.work) { try work() }
}

/// `offPool` for work that cannot throw.
package func offPool<Result: Sendable>(_ work: @escaping @Sendable () -> Result) async -> Result {
    await withTaskExecutorPreference(DedicatedExecutor.work) { work() }
}

/// Event loops for tests, apart from NIO's two-thread singleton that the code under test uses:
/// another test's busy loop (a large body, a TLS handshake, a decompression) must not hold back a
/// test server's answers or a test client's timers.
package enum TestEventLoops {
    /// The loops in-process test servers listen and answer on. Never shut down, like the singleton.
    package static let servers = MultiThreadedEventLoopGroup(numberOfThreads: 4)

    /// Runs `body` with a one-thread loop of its own, shut down afterwards, for a transport under
    /// test: on a loop shared with other tests, their work (a large body, a decompression) delays
    /// its reads while its read timeout is already due.
    package static func withOwnLoop<Result>(_ body: (any EventLoopGroup) async throws -> Result) async throws -> Result {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        return try await withShutdown { try await body(group) } shutdown: { try await group.shutdownGracefully() }
    }
}

/// Sleeps on a test event loop's timer instead of `Task.sleep`, whose wake-up waits for a thread of
/// the cooperative pool even under a task executor preference: with the pool held by other tests, a
/// test server's 50 ms drip woke after 25 s, and the client's read timeout blamed the code under test.
package func sleepOffPool(for duration: Duration) async throws {
    let scheduled = TestEventLoops.servers.next().scheduleTask(in: TimeAmount(duration)) {}
    try await withTaskCancellationHandler {
        try Task.checkCancellation()
        // The timer fails only when cancelled.
        do { try await scheduled.futureResult.get() } catch { throw CancellationError() }
    } onCancel: {
        scheduled.cancel()
    }
}
