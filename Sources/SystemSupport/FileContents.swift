import FoundationEssentials

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole files read with `open`, `fstat` and `read`: what `FileManager.contents(atPath:)` does,
/// with a size bound checked before memory is spent.
package enum FileContents {
    /// The bytes of the regular file at `path`; nil when it is missing, not a regular file, or
    /// cannot be read, or holds more than `limit` bytes (checked before memory is spent, and
    /// again as it is read).
    package static func read(atPath path: String, atMost limit: Int = .max) -> Data? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, Int(info.st_size) <= limit else { return nil }
        // The size is a hint: a file may grow or shrink while it is read. One byte more, so the
        // end is seen without growing the buffer.
        var data = Data(count: max(Int(info.st_size), 0) + 1)
        var length = 0
        while true {
            if length == data.count { data.count += max(4_096, data.count / 2) }
            let capacity = data.count - length
            let count = data.withUnsafeMutableBytes { raw in readBytes(descriptor, raw.baseAddress! + length, capacity) }
            if count > 0 {
                length += count
                if length > limit { return nil }
            } else if count == 0 {
                break
            } else if errno != EINTR {
                return nil
            }
        }
        data.count = length
        return data
    }
}

/// `read(2)`, named apart from `FileContents.read`.
private func readBytes(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
