import FoundationEssentials

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes files so a reader (or a crash) sees the old contents or the new, never a mix: the
/// bytes go to a temporary file in the same folder (`.NAME.PID.XXXXXX`, PID the writer's), are
/// flushed to disk, and replace the target with `rename`.
package enum AtomicFile {
    /// Writes `data` to `url` atomically. `beforeRename` runs once the temporary file is complete;
    /// if it throws, the temporary file is removed and the target is left as it was (tests use it
    /// to simulate an interruption).
    /// Unless `replacing`, an existing file at `url` stays and the write fails (`EEXIST`).
    /// Unless `durable`, the bytes are not flushed to disk first (caches: a file a crash damaged is
    /// ignored and written again; flushing each of 10,000 would cost seconds).
    package static func write(
        _ data: Data, to url: URL, permissions: mode_t = 0o644, replacing: Bool = true, durable: Bool = true, beforeRename: () throws -> Void = {}
    ) throws(SystemError) {
        let temporary = try writeTemporary(data, beside: url, permissions: permissions, durable: durable)
        do {
            try beforeRename()
        } catch {
            unlink(temporary.path)
            throw SystemError("writing \(url.path) was interrupted (\(error))", number: EINTR)
        }
        try commit(temporary, to: url, replacing: replacing)
    }

    /// Writes `data` to a new temporary file beside `url` and returns it; `commit` moves it in place.
    package static func writeTemporary(_ data: Data, beside url: URL, permissions: mode_t = 0o644, durable: Bool = true) throws(SystemError) -> URL {
        let folder = url.deletingLastPathComponent().path
        let prefix = ".\(url.lastPathComponent).\(getpid())."
        return URL(fileURLWithPath: try TemporaryFile.create(data, in: folder, prefix: prefix, permissions: permissions, durable: durable))
    }

    /// Moves a temporary file made by `writeTemporary` over `url`; unless `replacing`, a file
    /// already at `url` stays and the temporary file is removed (`EEXIST`).
    package static func commit(_ temporary: URL, to url: URL, replacing: Bool = true) throws(SystemError) {
        if !replacing {
            // A hard link is made only where nothing is: no check-then-rename race.
            guard link(temporary.path, url.path) == 0 else {
                let failure = SystemError("cannot write \(url.path)")
                unlink(temporary.path)
                throw failure
            }
            unlink(temporary.path)
            return
        }
        guard rename(temporary.path, url.path) == 0 else {
            let failure = SystemError("cannot replace \(url.path)")
            unlink(temporary.path)
            throw failure
        }
    }

    /// Removes the temporary files `writeTemporary` left beside `url` when a writer was killed
    /// before its rename (`.NAME.PID.XXXXXX` whose process is gone, or any older than `age`: a
    /// younger one may be another writer's, still at work). Returns how many were removed.
    @discardableResult
    package static func removeLeftovers(beside url: URL, olderThan age: Duration = .seconds(60)) -> Int {
        removeLeftovers(in: url.deletingLastPathComponent().path, olderThan: age) { $0 == url.lastPathComponent }
    }

    /// Removes the temporary files writers killed before their rename left in `folder`, whatever
    /// file they were for: `.NAME.PID.XXXXXX` whose process is gone (no other name, so no file of
    /// someone else's is touched). What a start cleans in the state folder and the catalog folder.
    /// Returns how many were removed.
    @discardableResult
    package static func removeLeftovers(inFolder folder: String) -> Int {
        removeLeftovers(in: folder, olderThan: nil) { _ in true }
    }

    private static func removeLeftovers(in folder: String, olderThan age: Duration?, target: (String) -> Bool) -> Int {
        guard let names = try? DirectoryEntries.names(in: folder) else { return 0 }
        let cutoff = age.map { time(nil) - time_t($0.components.seconds) }
        var removed = 0
        for name in names {
            guard let leftover = Leftover(name), leftover.pid != nil || cutoff != nil, target(leftover.target) else { continue }
            let path = folder + "/" + name
            guard let modified = FileStatus.modified(path, type: S_IFREG) else { continue }
            // kill(pid, 0) fails with ESRCH once the process is gone.
            let writerGone = leftover.pid.map { $0 != getpid() && kill($0, 0) != 0 && errno == ESRCH } ?? false
            guard writerGone || cutoff.map({ modified < $0 }) == true else { continue }
            if unlink(path) == 0 { removed += 1 }
        }
        return removed
    }

    /// A temporary file's name, `.NAME.PID.XXXXXX` (or `.NAME.XXXXXX` as earlier versions wrote).
    private struct Leftover {
        var target: String
        var pid: pid_t?

        init?(_ name: String) {
            let bytes = Array(name.utf8)
            guard bytes.count > 8, bytes[0] == UInt8(ascii: "."), let lastDot = bytes.lastIndex(of: UInt8(ascii: ".")),
                bytes.count - lastDot - 1 == 6, lastDot > 1
            else { return nil }
            let head = bytes[1..<lastDot]
            if let dot = head.lastIndex(of: UInt8(ascii: ".")), dot > 1,
                let pid = Int32(String(decoding: bytes[(dot + 1)..<lastDot], as: UTF8.self)), pid > 0
            {
                target = String(decoding: bytes[1..<dot], as: UTF8.self)
                self.pid = pid
            } else {
                target = String(decoding: head, as: UTF8.self)
                pid = nil
            }
        }
    }

    /// Removes a temporary file that will not be committed.
    package static func discard(_ temporary: URL) {
        unlink(temporary.path)
    }

    /// Creates `directory` and its parents when missing, with `permissions` for the ones it makes.
    package static func createDirectory(_ directory: URL, permissions: mode_t = 0o700) throws(SystemError) {
        var path = ""
        for component in directory.path.split(separator: "/", omittingEmptySubsequences: true) {
            path += "/\(component)"
            if mkdir(path, permissions) != 0, errno != EEXIST {
                throw SystemError("cannot create the folder \(path)")
            }
        }
        guard FileStatus.isDirectory(directory.path) else {
            throw SystemError("cannot create the folder \(directory.path)", number: ENOTDIR)
        }
    }
}
