import FoundationEssentials

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes files so a reader (or a crash) sees the old contents or the new, never a mix: the
/// bytes go to a temporary file in the same folder (`.NAME.XXXXXX`), are flushed to disk, and
/// replace the target with `rename`.
public enum AtomicFile {
    /// Writes `data` to `url` atomically. `beforeRename` runs once the temporary file is complete;
    /// if it throws, the temporary file is removed and the target is left as it was (tests use it
    /// to simulate an interruption).
    public static func write(
        _ data: Data, to url: URL, permissions: mode_t = 0o644, beforeRename: () throws -> Void = {}
    ) throws(SystemError) {
        let temporary = try writeTemporary(data, beside: url, permissions: permissions)
        do {
            try beforeRename()
        } catch {
            unlink(temporary.path)
            throw SystemError("writing \(url.path) was interrupted (\(error))", number: EINTR)
        }
        try commit(temporary, to: url)
    }

    /// Writes `data` to a new temporary file beside `url` and returns it; `commit` moves it in place.
    public static func writeTemporary(_ data: Data, beside url: URL, permissions: mode_t = 0o644) throws(SystemError) -> URL {
        let folder = url.deletingLastPathComponent().path
        return URL(fileURLWithPath: try TemporaryFile.create(data, in: folder, prefix: ".\(url.lastPathComponent).", permissions: permissions))
    }

    /// Moves a temporary file made by `writeTemporary` over `url`.
    public static func commit(_ temporary: URL, to url: URL) throws(SystemError) {
        guard rename(temporary.path, url.path) == 0 else {
            let failure = SystemError("cannot replace \(url.path)")
            unlink(temporary.path)
            throw failure
        }
    }

    /// Removes the temporary files `writeTemporary` left beside `url` (`.NAME.XXXXXX`) when a writer
    /// was killed before its rename, if they are older than `age` (a younger one may be another
    /// writer's, still at work). Returns how many were removed.
    @discardableResult
    public static func removeLeftovers(beside url: URL, olderThan age: Duration = .seconds(60)) -> Int {
        let folder = url.deletingLastPathComponent().path
        let prefix = ".\(url.lastPathComponent)."
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return 0 }
        let cutoff = time(nil) - time_t(age.components.seconds)
        var removed = 0
        for name in names where name.hasPrefix(prefix) && name.utf8.count == prefix.utf8.count + 6 {
            let path = folder + "/" + name
            guard let modified = FileStatus.modified(path, type: S_IFREG), modified < cutoff else { continue }
            if unlink(path) == 0 { removed += 1 }
        }
        return removed
    }

    /// Removes a temporary file that will not be committed.
    public static func discard(_ temporary: URL) {
        unlink(temporary.path)
    }

    /// Creates `directory` and its parents when missing, with `permissions` for the ones it makes.
    public static func createDirectory(_ directory: URL, permissions: mode_t = 0o700) throws(SystemError) {
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
