import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes files so a reader (or a crash) sees the old contents or the new, never a mix: the
/// bytes go to a temporary file in the same folder, are flushed to disk, and replace the target
/// with `rename`.
public enum AtomicFile {
    /// Writes `data` to `url` atomically. `beforeRename` runs once the temporary file is complete;
    /// if it throws, the temporary file is removed and the target is left as it was (tests use it
    /// to simulate an interruption).
    public static func write(
        _ data: Data, to url: URL, permissions: mode_t = 0o644, beforeRename: () throws -> Void = {}
    ) throws(InteropError) {
        let temporary = try writeTemporary(data, beside: url, permissions: permissions)
        do {
            try beforeRename()
        } catch {
            unlink(temporary.path)
            throw .file("writing \(url.path) was interrupted: \(error)")
        }
        try commit(temporary, to: url)
    }

    /// Writes `data` to a new temporary file beside `url` and returns it; `commit` moves it in place.
    public static func writeTemporary(_ data: Data, beside url: URL, permissions: mode_t = 0o644) throws(InteropError) -> URL {
        let folder = url.deletingLastPathComponent()
        let template = folder.appendingPathComponent(".\(url.lastPathComponent).XXXXXX").path
        var buffer = Array(template.utf8CString)
        let descriptor = buffer.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw .file("cannot create a temporary file in \(folder.path): \(systemError())")
        }
        let path = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        do throws(InteropError) {
            defer { close(descriptor) }
            fchmod(descriptor, permissions)
            try writeAll(data, to: descriptor, path: path)
            guard fsync(descriptor) == 0 else { throw .file("cannot flush \(path): \(systemError())") }
        } catch {
            unlink(path)
            throw error
        }
        return URL(fileURLWithPath: path)
    }

    /// Moves a temporary file made by `writeTemporary` over `url`.
    public static func commit(_ temporary: URL, to url: URL) throws(InteropError) {
        guard rename(temporary.path, url.path) == 0 else {
            let reason = systemError()
            unlink(temporary.path)
            throw .file("cannot replace \(url.path): \(reason)")
        }
    }

    /// Removes a temporary file that will not be committed.
    public static func discard(_ temporary: URL) {
        unlink(temporary.path)
    }
}

/// Writes every byte of `data` to a file descriptor, retrying after signals.
func writeAll(_ data: Data, to descriptor: Int32, path: String) throws(InteropError) {
    var failure: Int32 = 0
    data.withUnsafeBytes { raw in
        guard let base = raw.baseAddress else { return }
        var offset = 0
        while offset < raw.count {
            let written = write(descriptor, base + offset, raw.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                failure = errno
                return
            }
            offset += written
        }
    }
    if failure != 0 { throw .file("cannot write \(path): \(systemError(failure))") }
}

/// The C library's message for an error number (`errno` by default).
func systemError(_ number: Int32 = errno) -> String {
    guard let message = strerror(number) else { return "error \(number)" }
    return String(cString: message)
}
