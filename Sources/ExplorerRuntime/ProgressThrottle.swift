import Synchronization

/// Lets a build report progress at most once per interval, from whichever thread indexes it.
final class ProgressThrottle: Sendable {
    /// Least time between two progress reports (each report draws a frame).
    static let reportInterval: Duration = .milliseconds(33)

    private let interval: Duration
    private let last = Mutex<ContinuousClock.Instant?>(nil)

    init(interval: Duration) { self.interval = interval }

    func shouldReport() -> Bool {
        let now = ContinuousClock.now
        return last.withLock { last in
            if let previous = last, previous.duration(to: now) < interval { return false }
            last = now
            return true
        }
    }
}
