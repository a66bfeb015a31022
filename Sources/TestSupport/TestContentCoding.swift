/// An HTTP content coding the test server can apply.
package enum TestContentCoding: String, Sendable, CaseIterable {
    /// `Content-Encoding: gzip` (RFC 1952).
    case gzip
    /// `Content-Encoding: deflate`, i.e. the zlib format (RFC 1950), as HTTP defines it.
    case deflate

    /// Encodes `bytes`.
    package func encode(_ bytes: [UInt8]) -> [UInt8] {
        switch self {
        case .gzip: TestCompression.gzip(bytes)
        case .deflate: TestCompression.zlib(bytes)
        }
    }

    /// Encodes `count` copies of `byte` without allocating them.
    package func encode(repeating byte: UInt8, count: Int) -> [UInt8] {
        switch self {
        case .gzip: TestCompression.gzip(repeating: byte, count: count)
        case .deflate: TestCompression.zlib(repeating: byte, count: count)
        }
    }
}
