import FoundationEssentials
import SystemSupport
import Testing

#if canImport(Glibc)
import Glibc
import TestTraits
#endif

/// The kernel's file notifications, batched.
@Suite(.offPool) struct FileWatcherTests {
    /// The next batch, or nil when none comes within `timeout`.
    static func nextBatch(_ iterator: inout AsyncStream<Set<String>>.Iterator, timeout: Duration = .seconds(5)) async -> Set<String>? {
        let box = IteratorBox(iterator)
        let batch = await withTaskGroup(of: Set<String>?.self) { group in
            group.addTask { await box.next() }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        iterator = box.iterator
        return batch
    }

    /// Whether a batch naming `path` comes within `timeout` (an atomic save may span batches when
    /// flushing the temporary file is slow).
    static func sees(_ path: String, _ iterator: inout AsyncStream<Set<String>>.Iterator, timeout: Duration = .seconds(60)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            guard let batch = await nextBatch(&iterator, timeout: deadline - ContinuousClock.now) else { return false }
            if batch.contains(path) { return true }
        }
        return false
    }

    /// Carries the iterator into a child task and back.
    final class IteratorBox: @unchecked Sendable {
        var iterator: AsyncStream<Set<String>>.Iterator
        init(_ iterator: AsyncStream<Set<String>>.Iterator) { self.iterator = iterator }
        func next() async -> Set<String>? { await iterator.next() }
    }

    @Test func anAtomicSaveIsOneBatchNamingTheFile() async throws {
        let folder = try SystemSupportTests.temporaryFolder()
        defer { _ = try? ChildProcess("/bin/rm", ["-rf", folder], environment: [:]).wait() }
        let watcher = try FileWatcher(directory: folder)
        var changes = watcher.changes.makeAsyncIterator()
        try AtomicFile.write(Data("service: a\n".utf8), to: URL(fileURLWithPath: folder + "/a.yaml"))
        #expect(await Self.sees("a.yaml", &changes))
        watcher.stop()
        // What was queued before the stop may still come (a busy machine can split the temporary
        // file's events from the rename), but never the file again, and then the end.
        var ended = false
        for _ in 0..<8 {
            guard let batch = await Self.nextBatch(&changes, timeout: .seconds(60)) else {
                ended = true
                break
            }
            #expect(!batch.contains("a.yaml"), "the save was reported twice")
        }
        #expect(ended)
    }

    @Test func filesInSubfoldersAndRemovalsAreSeen() async throws {
        let folder = try SystemSupportTests.temporaryFolder()
        defer { _ = try? ChildProcess("/bin/rm", ["-rf", folder], environment: [:]).wait() }
        mkdir(folder + "/fixtures", 0o755)
        let watcher = try FileWatcher(directory: folder)
        defer { watcher.stop() }
        var changes = watcher.changes.makeAsyncIterator()
        try AtomicFile.write(Data("{}".utf8), to: URL(fileURLWithPath: folder + "/fixtures/pets.json"))
        #expect(await Self.sees("fixtures/pets.json", &changes))
        unlink(folder + "/fixtures/pets.json")
        #expect(await Self.sees("fixtures/pets.json", &changes))
        // A folder made after the watch began is watched too.
        mkdir(folder + "/more", 0o755)
        #expect(await Self.sees("more", &changes))
        try AtomicFile.write(Data("x".utf8), to: URL(fileURLWithPath: folder + "/more/b.txt"))
        #expect(await Self.sees("more/b.txt", &changes))
    }

    @Test func aMissingFolderIsAnError() {
        #expect(throws: SystemError.self) { try FileWatcher(directory: "/nonexistent/apiexplorer-watch") }
    }
}
