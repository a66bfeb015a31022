import FoundationEssentials

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes many files into a folder at once, fast on a real disk: every file goes into a staging
/// folder beside them (`.staging-XXXXXX`) unflushed, one flush (`sync`) makes them all
/// durable, then each top-level part is renamed into place — a new folder (`fixtures/shop/`, with
/// all its files) in one rename — and each folder that received something is flushed once. A
/// crash leaves complete files or none (and a staging folder, which `write` of the next run
/// removes once it is old); never one file half written. A flush per file cost an import of 2,900
/// fixtures seconds on disk.
package enum StagedFolder {
    /// Writes `files` (paths relative to `folder`, `/`-separated, no `..`) into `folder`, creating
    /// it; an existing file is replaced. `order` of the renames: the files' order, folders when
    /// their first file comes (write what others name first).
    package static func write(_ files: [(path: String, data: Data)], into folder: URL, permissions: mode_t = 0o644) throws(SystemError) {
        try AtomicFile.createDirectory(folder, permissions: 0o755)
        removeLeftovers(in: folder.path)
        var template = Array((folder.path + "/.staging-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            return mkdtemp(base) != nil
        }
        guard made else { throw SystemError("cannot create a staging folder in \(folder.path)") }
        let staging = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { removeTree(staging) }
        for file in files {
            guard !file.path.split(separator: "/").contains(where: { $0 == ".." || $0 == "." }), !file.path.hasPrefix("/") else {
                throw SystemError("\(file.path) is not a path inside \(folder.path)", number: EINVAL)
            }
            let target = staging + "/" + file.path
            try AtomicFile.createDirectory(URL(fileURLWithPath: target).deletingLastPathComponent(), permissions: 0o755)
            try writeUnflushed(file.data, to: target, permissions: permissions)
        }
        try flush(staging)
        var touched: Set<String> = []
        var moved: Set<String> = []
        for file in files {
            try move(file.path, from: staging, to: folder.path, moved: &moved, touched: &touched)
        }
        for directory in touched.sorted() { syncDirectory(directory) }
    }

    /// Moves the first part of `path` that does not exist yet at the target (or the file itself) into place.
    private static func move(_ path: String, from staging: String, to folder: String, moved: inout Set<String>, touched: inout Set<String>) throws(SystemError) {
        let parts = path.split(separator: "/").map(String.init)
        var relative = ""
        for (index, part) in parts.enumerated() {
            relative += (relative.isEmpty ? "" : "/") + part
            if moved.contains(relative) { return }
            let target = folder + "/" + relative
            let isLast = index == parts.count - 1
            if isLast || !FileStatus.isDirectory(target) {
                // A file, or a folder the target does not have yet: one rename brings it all.
                guard rename(staging + "/" + relative, target) == 0 else { throw SystemError("cannot move \(relative) into \(folder)") }
                moved.insert(relative)
                touched.insert(URL(fileURLWithPath: target).deletingLastPathComponent().path)
                return
            }
        }
    }

    private static func writeUnflushed(_ data: Data, to path: String, permissions: mode_t) throws(SystemError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
        guard descriptor >= 0 else { throw SystemError("cannot create \(path)") }
        defer { close(descriptor) }
        fchmod(descriptor, permissions)
        try FileDescriptor.writeAll(data, to: descriptor, path: path)
    }

    /// Makes everything written under `path` durable with one flush. `sync` (Glibc's module does
    /// not declare `syncfs`) waits on Linux until the data is written, for every file system: on
    /// a machine that writes elsewhere meanwhile it flushes that too, still one journal commit
    /// instead of one per file.
    private static func flush(_ path: String) throws(SystemError) {
        guard FileStatus.isDirectory(path) else { throw SystemError("cannot flush \(path)", number: ENOTDIR) }
        sync()
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
            for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] { removeTree(path + "/" + name) }
            rmdir(path)
        } else {
            unlink(path)
        }
    }

    /// Staging folders a killed writer left, older than an hour (a younger one may be another writer's).
    private static func removeLeftovers(in folder: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        let cutoff = time(nil) - 3_600
        for name in names where name.hasPrefix(".staging-") && name.utf8.count == ".staging-".utf8.count + 6 {
            let path = folder + "/" + name
            if let modified = FileStatus.modified(path, type: S_IFDIR), modified < cutoff { removeTree(path) }
        }
    }
}
