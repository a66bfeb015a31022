/// A small, dependency-free gzip / zlib encoder for test servers.
///
/// Arbitrary data becomes one fixed-Huffman DEFLATE block that compresses only runs of a
/// repeated byte (LZ77 at distance 1): valid `Content-Encoding` bodies for any input. A run of
/// one byte (a compression bomb) becomes one dynamic-Huffman block where each 258-byte match
/// costs 2 bits, DEFLATE's maximum ratio (~1030:1), without materialising the decoded bytes.
/// Any real inflater (zlib, curl's, browsers') decodes both.
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
        var writer = RunBlockWriter(byte: byte)
        writer.run(count: count)
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

/// DEFLATE's bit order: values least-significant bit first, Huffman codes most-significant bit first.
private struct BitWriter {
    private(set) var output: [UInt8] = []
    private var bitBuffer: UInt64 = 0
    private var bitCount = 0

    mutating func writeBits(_ value: UInt32, count: Int) {
        bitBuffer |= UInt64(value) << UInt64(bitCount)
        bitCount += count
        while bitCount >= 8 {
            output.append(UInt8(truncatingIfNeeded: bitBuffer))
            bitBuffer >>= 8
            bitCount -= 8
        }
    }

    /// `count` zero bits, appended a byte at a time: how bombs stay cheap to build.
    mutating func writeZeroBits(_ count: Int) {
        var count = count
        if bitCount > 0 {
            let fill = min(8 - bitCount, count)
            writeBits(0, count: fill)
            count -= fill
        }
        guard count > 0 else { return }
        // An Array of zeros is a memset and its append a memcpy, fast even in debug builds.
        output.append(contentsOf: [UInt8](repeating: 0, count: count / 8))
        writeBits(0, count: count % 8)
    }

    mutating func writeHuffman(_ code: HuffmanCode) {
        var reversed: UInt32 = 0
        for bit in 0..<code.length where code.bits & (1 << UInt32(code.length - 1 - bit)) != 0 {
            reversed |= 1 << UInt32(bit)
        }
        writeBits(reversed, count: code.length)
    }

    mutating func finish() -> [UInt8] {
        if bitCount > 0 { output.append(UInt8(truncatingIfNeeded: bitBuffer)) }
        bitBuffer = 0
        bitCount = 0
        return output
    }
}

/// One code of a canonical Huffman code.
private struct HuffmanCode {
    var bits: UInt32
    var length: Int

    /// The canonical codes for `lengths` (RFC 1951 §3.2.2); a zero length means "symbol unused".
    static func canonical(lengths: [Int]) -> [HuffmanCode] {
        let maxLength = lengths.max() ?? 0
        var lengthCounts = [Int](repeating: 0, count: maxLength + 1)
        for length in lengths where length > 0 { lengthCounts[length] += 1 }
        var nextCode = [UInt32](repeating: 0, count: maxLength + 2)
        var code: UInt32 = 0
        for bits in stride(from: 1, through: maxLength, by: 1) {
            code = (code + UInt32(lengthCounts[bits - 1])) << 1
            nextCode[bits] = code
        }
        return lengths.map { length in
            guard length > 0 else { return HuffmanCode(bits: 0, length: 0) }
            defer { nextCode[length] += 1 }
            return HuffmanCode(bits: nextCode[length], length: length)
        }
    }
}

/// Length symbol, base length and extra-bit count for a match of `length` (3...258), RFC 1951 §3.2.5.
private func lengthSymbol(_ length: Int) -> (symbol: Int, base: Int, extraBits: Int) {
    if length >= 258 { return (285, 258, 0) }
    if length <= 10 { return (257 + length - 3, length, 0) }
    // Symbols 265...284 come in groups of four per extra-bit count 1...5.
    var base = 11
    var symbol = 265
    for extraBits in 1...5 {
        let span = 1 << extraBits
        for _ in 0..<4 {
            if length < base + span { return (symbol, base, extraBits) }
            base += span
            symbol += 1
        }
    }
    return (285, 258, 0)
}

/// Writes a single final DEFLATE block with the fixed Huffman code (RFC 1951 §3.2.6).
private struct FixedHuffmanWriter {
    private static let literalLengthCodes = HuffmanCode.canonical(
        lengths: (0..<288).map { symbol in
            switch symbol {
            case 0...143: 8
            case 144...255: 9
            case 256...279: 7
            default: 8
            }
        }
    )
    /// Distance code 0 (distance 1) in the fixed 5-bit distance code.
    private static let distanceOne = HuffmanCode(bits: 0, length: 5)

    private var writer = BitWriter()

    init() {
        writer.writeBits(1, count: 1)  // BFINAL
        writer.writeBits(1, count: 2)  // BTYPE = 01, fixed Huffman
    }

    /// `count` copies of `byte`: one literal, then matches at distance 1 (3...258 bytes each).
    mutating func run(of byte: UInt8, count: Int) {
        guard count > 0 else { return }
        writer.writeHuffman(Self.literalLengthCodes[Int(byte)])
        var remaining = count - 1
        while remaining >= 3 {
            let length = min(remaining, 258)
            let (symbol, base, extraBits) = lengthSymbol(length)
            writer.writeHuffman(Self.literalLengthCodes[symbol])
            if extraBits > 0 { writer.writeBits(UInt32(length - base), count: extraBits) }
            writer.writeHuffman(Self.distanceOne)
            remaining -= length
        }
        for _ in 0..<remaining { writer.writeHuffman(Self.literalLengthCodes[Int(byte)]) }
    }

    mutating func finish() -> [UInt8] {
        writer.writeHuffman(Self.literalLengthCodes[256])  // end of block
        return writer.finish()
    }
}

