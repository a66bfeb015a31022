#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `stat` says identifies a regular file's version: its size, its modification time to the
/// nanosecond, its inode and device. Any write, a replacement by rename, or a copy over it
/// changes at least one of them; what a cache of a file's contents is keyed by.
package struct FileIdentity: Sendable, Hashable {
    package var size: Int64
    package var modifiedSeconds: Int64
    package var modifiedNanoseconds: Int64
    package var inode: UInt64
    package var device: UInt64
}

extension FileIdentity {
    /// The identity of the regular file at `path` (symbolic links followed); nil for anything else.
    package init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        size = Int64(info.st_size)
        #if canImport(Darwin)
        modifiedSeconds = Int64(info.st_mtimespec.tv_sec)
        modifiedNanoseconds = Int64(info.st_mtimespec.tv_nsec)
        #else
        modifiedSeconds = Int64(info.st_mtim.tv_sec)
        modifiedNanoseconds = Int64(info.st_mtim.tv_nsec)
        #endif
        inode = UInt64(info.st_ino)
        device = UInt64(info.st_dev)
    }

    /// The running program's own file (Linux: `/proc/self/exe`), nil where it cannot be found:
    /// a different build is a different file.
    package static let currentExecutable: FileIdentity? = FileIdentity(path: "/proc/self/exe")
}
