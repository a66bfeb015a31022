import NIOCore
import Testing

@testable import GRPCWire
import TestTraits

/// gRPC's length-prefixed messages: framing, reading them back however the bytes are split, and
/// every way a peer's framing can be wrong.
@Suite(.offPool) struct MessageFramingTests {
    static func framed(_ message: [UInt8], encoding: GRPCMessageEncoding = .identity) -> [UInt8] {
        Array(GRPCMessageFraming.frame(message, encoding: encoding, allocator: ByteBufferAllocator()).readableBytesView)
    }

    @Test func aMessageIsItsFlagItsBigEndianLengthAndItsBytes() {
        #expect(Self.framed([7, 8, 9]) == [0, 0, 0, 0, 3, 7, 8, 9])
        #expect(Self.framed([]) == [0, 0, 0, 0, 0])
    }

    @Test func messagesAreReadWhateverTheDataFramesSplitThem() throws {
        let stream = Self.framed([1, 2, 3]) + Self.framed([]) + Self.framed(Array(repeating: 42, count: 300))
        for split in [1, 2, 4, 5, 6, 7, 13, 400] {
            var reader = GRPCMessageReader(limit: 1 << 20, encodingName: nil, sender: "the server")
            var messages: [[UInt8]] = []
            var offset = 0
            while offset < stream.count {
                reader.append(ByteBuffer(bytes: stream[offset..<min(offset + split, stream.count)]))
                offset += split
                while let message = try reader.next() { messages.append(message) }
            }
            try reader.finish()
            #expect(messages == [[1, 2, 3], [], Array(repeating: 42, count: 300)], "split every \(split) bytes")
            #expect(reader.count == 3)
        }
    }

    @Test func aLengthOverTheLimitIsRefusedAtThePrefixBeforeItsBytesCome() {
        var reader = GRPCMessageReader(limit: 1024, encodingName: nil, sender: "the server")
        // A prefix declaring 3 GiB, and nothing after it: refused now, not after waiting for (or keeping) 3 GiB.
        reader.append(ByteBuffer(bytes: [0, 0xC0, 0, 0, 0]))
        #expect {
            _ = try reader.next()
        } throws: { error in
            let error = error as? GRPCWireError
            return error?.code == .resourceExhausted && error?.message == "The server sent message 1 of 3 GiB, over the receive limit of 1 KiB."
        }
    }

    @Test func aMessageExactlyAtTheLimitIsTaken() throws {
        var reader = GRPCMessageReader(limit: 4, encodingName: nil, sender: "the server")
        reader.append(ByteBuffer(bytes: Self.framed([1, 2, 3, 4])))
        #expect(try reader.next() == [1, 2, 3, 4])
    }

    @Test func aFlagOtherThanZeroOrOneIsNotGRPCFraming() {
        var reader = GRPCMessageReader(limit: 1024, encodingName: nil, sender: "the server")
        reader.append(ByteBuffer(bytes: [2, 0, 0, 0, 1, 9]))
        #expect {
            _ = try reader.next()
        } throws: { error in
            (error as? GRPCWireError)?.code == .internalError && "\(error)".contains("prefix flag 2")
        }
    }

    @Test func aStreamEndingInsideAMessageOrItsPrefixSaysHowMuchCame() throws {
        var reader = GRPCMessageReader(limit: 1024, encodingName: nil, sender: "the server")
        reader.append(ByteBuffer(bytes: [0, 0, 0, 0, 10, 1, 2, 3]))
        #expect(try reader.next() == nil)
        #expect {
            try reader.finish()
        } throws: { error in
            (error as? GRPCWireError)?.message == "The server ended the stream inside message 1: 3 of its 10 bytes came."
        }
        var prefix = GRPCMessageReader(limit: 1024, encodingName: nil, sender: "the client")
        prefix.append(ByteBuffer(bytes: [0, 0]))
        #expect(try prefix.next() == nil)
        #expect {
            try prefix.finish()
        } throws: { error in
            (error as? GRPCWireError)?.message == "The client ended the stream inside the 5-byte prefix of message 1 (2 bytes came)."
        }
    }

    @Test func gzipMessagesAreReadWhenTheStreamSaysGzip() throws {
        let message = Array("a message worth compressing, compressing, compressing".utf8)
        let framed = Self.framed(message, encoding: .gzip)
        #expect(framed[0] == 1)
        #expect(framed.count < message.count + 5 + 30)
        var reader = GRPCMessageReader(limit: 1024, encodingName: "gzip", sender: "the server")
        reader.append(ByteBuffer(bytes: framed))
        #expect(try reader.next() == message)
    }

    @Test func aCompressedMessageNeedsAnEncodingItCanRead() {
        let framed = Self.framed([1, 2, 3], encoding: .gzip)
        var none = GRPCMessageReader(limit: 1024, encodingName: nil, sender: "the server")
        none.append(ByteBuffer(bytes: framed))
        #expect {
            _ = try none.next()
        } throws: { error in
            (error as? GRPCWireError)?.message == "The server marked message 1 compressed but named no grpc-encoding for the stream."
        }
        var snappy = GRPCMessageReader(limit: 1024, encodingName: "snappy", sender: "the server")
        snappy.append(ByteBuffer(bytes: framed))
        #expect {
            _ = try snappy.next()
        } throws: { error in
            (error as? GRPCWireError)?.message
                == "The server compressed message 1 with 'snappy', which apiexplorer cannot read (it reads gzip and identity)."
        }
    }

    @Test func anUnknownEncodingIsHarmlessWhileNoMessageIsCompressed() throws {
        var reader = GRPCMessageReader(limit: 1024, encodingName: "snappy", sender: "the server")
        reader.append(ByteBuffer(bytes: Self.framed([5])))
        #expect(try reader.next() == [5])
    }
}

