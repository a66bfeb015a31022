#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What is at a path, as `stat` says (following symbolic links).
package enum FileStatus: Sendable, Hashable {
    /// Nothing (or nothing this process may look at).
    case missing
    /// A regular file of `size` bytes.
    case file(size: Int)
    /// A folder.
    case directory
    /// Something else: a device, a pipe, a socket.
    case other

    /// The status of `path`.
    package init(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            self = .missing
            return
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: self = .file(size: Int(info.st_size))
        case S_IFDIR: self = .directory
        default: self = .other
        }
    }

    /// Whether `path` is a folder.
    package static func isDirectory(_ path: String) -> Bool { FileStatus(path: path) == .directory }

    /// Whether anything is at `path`.
    package static func exists(_ path: String) -> Bool { FileStatus(path: path) != .missing }

    /// Whether `path` is a file this process may execute.
    package static func isExecutable(_ path: String) -> Bool {
        guard case .file = FileStatus(path: path) else { return false }
        return access(path, X_OK) == 0
    }
}

extension FileStatus {
    /// The permission bits of what is at `path` (`0o644`), nil when nothing is there.
    package static func permissions(_ path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & 0o7777
    }
}
