import CZlib

/// How a stream's messages are compressed (`grpc-encoding`): the two every gRPC implementation
/// reads. `deflate` and `snappy` exist too; a stream naming them is refused when a message is
/// actually compressed.
package enum GRPCMessageEncoding: String, Sendable, Hashable, CaseIterable {
    case identity
    case gzip

    /// What the transports accept, for `grpc-accept-encoding`.
    package static let acceptHeader = "identity,gzip"

    /// The encoding a `grpc-encoding` value names; nil for one not supported.
    package init?(header: String) {
        self.init(rawValue: header.lowercased())
    }
}

/// gzip (RFC 1952) for whole messages, over zlib.
package enum GRPCGzip {
    /// The bytes compressed as one gzip member.
    package static func compress(_ bytes: [UInt8]) -> [UInt8] {
        var stream = z_stream()
        // windowBits 31: a gzip header and trailer around the deflate data.
        guard deflateInit2_(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { preconditionFailure("zlib could not start a deflate stream") }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))) + 32)
        var input = bytes
        let written = input.withUnsafeMutableBufferPointer { inputBuffer in
            output.withUnsafeMutableBufferPointer { outputBuffer in
                stream.next_in = inputBuffer.baseAddress
                stream.avail_in = uInt(inputBuffer.count)
                stream.next_out = outputBuffer.baseAddress
                stream.avail_out = uInt(outputBuffer.count)
                let status = deflate(&stream, Z_FINISH)
                precondition(status == Z_STREAM_END, "deflateBound leaves room for the whole output")
                return outputBuffer.count - Int(stream.avail_out)
            }
        }
        output.removeSubrange(written...)
        return output
    }

    /// One gzip member decompressed, refusing to produce more than `limit` bytes: a gzip bomb costs
    /// the limit, never the whole of its output.
    package static func decompress(_ bytes: [UInt8], limit: Int) throws(GRPCWireError) -> [UInt8] {
        var stream = z_stream()
        guard inflateInit2_(&stream, 31, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw GRPCWireError(.internalError, "zlib could not start an inflate stream")
        }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        let piece = 64 << 10
        var chunk = [UInt8](repeating: 0, count: piece)
        var input = bytes
        var status: Int32 = Z_OK
        var consumed = 0
        while status != Z_STREAM_END {
            let (produced, result, used) = input.withUnsafeMutableBufferPointer { inputBuffer in
                chunk.withUnsafeMutableBufferPointer { chunkBuffer in
                    stream.next_in = inputBuffer.baseAddress.map { $0 + consumed }
                    stream.avail_in = uInt(inputBuffer.count - consumed)
                    stream.next_out = chunkBuffer.baseAddress
                    stream.avail_out = uInt(piece)
                    let result = inflate(&stream, Z_NO_FLUSH)
                    return (piece - Int(stream.avail_out), result, inputBuffer.count - consumed - Int(stream.avail_in))
                }
            }
            consumed += used
            status = result
            guard status == Z_OK || status == Z_STREAM_END else {
                let reason =
                    switch status {
                    case Z_DATA_ERROR: "the data is not valid gzip"
                    case Z_BUF_ERROR: "the gzip data ends early"
                    default: "zlib error \(status)"
                    }
                throw GRPCWireError(.internalError, "A compressed message could not be decompressed: \(reason).")
            }
            guard output.count + produced <= limit else {
                throw GRPCWireError(
                    .resourceExhausted, "A compressed message decompresses to more than the receive limit of \(GRPCByteCount(limit)).")
            }
            output.append(contentsOf: chunk[0..<produced])
            if status == Z_OK, produced == 0, consumed == input.count {
                throw GRPCWireError(.internalError, "A compressed message could not be decompressed: the gzip data ends early.")
            }
        }
        if consumed != input.count {
            throw GRPCWireError(.internalError, "A compressed message has \(input.count - consumed) bytes after its gzip data.")
        }
        return output
    }
}

/// A byte count for people: `512 bytes`, `4 MiB`, `1.5 KiB`.
package struct GRPCByteCount: CustomStringConvertible, Sendable {
    package var bytes: Int

    package init(_ bytes: Int) { self.bytes = bytes }

    package var description: String {
        let units = [(1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")]
        for (size, unit) in units where bytes >= size {
            let whole = bytes / size
            let tenth = (bytes % size) * 10 / size
            return tenth == 0 ? "\(whole) \(unit)" : "\(whole).\(tenth) \(unit)"
        }
        return bytes == 1 ? "1 byte" : "\(bytes) bytes"
    }
}
