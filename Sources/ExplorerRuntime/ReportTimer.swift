import Synchronization

/// How a relay batches what arrives into one report a frame: the first change starts the timer, and
/// everything until it fires goes into the same report.
final class ReportTimer: Sendable {
    /// Least time between two reports.
    static let interval: Duration = .milliseconds(16)

    private let pending = Mutex(false)

    /// Starts the timer unless it is running; `report` runs when it fires.
    func schedule(_ report: @escaping @Sendable () -> Void) {
        let start = pending.withLock { pending in
            defer { pending = true }
            return !pending
        }
        guard start else { return }
        Task {
            try? await Task.sleep(for: Self.interval)
            self.pending.withLock { $0 = false }
            report()
        }
    }

    /// Whether a report is due.
    var isPending: Bool { pending.withLock { $0 } }
}
