import FoundationEssentials
import SystemSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The lock a state file is changed under (`flock` on `.NAME.lock` beside it, released by the
/// system when a process dies), so processes sharing the state folder read and write it in turn.
enum StateFileLock {
    /// Runs `body` holding the lock of the file `name` in `directoryPath` (blocking until another
    /// process lets it go).
    static func holding<T>(_ name: String, in directoryPath: String, _ body: () throws(SystemError) -> T) throws(SystemError) -> T {
        let lockPath = URL.joinedFilePath(directoryPath, ".\(name).lock")
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw SystemError("cannot open \(lockPath)") }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw SystemError("cannot lock \(lockPath)") }
        }
        return try body()
    }
}
