import DispatcherCore
import FoundationEssentials
import NIOCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a downloaded body to `destination.partialPath` as it arrives, then moves it into place.
/// Writes happen on the event loop with plain `write(2)` into the page cache: a local disk keeps up
/// with the network, and no chunk waits in memory. Unchecked: AsyncHTTPClient calls a delegate in
/// order on one event loop, so one writer is never used by two threads at once.
final class DownloadWriter: @unchecked Sendable {
    let destination: DownloadDestination
    /// Bytes already in the partial file when this attempt began (asked for with `Range`).
    let resumedFrom: Int
    private(set) var written = 0
    private var descriptor: Int32

    /// Opens the partial file: appended to when the server continues at `resumedFrom` (206), made
    /// empty otherwise. Fails when the free space cannot hold `expected` more bytes.
    init(destination: DownloadDestination, continuing: Bool, resumedFrom: Int, expected: Int?) throws(TransportError) {
        self.destination = destination
        self.resumedFrom = continuing ? resumedFrom : 0
        let path = destination.partialPath
        if let expected, let free = Self.freeBytes(near: path), free < Int64(expected) {
            throw TransportError(
                .resourceUnavailable,
                message: "Not enough free disk space for the download: it needs \(ByteCount.format(expected)), "
                    + "\(ByteCount.format(Int(free))) are free where \(destination.path) goes.")
        }
        // Never through a link someone left in the folder.
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | (continuing ? O_APPEND : O_TRUNC)
        descriptor = open(path, flags, 0o644)
        guard descriptor >= 0 else {
            throw TransportError(.resourceUnavailable, message: "Cannot write the download to \(path): \(Self.reason(errno)).")
        }
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Appends a part of the body.
    func write(_ buffer: ByteBuffer) throws(TransportError) {
        let fd = descriptor
        let failure: Int32? = buffer.withUnsafeReadableBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let count = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += count
            }
            return nil
        }
        if let failure {
            throw TransportError(
                .resourceUnavailable, message: "Writing the download to \(destination.partialPath) failed: \(Self.reason(failure)).")
        }
        written += buffer.readableBytes
    }

    /// Closes the file and moves it into place; returns what was downloaded.
    func finish() throws(TransportError) -> DownloadedFile {
        let fd = descriptor
        descriptor = -1
        let closed = close(fd)
        guard closed == 0, Self.moveIntoPlace(destination) else {
            let reason = errno == EEXIST ? "it exists, and a download replaces a file only when asked to (--force)" : Self.reason(errno)
            throw TransportError(
                .resourceUnavailable, message: "The download could not be moved to \(destination.path): \(reason); it is in \(destination.partialPath).")
        }
        return DownloadedFile(path: destination.path, byteCount: resumedFrom + written, resumedFrom: resumedFrom)
    }

    /// Moves the complete partial file to its place; unless the destination replaces, a file there
    /// stays (a hard link fails on it, atomically; where links cannot be made, a check then a rename).
    static func moveIntoPlace(_ destination: DownloadDestination) -> Bool {
        if destination.replaces { return rename(destination.partialPath, destination.path) == 0 }
        if link(destination.partialPath, destination.path) == 0 {
            unlink(destination.partialPath)
            return true
        }
        guard errno != EEXIST else { return false }
        var info = stat()
        if lstat(destination.path, &info) == 0 {
            errno = EEXIST
            return false
        }
        return rename(destination.partialPath, destination.path) == 0
    }

    /// The size of a partial file an earlier attempt left, if any.
    static func partialSize(of destination: DownloadDestination) -> Int? {
        var info = stat()
        guard stat(destination.partialPath, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0 else { return nil }
        return Int(info.st_size)
    }

    /// Whether `Content-Range: bytes START-END/TOTAL` starts where the partial file ends.
    static func continues(at offset: Int, contentRange: String?) -> Bool {
        guard let contentRange, contentRange.hasPrefix("bytes ") else { return false }
        let range = contentRange.dropFirst(6).prefix { $0 != "/" }
        return Int(range.prefix { $0 != "-" }) == offset
    }

    private static func freeBytes(near path: String) -> Int64? {
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        var info = statvfs()
        guard statvfs(directory.isEmpty ? "/" : directory, &info) == 0 else { return nil }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }

    private static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }
}
