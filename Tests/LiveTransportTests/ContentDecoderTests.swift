import NIOCore
import TestSupport
import Testing

@testable import LiveTransport
import TestTraits

/// The collector's gzip / deflate decoder: bounded pieces, every form servers send, damage named,
/// and a stop when the cap is reached.
@Suite(.offPool) struct ContentDecoderTests {
    static func decodeAll(_ coded: [UInt8], coding: String, split: Int = .max) throws -> (bytes: [UInt8], largestPiece: Int) {
        let decoder = try #require(ContentDecoder(contentEncoding: coding))
        var output: [UInt8] = []
        var largest = 0
        var start = 0
        while start < coded.count {
            let end = min(coded.count, start + split)
            try decoder.decode(ByteBuffer(bytes: coded[start..<end])) { piece in
                output += piece
                largest = max(largest, piece.count)
                return true
            }
            start = end
        }
        return (output, largest)
    }

    @Test func gzipDecodesInBoundedPieces() throws {
        let text = Array((0..<200_000).map { "line \($0)\n" }.joined().utf8)
        for split in [.max, 1_000, 7] {
            let (bytes, largest) = try Self.decodeAll(TestCompression.gzip(text), coding: "gzip", split: split)
            #expect(bytes == text, "split \(split)")
            #expect(largest <= ContentDecoder.pieceSize)
        }
        // A bomb: 1,000× its size, still handed out a piece at a time.
        let (zeros, largest) = try Self.decodeAll(TestCompression.gzip(repeating: 0, count: 8 << 20), coding: "x-gzip")
        #expect(zeros.count == 8 << 20 && largest <= ContentDecoder.pieceSize)
    }

    @Test func deflateIsReadWrappedOrRaw() throws {
        let text = Array(String(repeating: "deflate me ", count: 5_000).utf8)
        #expect(try Self.decodeAll(TestCompression.zlib(text), coding: "deflate").bytes == text)
        #expect(try Self.decodeAll(TestCompression.deflate(text), coding: "Deflate").bytes == text)
    }

    @Test func gzipMembersFollowingEachOtherAreAllDecoded() throws {
        let joined = TestCompression.gzip(Array("first ".utf8)) + TestCompression.gzip(Array("second".utf8))
        #expect(try Self.decodeAll(joined, coding: "gzip").bytes == Array("first second".utf8))
    }

    /// `Content-Encoding: gzip, gzip` (and deflate under gzip): undone last coding first, as curl
    /// does, in bounded pieces, a bomb inside stopping at the first piece when no more is wanted.
    @Test func stackedCodingsAreUndoneInReverse() throws {
        let text = Array((0..<50_000).map { "stacked \($0)\n" }.joined().utf8)
        for split in [.max, 333] {
            #expect(try Self.decodeAll(TestCompression.gzip(TestCompression.gzip(text)), coding: "gzip, gzip", split: split).bytes == text)
            #expect(try Self.decodeAll(TestCompression.gzip(TestCompression.zlib(text)), coding: "deflate, gzip", split: split).bytes == text)
        }
        let (zeros, largest) = try Self.decodeAll(TestCompression.gzip(TestCompression.gzip(repeating: 0, count: 8 << 20)), coding: "gzip,gzip")
        #expect(zeros.count == 8 << 20 && largest <= ContentDecoder.pieceSize)
        let decoder = try #require(ContentDecoder(contentEncoding: "gzip, gzip"))
        var pieces = 0
        try decoder.decode(ByteBuffer(bytes: TestCompression.gzip(TestCompression.gzip(repeating: 0, count: 64 << 20)))) { _ in
            pieces += 1
            return false
        }
        #expect(pieces == 1)
        // More than curl's five codings is not undone.
        #expect(ContentDecoder(contentEncoding: Array(repeating: "gzip", count: 6).joined(separator: ", ")) == nil)
    }

    @Test func otherCodingsAreNotDecoded() {
        #expect(ContentDecoder(contentEncoding: "br") == nil)
        #expect(ContentDecoder(contentEncoding: "gzip, br") == nil)
        #expect(ContentDecoder(contentEncoding: "identity") == nil)
        #expect(ContentDecoder(contentEncoding: "identity, gzip") != nil)
    }

    @Test func damageIsNamed() {
        var coded = TestCompression.gzip(Array(String(repeating: "abc", count: 10_000).utf8))
        coded[coded.count / 2] ^= 0xFF
        coded[coded.count / 2 + 1] ^= 0xFF
        #expect {
            _ = try Self.decodeAll(coded, coding: "gzip")
        } throws: { error in
            (error as? ContentDecoder.Failure)?.message.contains("gzip data is damaged") == true
        }
    }

    @Test func decodingStopsWhenNoMoreIsWanted() throws {
        let decoder = try #require(ContentDecoder(contentEncoding: "gzip"))
        var pieces = 0
        try decoder.decode(ByteBuffer(bytes: TestCompression.gzip(repeating: 0, count: 64 << 20))) { _ in
            pieces += 1
            return false
        }
        #expect(pieces == 1)
    }
}
