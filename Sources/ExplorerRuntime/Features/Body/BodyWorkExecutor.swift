import Dispatch

/// Runs the Body tab's heavy work (formatting, counting, queries) on threads of its own. Swift's
/// cooperative pool has one thread per core: a 100 MB build on it, plus a count, would leave a 2-core
/// machine no thread for the run loop, and the screen would freeze until they finished.
final class BodyWorkExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: the only state is a DispatchQueue, which is thread-safe.
    private let queue = DispatchQueue(label: "apiexplorer.body-work", qos: .userInitiated, attributes: .concurrent)

    static let shared = BodyWorkExecutor()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
