/// The deterministic filler used by streamed and truncated bodies: byte `i` is `"a" + i % 26`.
///
/// Printable, so failures read well; position-dependent, so a lost or reordered chunk is detected.
package enum TestPattern {
    /// 512 periods of the pattern: fills copy from it a block at a time instead of byte by byte.
    private static let template: [UInt8] = (0..<(26 * 512)).map { byte(at: $0) }

    /// `count` pattern bytes starting at absolute position `offset` (≥ 0).
    package static func bytes(count: Int, offset: Int = 0) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: max(count, 0)) { buffer, initialized in
            fill(UnsafeMutableRawBufferPointer(buffer), offset: offset)
            initialized = buffer.count
        }
    }

    /// Fills `buffer` with the pattern bytes starting at absolute position `offset` (≥ 0).
    package static func fill(_ buffer: UnsafeMutableRawBufferPointer, offset: Int) {
        template.withUnsafeBytes { source in
            guard let target = buffer.baseAddress, let origin = source.baseAddress else { return }
            var written = 0
            while written < buffer.count {
                let phase = (offset + written) % 26
                let length = min(buffer.count - written, source.count - phase)
                (target + written).copyMemory(from: origin + phase, byteCount: length)
                written += length
            }
        }
    }

    /// The pattern byte at absolute position `index` (≥ 0).
    package static func byte(at index: Int) -> UInt8 {
        UInt8(ascii: "a") &+ UInt8(truncatingIfNeeded: index % 26)
    }
}