/// gzip of whole messages, and the limit on what they decompress to.
@Suite(.offPool) struct GzipTests {
    @Test func compressedBytesComeBackTheSame() throws {
        for message in [[], [0], Array(0...255), Array(repeating: UInt8(7), count: 200_000)] as [[UInt8]] {
            #expect(try GRPCGzip.decompress(GRPCGzip.compress(message), limit: 1 << 20) == message)
        }
    }

    @Test func aBombStopsAtTheLimitNotAtItsSize() {
        // 64 MiB of zeros are ~64 KiB of gzip; decompressing stops at 1 MiB.
        let bomb = GRPCGzip.compress(Array(repeating: 0, count: 64 << 20))
        #expect(bomb.count < 100_000)
        #expect {
            _ = try GRPCGzip.decompress(bomb, limit: 1 << 20)
        } throws: { error in
            (error as? GRPCWireError)?.code == .resourceExhausted
                && (error as? GRPCWireError)?.message == "A compressed message decompresses to more than the receive limit of 1 MiB."
        }
    }

    @Test func damagedGzipIsAnErrorNotACrash() {
        let good = GRPCGzip.compress(Array("hello hello hello".utf8))
        let cases: [(String, [UInt8])] = [
            ("not gzip at all", Array("plain text".utf8)),
            ("cut short", Array(good.prefix(good.count - 6))),
            ("garbage after its end", good + [1, 2, 3]),
        ]
        for (what, bytes) in cases {
            #expect(throws: GRPCWireError.self, "\(what)") { _ = try GRPCGzip.decompress(bytes, limit: 1 << 20) }
        }
    }

    @Test func byteCountsReadAsPeopleWriteThem() {
        #expect("\(GRPCByteCount(1))" == "1 byte")
        #expect("\(GRPCByteCount(512))" == "512 bytes")
        #expect("\(GRPCByteCount(1536))" == "1.5 KiB")
        #expect("\(GRPCByteCount(4 << 20))" == "4 MiB")
    }
}
