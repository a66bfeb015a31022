#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FileStatus {
    /// When the entry at `path` (not following a symbolic link) was last modified, in seconds
    /// since 1970, if it is of `type` (`S_IFREG`, `S_IFDIR` …); nil otherwise.
    package static func modified(_ path: String, type: mode_t) -> time_t? {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == type else { return nil }
        #if canImport(Darwin)
        return info.st_mtimespec.tv_sec
        #else
        return info.st_mtim.tv_sec
        #endif
    }
}
