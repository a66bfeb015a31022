import CZlib
import Synchronization

/// gzip and zlib bodies for test servers, made by the system's zlib (the inflater the transport
/// uses is zlib's too, so a test proves the decoder, not an encoder of ours).
///
/// A run of one byte (a compression bomb) is fed to zlib a block at a time, so a gigabyte bomb
/// never holds its decoded bytes; zlib's run-length strategy codes each 258-byte match in about
/// 2 bits, DEFLATE's maximum ratio (~1030:1).
package enum TestCompression {
    /// The gzip member (RFC 1952) for `bytes`.
    package static func gzip(_ bytes: [UInt8]) -> [UInt8] {
        compress(.gzip) { feed in feed(bytes, true) }
    }

    /// The zlib stream (RFC 1950; HTTP's `deflate` coding) for `bytes`.
    package static func zlib(_ bytes: [UInt8]) -> [UInt8] {
        compress(.zlib) { feed in feed(bytes, true) }
    }

    /// The gzip member for `count` copies of `byte`, built without allocating `count` bytes.
    package static func gzip(repeating byte: UInt8, count: Int) -> [UInt8] {
        run(.gzip, byte, count)
    }

    /// The zlib stream for `count` copies of `byte`, built without allocating `count` bytes.
    package static func zlib(repeating byte: UInt8, count: Int) -> [UInt8] {
        run(.zlib, byte, count)
    }

    private struct RunKey: Hashable {
        let wrapper: Int32
        let byte: UInt8
        let count: Int
    }

    /// Compressing a gigabyte run takes seconds (many more on a loaded machine), so each run is
    /// compressed once per process: a test timing the transport must not time the encoder.
    private static let runs = Mutex<[RunKey: [UInt8]]>([:])

    private static func run(_ wrapper: Wrapper, _ byte: UInt8, _ count: Int) -> [UInt8] {
        let key = RunKey(wrapper: wrapper.rawValue, byte: byte, count: count)
        if let kept = runs.withLock({ $0[key] }) { return kept }
        let bytes = compress(wrapper) { feed in feedRun(byte, count: count, to: feed) }
        runs.withLock { $0[key] = bytes }
        return bytes
    }

    /// The raw DEFLATE (RFC 1951) data for `bytes`.
    package static func deflate(_ bytes: [UInt8]) -> [UInt8] {
        compress(.raw) { feed in feed(bytes, true) }
    }

    /// zlib's `windowBits` picks the wrapper: 31 gzip, 15 zlib, -15 none.
    private enum Wrapper: Int32 {
        case gzip = 31
        case zlib = 15
        case raw = -15
    }

    /// A block of the run at a time; the last call finishes the stream.
    private static func feedRun(_ byte: UInt8, count: Int, to feed: ([UInt8], Bool) -> Void) {
        let block = [UInt8](repeating: byte, count: min(count, 1 << 20))
        var left = count
        repeat {
            let size = min(left, block.count)
            left -= size
            feed(size == block.count ? block : Array(block.prefix(size)), left == 0)
        } while left > 0
    }

    /// Runs zlib's deflate over what `input` feeds it (bytes, and whether they are the last).
    private static func compress(_ wrapper: Wrapper, _ input: (([UInt8], Bool) -> Void) -> Void) -> [UInt8] {
        var stream = z_stream()
        let status = deflateInit2_(
            &stream, Z_BEST_COMPRESSION, Z_DEFLATED, wrapper.rawValue, 9, Z_RLE, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        precondition(status == Z_OK, "deflateInit2 failed: \(status)")
        defer { deflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        input { bytes, last in
            var bytes = bytes
            bytes.withUnsafeMutableBufferPointer { source in
                stream.next_in = source.baseAddress
                stream.avail_in = UInt32(source.count)
                var result: Int32
                repeat {
                    result = chunk.withUnsafeMutableBufferPointer { target in
                        stream.next_out = target.baseAddress
                        stream.avail_out = UInt32(target.count)
                        return CZlib.deflate(&stream, last ? Z_FINISH : Z_NO_FLUSH)
                    }
                    precondition(result == Z_OK || result == Z_STREAM_END || result == Z_BUF_ERROR, "deflate failed: \(result)")
                    output += chunk[..<(chunk.count - Int(stream.avail_out))]
                } while stream.avail_out == 0 || (last && result != Z_STREAM_END)
                stream.next_in = nil
            }
        }
        return output
    }
}
