import Synchronization

/// How far a catalog load has come, and the way to stop it: the loader's threads count the files
/// they read; the explorer shows the count and, when the person quits, stops the load between
/// two files (one file's parse is bounded by its size limit and node budget).
package final class CatalogLoadProgress: Sendable {
    private let filesTotal = Atomic<Int>(0)
    private let filesRead = Atomic<Int>(0)
    private let cancelled = Atomic<Bool>(false)

    /// Makes a progress with nothing read yet.
    package init() {}

    /// The catalog files the load reads (known once the folder is listed; 0 before).
    package var total: Int { filesTotal.load(ordering: .relaxed) }
    /// The catalog files read so far.
    package var read: Int { filesRead.load(ordering: .relaxed) }
    /// Whether the load was asked to stop.
    package var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    /// Asks the load to stop before its next file; what it returns then is incomplete.
    package func cancel() { cancelled.store(true, ordering: .relaxed) }

    func begin(total: Int) { filesTotal.store(total, ordering: .relaxed) }
    func fileRead() { filesRead.add(1, ordering: .relaxed) }
}
