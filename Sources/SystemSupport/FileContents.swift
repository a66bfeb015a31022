import FoundationEssentials

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole files read with `open`, `fstat` and `read`, only when they are regular files and no
/// larger than their limit. Opened with `O_NONBLOCK`, so a FIFO (which blocks in `open` itself)
/// or a device is refused at once instead of hanging the reader; the size is checked before
/// memory is spent, and again as the bytes arrive (a file may grow while it is read).
package enum FileContents {
    /// The bytes of the regular file at `path`, at most `limit` of them; symbolic links are followed
    /// unless `followingLinks` is false (then a link is refused, `O_NOFOLLOW`).
    package static func contents(atPath path: String, limit: Int, followingLinks: Bool = true) throws(FileReadError) -> Data {
        let flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | (followingLinks ? 0 : O_NOFOLLOW)
        let descriptor = open(path, flags)
        guard descriptor >= 0 else {
            let number = errno
            switch number {
            case ENOENT, ENOTDIR: throw .missing(path: path)
            case ELOOP where !followingLinks: throw .symbolicLink(path: path)
            default: throw .unreadable(path: path, reason: SystemError.message(for: number))
            }
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .unreadable(path: path, reason: SystemError.message()) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw .notRegularFile(path: path, kind: FileReadError.kind(of: info.st_mode))
        }
        guard Int(info.st_size) <= limit else { throw .tooLarge(path: path, size: Int(info.st_size), limit: limit) }
        // The size is a hint: a file may grow or shrink while it is read. One byte more, so the
        // end is seen without growing the buffer.
        var data = Data(count: max(Int(info.st_size), 0) + 1)
        var length = 0
        while true {
            if length == data.count { data.count += min(max(4_096, data.count / 2), limit - length) + 1 }
            let capacity = data.count - length
            let count = data.withUnsafeMutableBytes { raw in readBytes(descriptor, raw.baseAddress! + length, capacity) }
            if count > 0 {
                length += count
                if length > limit { throw .tooLarge(path: path, size: length, limit: limit) }
            } else if count == 0 {
                break
            } else if errno != EINTR {
                throw .unreadable(path: path, reason: SystemError.message())
            }
        }
        data.count = length
        return data
    }

    /// `contents(atPath:limit:)`, nil when nothing is at the path (state files not written yet);
    /// every other problem is thrown.
    package static func contentsIfPresent(atPath path: String, limit: Int) throws(FileReadError) -> Data? {
        do throws(FileReadError) {
            return try contents(atPath: path, limit: limit)
        } catch {
            if error.isMissing { return nil }
            throw error
        }
    }

    /// `contents(atPath:limit:)`, nil for every problem (missing, not a regular file, larger than
    /// `limit`, unreadable): for files whose absence and damage mean the same (caches, hints).
    package static func read(atPath path: String, atMost limit: Int, followingLinks: Bool = true) -> Data? {
        try? contents(atPath: path, limit: limit, followingLinks: followingLinks)
    }
}

/// Why a file was not read: each names the file, and a size problem the limit.
package enum FileReadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Nothing at the path.
    case missing(path: String)
    /// A folder, a FIFO, a device or a socket (`kind` says which).
    case notRegularFile(path: String, kind: String)
    /// A symbolic link where none may be followed.
    case symbolicLink(path: String)
    /// Larger than the reader's limit (`size`: what `fstat` said, or what was read so far).
    case tooLarge(path: String, size: Int, limit: Int)
    /// Another failure (permission, I/O), with the C library's message.
    case unreadable(path: String, reason: String)

    /// The file.
    package var path: String {
        switch self {
        case .missing(let path), .notRegularFile(let path, _), .symbolicLink(let path), .tooLarge(let path, _, _), .unreadable(let path, _): path
        }
    }

    /// Whether nothing is at the path (the one problem most readers take as "empty").
    package var isMissing: Bool {
        if case .missing = self { return true }
        return false
    }

    package var description: String {
        switch self {
        case .missing(let path): "\(path) does not exist"
        case .notRegularFile(let path, let kind): "\(path) is not a regular file (it is \(kind)), so it is not read"
        case .symbolicLink(let path): "\(path) is a symbolic link, which is not followed here"
        case .tooLarge(let path, let size, let limit):
            "\(path) holds \(size > limit ? "\(size) bytes, more" : "more") than the \(FileReadError.limitText(limit)) it may hold, so it is not read"
        case .unreadable(let path, let reason): "\(path) cannot be read (\(reason))"
        }
    }

    /// What a mode says a non-regular file is.
    static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: "a folder"
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFCHR, S_IFBLK: "a device"
        case S_IFSOCK: "a socket"
        case S_IFLNK: "a symbolic link"
        default: "not a file"
        }
    }

    /// `65536 bytes (64 KiB)`: exact, with the binary unit when the limit is a whole one.
    package static func limitText(_ limit: Int) -> String {
        let units = [(1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")]
        guard let (size, unit) = units.first(where: { limit >= $0.0 && limit % $0.0 == 0 }) else { return "\(limit) bytes" }
        return "\(limit) bytes (\(limit / size) \(unit))"
    }
}

/// `read(2)`, named apart from `FileContents.read`.
private func readBytes(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
