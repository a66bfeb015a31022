#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where each line of a text body starts: one `UInt32` per line (bodies are under 4 GiB).
/// A line ends before its `\n` (and a `\r` just before it); a final newline does not start an empty line.
struct TextLineIndex: Sendable {
    var starts: [UInt32] = [0]
    let byteCount: Int

    init(byteCount: Int) { self.byteCount = byteCount }

    var lineCount: Int { starts.count }

    /// Records the line starts found in `range` (called chunk by chunk, in order).
    mutating func scan(_ bytes: UnsafeRawBufferPointer, range: Range<Int>) {
        guard let base = bytes.baseAddress else { return }
        var cursor = range.lowerBound
        while cursor < range.upperBound {
            guard let found = memchr(base + cursor, Int32(Byte.newline), range.upperBound - cursor) else { return }
            let next = base.distance(to: UnsafeRawPointer(found)) + 1
            if next < byteCount { starts.append(UInt32(next)) }
            cursor = next
        }
    }

    /// The bytes of a line, without its line break.
    func range(ofLine line: Int, in bytes: UnsafeRawBufferPointer) -> Range<Int> {
        let start = Int(starts[line])
        var end = line + 1 < starts.count ? Int(starts[line + 1]) - 1 : byteCount
        if line + 1 == starts.count, end > start, bytes[end - 1] == Byte.newline { end -= 1 }
        if end > start, bytes[end - 1] == Byte.carriageReturn { end -= 1 }
        return start..<end
    }

    /// The bytes from a line's start up to the next line's start (line break included).
    func rawRange(ofLine line: Int) -> Range<Int> {
        Int(starts[line])..<(line + 1 < starts.count ? Int(starts[line + 1]) : byteCount)
    }

    /// The line that holds byte `offset`.
    func line(containingOffset offset: Int) -> Int {
        var low = 0
        var high = starts.count
        let target = UInt32(clamping: max(0, offset))
        while low < high {
            let middle = (low + high) / 2
            if starts[middle] <= target { low = middle + 1 } else { high = middle }
        }
        return max(0, low - 1)
    }
}
