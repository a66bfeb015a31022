import FoundationEssentials
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes many files into a folder at once: every file goes into a staging folder beside them
/// (`.staging-XXXXXX`), each folder made once; the files are flushed (`fsync`, many at a time) and
/// their folders after them, so nothing is visible before it is durable; then each top-level part is renamed
/// into place — a new folder (`fixtures/shop/`, with all its files) in one rename — and each
/// folder that received something is flushed once. A crash leaves complete files or none, never
/// one half written. The staging folder is locked (`flock`) while its writer lives: one whose
/// writer was killed is removed by the next write into the folder, one still being written never.
package enum StagedFolder {
    /// The file in a staging folder that says its writer locked it (a folder without one may be
    /// a writer's that has not locked it yet).
    package static let ownerFile = ".writer"
    /// How many files are flushed together (each keeps a descriptor open until then).
    static let flushBatch = 256
    /// How many threads flush a batch at once: the file system commits their flushes together
    /// (one after the other, each waits for its own journal commit and disk cache flush).
    static let flushThreads = 32

    /// Writes `files` (paths relative to `folder`, `/`-separated, no `..`) into `folder`, creating
    /// it; an existing file is replaced. Files get `permissions`, or their own from `modes` (by
    /// path). Renames follow the files' order, a folder when its first file comes (write what
    /// others name first).
    package static func write(
        _ files: [(path: String, data: Data)], into folder: URL, permissions: mode_t = 0o644, modes: [String: UInt16] = [:]
    ) throws(SystemError) {
        try AtomicFile.createDirectory(folder, permissions: 0o755)
        for file in files where file.path.hasPrefix("/") || file.path.split(separator: "/", omittingEmptySubsequences: false).contains(where: { $0 == ".." || $0 == "." || $0.isEmpty }) {
            throw SystemError("\(file.path) is not a path inside \(folder.path)", number: EINVAL)
        }
        removeStale(in: folder.path)
        let (staging, lock) = try makeStaging(in: folder.path)
        defer {
            removeTree(staging)
            close(lock)
        }
        var folders: [String] = [staging]
        var made: Set<String> = []
        var pending: [(descriptor: Int32, path: String)] = []
        func flushPending() throws(SystemError) {
            defer {
                for entry in pending { close(entry.descriptor) }
                pending.removeAll(keepingCapacity: true)
            }
            let failed = flushAll(pending.map(\.descriptor))
            if let index = failed { throw SystemError("cannot flush \(pending[index].path)") }
        }
        for file in files {
            let parts = file.path.split(separator: "/")
            var relative = ""
            for part in parts.dropLast() {
                relative += (relative.isEmpty ? "" : "/") + part
                guard made.insert(relative).inserted else { continue }
                guard mkdir(staging + "/" + relative, 0o755) == 0 else { throw SystemError("cannot create the folder \(staging)/\(relative)") }
                folders.append(staging + "/" + relative)
            }
            let target = staging + "/" + file.path
            let mode = modes[file.path].map { mode_t($0) } ?? permissions
            let descriptor = open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
            guard descriptor >= 0 else { throw SystemError("cannot create \(target)") }
            pending.append((descriptor, target))
            // The mode asked for, whatever the umask.
            fchmod(descriptor, mode)
            try FileDescriptor.writeAll(file.data, to: descriptor, path: target)
            if pending.count >= flushBatch { try flushPending() }
        }
        try flushPending()
        for path in folders.reversed() { syncDirectory(path) }
        var touched: Set<String> = []
        var moved: Set<String> = []
        var existing: [String: Bool] = [:]
        for file in files {
            try move(file.path, from: staging, to: folder.path, moved: &moved, touched: &touched, existing: &existing)
        }
        for directory in touched.sorted() { syncDirectory(directory) }
    }

    /// `fsync`s every descriptor, `flushThreads` at a time on threads of their own (figures:
    /// docs/performance.md); the index of one that failed, if any.
    static func flushAll(_ descriptors: [Int32]) -> Int? {
        guard descriptors.count > 1 else { return descriptors.first.flatMap { fsync($0) == 0 ? nil : 0 } }
        let job = FlushJob(descriptors, threads: min(flushThreads, descriptors.count))
        var threads: [pthread_t] = []
        for _ in 0..<job.threads {
            let argument = Unmanaged.passRetained(job).toOpaque()
            var thread = pthread_t()
            if pthread_create(&thread, nil, { argument in
                guard let argument else { return nil }
                Unmanaged<FlushJob>.fromOpaque(argument).takeRetainedValue().run()
                return nil
            }, argument) == 0 {
                threads.append(thread)
            } else {
                // No thread: this one flushes that share itself.
                Unmanaged<FlushJob>.fromOpaque(argument).takeRetainedValue().run()
            }
        }
        for thread in threads { pthread_join(thread, nil) }
        return job.statuses.firstIndex { $0 != 0 }
    }

    /// The descriptors and their flush results. Each thread takes a share (every `threads`th
    /// descriptor from the next free start) and writes only its own results, read after every
    /// thread has been joined.
    private final class FlushJob: @unchecked Sendable {
        let descriptors: [Int32]
        let threads: Int
        let statuses: UnsafeMutableBufferPointer<Int32>
        private let starts = Atomic<Int>(0)

        init(_ descriptors: [Int32], threads: Int) {
            self.descriptors = descriptors
            self.threads = threads
            statuses = .allocate(capacity: descriptors.count)
            statuses.initialize(repeating: 0)
        }

        deinit { statuses.deallocate() }

        func run() {
            let start = starts.wrappingAdd(1, ordering: .relaxed).oldValue
            for index in stride(from: start, to: descriptors.count, by: threads) {
                statuses[index] = fsync(descriptors[index]) == 0 ? 0 : 1
            }
        }
    }

    /// A new staging folder in `folder`, locked for as long as this process holds the descriptor.
    private static func makeStaging(in folder: String) throws(SystemError) -> (path: String, lock: Int32) {
        var template = Array((folder + "/.staging-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            return mkdtemp(base) != nil
        }
        guard made else { throw SystemError("cannot create a staging folder in \(folder)") }
        let staging = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let lock = open(staging, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard lock >= 0 else {
            removeTree(staging)
            throw SystemError("cannot open the staging folder \(staging)")
        }
        // A cleaner may hold the lock for a moment (it finds no owner file and leaves it).
        while flock(lock, LOCK_EX) != 0 {
            guard errno == EINTR else { break }
        }
        let owner = open(staging + "/" + ownerFile, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if owner >= 0 { close(owner) }
        return (staging, lock)
    }

    /// Moves the first part of `path` that does not exist yet at the target (or the file itself) into place.
    private static func move(
        _ path: String, from staging: String, to folder: String, moved: inout Set<String>, touched: inout Set<String>, existing: inout [String: Bool]
    ) throws(SystemError) {
        let parts = path.split(separator: "/").map(String.init)
        var relative = ""
        for (index, part) in parts.enumerated() {
            relative += (relative.isEmpty ? "" : "/") + part
            if moved.contains(relative) { return }
            let target = folder + "/" + relative
            let isLast = index == parts.count - 1
            let isFolder = isLast ? false : existing[relative] ?? FileStatus.isDirectory(target)
            if !isLast { existing[relative] = isFolder }
            if isLast || !isFolder {
                // A file, or a folder the target does not have yet: one rename brings it all.
                guard rename(staging + "/" + relative, target) == 0 else { throw SystemError("cannot move \(relative) into \(folder)") }
                moved.insert(relative)
                touched.insert(URL(fileURLWithPath: target).deletingLastPathComponent().path)
                return
            }
        }
    }

    private static func syncDirectory(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    /// Removes a staging folder (what was not moved out of it).
    static func removeTree(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        if info.st_mode & S_IFMT == S_IFDIR {
            for name in (try? DirectoryEntries.names(in: path)) ?? [] { removeTree(path + "/" + name) }
            rmdir(path)
        } else {
            unlink(path)
        }
    }

    /// Staging folders whose writer is gone (killed, or the machine stopped): their lock is free
    /// and their owner file says a writer had locked them. One without an owner file is left
    /// alone unless it is over an hour old (a writer between making and locking it, or an
    /// earlier version's).
    package static func removeStale(in folder: String) {
        guard let names = try? DirectoryEntries.names(in: folder) else { return }
        let cutoff = time(nil) - 3_600
        for name in names where name.hasPrefix(".staging-") && name.utf8.count == ".staging-".utf8.count + 6 {
            let path = folder + "/" + name
            let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            defer { close(descriptor) }
            // Held by a live writer: not ours to touch.
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { continue }
            let abandoned = FileStatus.exists(path + "/" + ownerFile) || (FileStatus.modified(path, type: S_IFDIR).map { $0 < cutoff } ?? false)
            if abandoned { removeTree(path) }
            flock(descriptor, LOCK_UN)
        }
    }
}
