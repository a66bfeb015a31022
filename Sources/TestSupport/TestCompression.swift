import CZlib
import Synchronization

/// gzip and zlib bodies for test servers, made by the system's zlib (the inflater the transport
/// uses is zlib's too, so a test proves the decoder, not an encoder of ours).
///
/// A run of one byte (a compression bomb) is fed to zlib a block at a time, so a gigabyte bomb
/// never holds its decoded bytes; zlib's run-length strategy codes each 258-byte match in about
/// 2 bits, DEFLATE's maximum ratio (~1030:1). Long runs compress a few blocks and repeat them
/// (`repeatedRun`): compressing a whole gigabyte held a test thread for a minute on a loaded machine.
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

    /// Each run is built once per process: a test timing the transport must not time the encoder.
    private static let runs = Mutex<[RunKey: [UInt8]]>([:])

    private static func run(_ wrapper: Wrapper, _ byte: UInt8, _ count: Int) -> [UInt8] {
        let key = RunKey(wrapper: wrapper.rawValue, byte: byte, count: count)
        if let kept = runs.withLock({ $0[key] }) { return kept }
        let bytes = count >= 4 * runBlock ? repeatedRun(wrapper, byte, count) : compress(wrapper, runOf: byte, count: count)
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

    private static let runBlock = 8 << 20

    private static func compress(_ wrapper: Wrapper, runOf byte: UInt8, count: Int) -> [UInt8] {
        compress(wrapper) { feed in
            let block = [UInt8](repeating: byte, count: min(count, runBlock))
            var left = count
            repeat {
                let size = min(left, block.count)
                left -= size
                feed(size == block.count ? block : Array(block.prefix(size)), left == 0)
            } while left > 0
        }
    }

    /// A long run without compressing all of it: zlib compresses a few blocks of the run, each
    /// ended by a full flush, which byte-aligns the output and empties the window, so every block
    /// after the first compresses to the same bytes; those are repeated. zlib still makes every
    /// byte of the DEFLATE data; the gzip or zlib wrapper around it is written here (RFC 1952 §2.3,
    /// RFC 1950 §2.2), its checksum joined from one block's with zlib's `*_combine`.
    private static func repeatedRun(_ wrapper: Wrapper, _ byte: UInt8, _ count: Int) -> [UInt8] {
        let block = [UInt8](repeating: byte, count: runBlock)
        let (blocks, rest) = count.quotientAndRemainder(dividingBy: runBlock)
        let deflater = Deflater(.raw)
        let first = deflater.feed(block, Z_FULL_FLUSH)
        let repeated = deflater.feed(block, Z_FULL_FLUSH)
        precondition(deflater.feed(block, Z_FULL_FLUSH) == repeated, "zlib compressed equal blocks differently after a full flush")
        var data = first + repeated + repeated
        data.reserveCapacity(first.count + repeated.count * (blocks - 1) + 64)
        for _ in 3..<blocks { data += repeated }
        data += deflater.feed(Array(block.prefix(rest)), Z_FINISH)

        let length = runBlock
        let blockCRC = block.withUnsafeBufferPointer { crc32(0, $0.baseAddress, UInt32($0.count)) }
        let blockAdler = block.withUnsafeBufferPointer { adler32(1, $0.baseAddress, UInt32($0.count)) }
        var crc: uLong = 0
        var adler: uLong = 1
        for _ in 0..<blocks {
            crc = crc32_combine(crc, blockCRC, length)
            adler = adler32_combine(adler, blockAdler, length)
        }
        let tail = Array(block.prefix(rest))
        crc = crc32_combine(crc, tail.withUnsafeBufferPointer { crc32(0, $0.baseAddress, UInt32($0.count)) }, rest)
        adler = adler32_combine(adler, tail.withUnsafeBufferPointer { adler32(1, $0.baseAddress, UInt32($0.count)) }, rest)

        func littleEndian(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
        switch wrapper {
        case .gzip:
            // ID1 ID2, CM = deflate, no flags, no time, XFL = slowest (level 9), OS = Unix.
            return [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 2, 3] + data + littleEndian(UInt32(truncatingIfNeeded: crc))
                + littleEndian(UInt32(truncatingIfNeeded: count))
        case .zlib:
            // CMF = deflate with a 32 KB window; FLG = level 9, no dictionary, and the check bits.
            return [0x78, 0xDA] + data + littleEndian(UInt32(truncatingIfNeeded: adler)).reversed()
        case .raw:
            return data
        }
    }

    /// Runs zlib's deflate over what `input` feeds it (bytes, and whether they are the last).
    private static func compress(_ wrapper: Wrapper, _ input: (([UInt8], Bool) -> Void) -> Void) -> [UInt8] {
        let deflater = Deflater(wrapper)
        var output: [UInt8] = []
        input { bytes, last in output += deflater.feed(bytes, last ? Z_FINISH : Z_NO_FLUSH) }
        return output
    }

    /// One zlib deflate stream at level 9 with the run-length strategy. zlib keeps a pointer to
    /// its `z_stream`, so the stream lives at a fixed address.
    private final class Deflater {
        private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        private var chunk = [UInt8](repeating: 0, count: 1 << 16)

        init(_ wrapper: Wrapper) {
            stream.initialize(to: z_stream())
            let status = deflateInit2_(
                stream, Z_BEST_COMPRESSION, Z_DEFLATED, wrapper.rawValue, 9, Z_RLE, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
            precondition(status == Z_OK, "deflateInit2 failed: \(status)")
        }

        deinit {
            deflateEnd(stream)
            stream.deallocate()
        }

        /// What zlib writes for `bytes` fed with `flush` (Z_NO_FLUSH, Z_FULL_FLUSH or Z_FINISH).
        func feed(_ bytes: [UInt8], _ flush: Int32) -> [UInt8] {
            var output: [UInt8] = []
            var bytes = bytes
            bytes.withUnsafeMutableBufferPointer { source in
                stream.pointee.next_in = source.baseAddress
                stream.pointee.avail_in = UInt32(source.count)
                var result: Int32
                repeat {
                    result = chunk.withUnsafeMutableBufferPointer { target in
                        stream.pointee.next_out = target.baseAddress
                        stream.pointee.avail_out = UInt32(target.count)
                        return CZlib.deflate(stream, flush)
                    }
                    precondition(result == Z_OK || result == Z_STREAM_END || result == Z_BUF_ERROR, "deflate failed: \(result)")
                    output += chunk[..<(chunk.count - Int(stream.pointee.avail_out))]
                } while stream.pointee.avail_out == 0 || (flush == Z_FINISH && result != Z_STREAM_END)
                stream.pointee.next_in = nil
            }
            return output
        }
    }
}
