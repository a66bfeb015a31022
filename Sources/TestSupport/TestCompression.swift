/// A small, dependency-free gzip / zlib encoder for test servers.
///
/// It emits one fixed-Huffman DEFLATE block and compresses only runs of a repeated byte
/// (LZ77 with distance 1). That is enough to produce valid `Content-Encoding` bodies for any
/// data, and compression bombs with ratios near DEFLATE's maximum (~1000:1) without ever
/// materialising the decoded bytes. Any real inflater (zlib, BoringSSL's, curl's) decodes it.
public enum TestCompression {
    /// The gzip member (RFC 1952) for `bytes`.
    public static func gzip(_ bytes: [UInt8]) -> [UInt8] {
        var crc = CRC32()
        crc.update(bytes)
        return gzipMember(deflate: deflate(bytes), crc: crc.value, size: bytes.count)
    }

    /// The zlib stream (RFC 1950; HTTP's `deflate` coding) for `bytes`.
    public static func zlib(_ bytes: [UInt8]) -> [UInt8] {
        var adler = Adler32()
        adler.update(bytes)
        return zlibStream(deflate: deflate(bytes), adler: adler.value)
    }

    /// The gzip member for `count` copies of `byte`, built without allocating `count` bytes.
    public static func gzip(repeating byte: UInt8, count: Int) -> [UInt8] {
        gzipMember(deflate: deflateRun(byte, count: count), crc: CRC32.ofRun(byte, count: count), size: count)
    }

    /// The zlib stream for `count` copies of `byte`, built without allocating `count` bytes.
    public static func zlib(repeating byte: UInt8, count: Int) -> [UInt8] {
        zlibStream(deflate: deflateRun(byte, count: count), adler: Adler32.ofRun(byte, count: count))
    }

    /// The raw DEFLATE (RFC 1951) data for `bytes`.
    public static func deflate(_ bytes: [UInt8]) -> [UInt8] {
        var writer = FixedHuffmanWriter()
        var index = 0
        while index < bytes.count {
            var end = index + 1
            while end < bytes.count, bytes[end] == bytes[index] { end += 1 }
            writer.run(of: bytes[index], count: end - index)
            index = end
        }
        return writer.finish()
    }

    private static func deflateRun(_ byte: UInt8, count: Int) -> [UInt8] {
        var writer = FixedHuffmanWriter()
        writer.run(of: byte, count: count)
        return writer.finish()
    }

    private static func gzipMember(deflate: [UInt8], crc: UInt32, size: Int) -> [UInt8] {
        // ID1 ID2, CM=deflate, no flags, MTIME 0, XFL 0, OS 255 (unknown): byte-for-byte deterministic.
        var out: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]
        out.reserveCapacity(deflate.count + 18)
        out += deflate
        out += littleEndian(crc)
        out += littleEndian(UInt32(truncatingIfNeeded: size))
        return out
    }

    private static func zlibStream(deflate: [UInt8], adler: UInt32) -> [UInt8] {
        // CMF 0x78 (deflate, 32K window), FLG 0x01 so that CMF*256+FLG is a multiple of 31.
        var out: [UInt8] = [0x78, 0x01]
        out.reserveCapacity(deflate.count + 6)
        out += deflate
        out += [UInt8(adler >> 24), UInt8(truncatingIfNeeded: adler >> 16), UInt8(truncatingIfNeeded: adler >> 8), UInt8(truncatingIfNeeded: adler)]
        return out
    }

    private static func littleEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8),
         UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 24)]
    }
}

/// Writes a single final DEFLATE block with the fixed Huffman code (RFC 1951 §3.2.6).
private struct FixedHuffmanWriter {
    private var output: [UInt8] = []
    private var bitBuffer: UInt64 = 0
    private var bitCount = 0

    init() {
        writeBits(1, count: 1)  // BFINAL
        writeBits(1, count: 2)  // BTYPE = 01, fixed Huffman
    }

    /// `count` copies of `byte`: one literal, then matches at distance 1 (3...258 bytes each).
    mutating func run(of byte: UInt8, count: Int) {
        guard count > 0 else { return }
        literal(byte)
        var remaining = count - 1
        while remaining >= 3 {
            let length = min(remaining, 258)
            match(length: length)
            remaining -= length
        }
        for _ in 0..<remaining { literal(byte) }
    }

    mutating func finish() -> [UInt8] {
        symbol(256)  // end of block
        if bitCount > 0 { output.append(UInt8(truncatingIfNeeded: bitBuffer)) }
        bitBuffer = 0
        bitCount = 0
        return output
    }