/// Writes one final dynamic-Huffman block for a run of a single byte, with the smallest codes
/// DEFLATE allows: match length 258 (symbol 285) is 1 bit, distance 1 is 1 bit, the literal and
/// end-of-block are 2 bits each. The tail shorter than 258 bytes is sent as literals.
private struct RunBlockWriter {
    private let byte: UInt8
    private let literalLength: [HuffmanCode]
    private var writer = BitWriter()

    init(byte: UInt8) {
        self.byte = byte
        var lengths = [Int](repeating: 0, count: 286)
        lengths[Int(byte)] = 2
        lengths[256] = 2
        lengths[285] = 1
        literalLength = HuffmanCode.canonical(lengths: lengths)
        // The code-length alphabet needs 0, 1, 2, 17 and 18: lengths 2,3,2,3,2 form a complete code.
        var codeLengthLengths = [Int](repeating: 0, count: 19)
        (codeLengthLengths[0], codeLengthLengths[1], codeLengthLengths[2]) = (2, 3, 2)
        (codeLengthLengths[17], codeLengthLengths[18]) = (3, 2)
        let codeLengthCodes = HuffmanCode.canonical(lengths: codeLengthLengths)

        writer.writeBits(1, count: 1)  // BFINAL
        writer.writeBits(2, count: 2)  // BTYPE = 10, dynamic Huffman
        writer.writeBits(286 - 257, count: 5)  // HLIT
        writer.writeBits(1 - 1, count: 5)  // HDIST: one distance code
        let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
        let transmitted = (order.lastIndex { codeLengthLengths[$0] > 0 } ?? 0) + 1
        writer.writeBits(UInt32(transmitted - 4), count: 4)  // HCLEN
        for symbol in order.prefix(transmitted) { writer.writeBits(UInt32(codeLengthLengths[symbol]), count: 3) }

        // Literal/length lengths then the single distance length (1), run-length coded.
        var sequence = lengths + [1]
        while !sequence.isEmpty {
            let value = sequence[0]
            let run = sequence.prefix { $0 == value }.count
            if value == 0, run >= 11 {
                let take = min(run, 138)
                writer.writeHuffman(codeLengthCodes[18])
                writer.writeBits(UInt32(take - 11), count: 7)
                sequence.removeFirst(take)
            } else if value == 0, run >= 3 {
                writer.writeHuffman(codeLengthCodes[17])
                writer.writeBits(UInt32(run - 3), count: 3)
                sequence.removeFirst(run)
            } else {
                writer.writeHuffman(codeLengthCodes[value])
                sequence.removeFirst()
            }
        }
    }

    mutating func run(count: Int) {
        guard count > 0 else { return }
        writer.writeHuffman(literalLength[Int(byte)])
        // Symbol 285 is the only 1-bit code, so canonically "0"; the only distance code is "0" too:
        // every 258-byte match is two zero bits.
        assert(literalLength[285].bits == 0 && literalLength[285].length == 1)
        writer.writeZeroBits(2 * ((count - 1) / 258))
        for _ in 0..<((count - 1) % 258) { writer.writeHuffman(literalLength[Int(byte)]) }
    }

    mutating func finish() -> [UInt8] {
        writer.writeHuffman(literalLength[256])
        return writer.finish()
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

    /// The CRC of `count` copies of `byte` in O(log² count), by doubling a block with
    /// `combine`: a gigabyte bomb costs microseconds even in debug builds.
    static func ofRun(_ byte: UInt8, count: Int) -> UInt32 {
        var single = CRC32()
        single.update(CollectionOfOne(byte))
        var (block, blockLength) = (single.value, 1)
        var (result, remaining) = (UInt32(0), count)
        while remaining > 0 {
            if remaining & 1 == 1 { result = combine(result, block, secondLength: blockLength) }
            remaining >>= 1
            if remaining > 0 { (block, blockLength) = (combine(block, block, secondLength: blockLength), blockLength * 2) }
        }
        return result
    }

    /// The CRC of A followed by B from crc(A), crc(B) and B's length, as zlib's `crc32_combine`:
    /// crc(A‖B) = crc(A)·x^(8·len B) mod P ⊕ crc(B), in the reflected bit order.
    static func combine(_ first: UInt32, _ second: UInt32, secondLength: Int) -> UInt32 {
        multiplyModP(xToThe8nModP(secondLength), first) ^ second
    }

    private static let polynomial: UInt32 = 0xEDB8_8320

    /// x^(2^k) mod P for k in 0..<32 (reflected: x^0 is bit 31).
    private static let powersOfX: [UInt32] = {
        var power: UInt32 = 1 << 30  // x^1
        var table = [power]
        for _ in 1..<32 {
            power = multiplyModP(power, power)
            table.append(power)
        }
        return table
    }()

    /// a·b mod P over GF(2), reflected; `a` must be non-zero.
    private static func multiplyModP(_ a: UInt32, _ b: UInt32) -> UInt32 {
        var mask: UInt32 = 1 << 31
        var product: UInt32 = 0
        var b = b
        while true {
            if a & mask != 0 {
                product ^= b
                if a & (mask - 1) == 0 { break }
            }
            mask >>= 1
            b = b & 1 == 1 ? (b >> 1) ^ polynomial : b >> 1
        }
        return product
    }

    /// x^(8·n) mod P.
    private static func xToThe8nModP(_ n: Int) -> UInt32 {
        var power: UInt32 = 1 << 31  // x^0
        var n = n
        var k = 3  // 8·n = n·2^3
        while n != 0 {
            if n & 1 == 1 { power = multiplyModP(powersOfX[k & 31], power) }
            n >>= 1
            k += 1
        }
        return power
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