    private mutating func literal(_ byte: UInt8) { symbol(Int(byte)) }

    private mutating func match(length: Int) {
        let (code, base, extraBits) = Self.lengthCode(length)
        symbol(code)
        if extraBits > 0 { writeBits(UInt32(length - base), count: extraBits) }
        writeHuffman(0, length: 5)  // distance code 0 = distance 1, no extra bits
    }

    /// The fixed literal/length code for `value` (0...287).
    private mutating func symbol(_ value: Int) {
        switch value {
        case 0...143: writeHuffman(UInt32(0x30 + value), length: 8)
        case 144...255: writeHuffman(UInt32(0x190 + value - 144), length: 9)
        case 256...279: writeHuffman(UInt32(value - 256), length: 7)
        default: writeHuffman(UInt32(0xC0 + value - 280), length: 8)
        }
    }

    /// Length symbol, base length and extra-bit count for a match of `length` (3...258).
    private static func lengthCode(_ length: Int) -> (code: Int, base: Int, extraBits: Int) {
        if length == 258 { return (285, 258, 0) }
        if length <= 10 { return (257 + length - 3, length, 0) }
        // Codes 265...284 come in groups of four per extra-bit count 1...5.
        var base = 11
        var code = 265
        for extraBits in 1...5 {
            let span = 1 << extraBits
            for _ in 0..<4 {
                if length < base + span { return (code, base, extraBits) }
                base += span
                code += 1
            }
        }
        return (285, 258, 0)  // unreachable for 3...258
    }

    /// Huffman codes are packed most-significant bit first, so reverse them into the LSB-first stream.
    private mutating func writeHuffman(_ code: UInt32, length: Int) {
        var reversed: UInt32 = 0
        for bit in 0..<length where code & (1 << UInt32(length - 1 - bit)) != 0 {
            reversed |= 1 << UInt32(bit)
        }
        writeBits(reversed, count: length)
    }

    private mutating func writeBits(_ value: UInt32, count: Int) {
        bitBuffer |= UInt64(value) << UInt64(bitCount)
        bitCount += count
        while bitCount >= 8 {
            output.append(UInt8(truncatingIfNeeded: bitBuffer))
            bitBuffer >>= 8
            bitCount -= 8
        }
    }
}

/// CRC-32 (IEEE 802.3, reflected), as gzip requires.
struct CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var crc = UInt32(index)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        return crc
    }

    private var state: UInt32 = 0xFFFF_FFFF

    var value: UInt32 { state ^ 0xFFFF_FFFF }

    mutating func update(_ bytes: some Sequence<UInt8>) {
        Self.table.withUnsafeBufferPointer { table in
            for byte in bytes { state = table[Int((state ^ UInt32(byte)) & 0xFF)] ^ (state >> 8) }
        }
    }

    /// The CRC of `count` copies of `byte`: linear in `count`, but never allocates the run.
    static func ofRun(_ byte: UInt8, count: Int) -> UInt32 {
        var crc = CRC32()
        Self.table.withUnsafeBufferPointer { table in
            var state = crc.state
            for _ in 0..<count { state = table[Int((state ^ UInt32(byte)) & 0xFF)] ^ (state >> 8) }
            crc.state = state
        }
        return crc.value
    }
}

/// Adler-32, as zlib requires.
struct Adler32 {
    private static let modulus: UInt64 = 65521
    private var a: UInt64 = 1
    private var b: UInt64 = 0

    var value: UInt32 { UInt32(b << 16 | a) }

    mutating func update(_ bytes: [UInt8]) {
        for byte in bytes {
            a = (a + UInt64(byte)) % Self.modulus
            b = (b + a) % Self.modulus
        }
    }

    /// Closed form for `count` copies of `byte`: a = 1 + n·x, b = n + x·n(n+1)/2 (mod 65521).
    static func ofRun(_ byte: UInt8, count: Int) -> UInt32 {
        let n = UInt64(count) % modulus
        let x = UInt64(byte)
        let a = (1 + n * x) % modulus
        // n(n+1)/2 mod m, computed on the unreduced count so the halving stays exact.
        let triangle = (UInt64(count) % (2 * modulus)) * ((UInt64(count) + 1) % (2 * modulus)) / 2 % modulus
        let b = (n + x * triangle) % modulus
        var adler = Adler32()
        adler.a = a
        adler.b = b
        return adler.value
    }
}
