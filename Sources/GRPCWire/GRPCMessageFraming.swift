import NIOCore

/// gRPC's length-prefixed messages: a flag byte (1: compressed), a 4-byte big-endian length,
/// then the message's bytes.
package enum GRPCMessageFraming {
    /// The prefix's size.
    package static let prefixSize = 5

    /// gRPC's usual receive limit per message (4 MiB), which grpcurl and the official clients use.
    package static let defaultReceiveLimit = 4 << 20

    /// The message with its prefix, compressed when `encoding` is gzip.
    package static func frame(_ message: [UInt8], encoding: GRPCMessageEncoding, allocator: ByteBufferAllocator) -> ByteBuffer {
        let payload = encoding == .gzip ? GRPCGzip.compress(message) : message
        var buffer = allocator.buffer(capacity: prefixSize + payload.count)
        buffer.writeInteger(UInt8(encoding == .gzip ? 1 : 0))
        buffer.writeInteger(UInt32(payload.count))
        buffer.writeBytes(payload)
        return buffer
    }
}

/// Reads messages out of a stream's DATA as it arrives. A declared length over the limit is
/// refused at the prefix, before its bytes are kept; at most one message (up to the limit) is held.
package struct GRPCMessageReader: Sendable {
    /// The largest message taken (after decompression).
    package let limit: Int
    /// The stream's `grpc-encoding`, as the peer named it (nil: none, which means identity).
    package let encodingName: String?
    /// Who sends the messages, for errors: `the server`, `the client`.
    package let sender: String
    private var buffer = ByteBuffer()
    private var pending: (compressed: Bool, length: Int)?
    /// Messages read so far.
    package private(set) var count = 0

    package init(limit: Int, encodingName: String?, sender: String) {
        self.limit = limit
        let name = encodingName?.lowercased()
        self.encodingName = name == "identity" ? nil : name
        self.sender = sender
    }

    /// Takes bytes of the stream.
    package mutating func append(_ bytes: ByteBuffer) {
        var bytes = bytes
        buffer.writeBuffer(&bytes)
    }

    /// The next whole message, or nil until more bytes come.
    package mutating func next() throws(GRPCWireError) -> [UInt8]? {
        if pending == nil {
            guard buffer.readableBytes >= GRPCMessageFraming.prefixSize,
                let flag = buffer.readInteger(as: UInt8.self), let length = buffer.readInteger(as: UInt32.self)
            else { return nil }
            guard flag <= 1 else {
                throw GRPCWireError(
                    .internalError,
                    "\(sender.capitalizedFirst) sent message \(count + 1) with the prefix flag \(flag), which gRPC does not define (0 or 1): the bytes are not gRPC framing.")
            }
            guard Int(length) <= limit else {
                throw GRPCWireError(
                    .resourceExhausted,
                    "\(sender.capitalizedFirst) sent message \(count + 1) of \(GRPCByteCount(Int(length))), over the receive limit of \(GRPCByteCount(limit)).")
            }
            pending = (flag == 1, Int(length))
            buffer.discardReadBytes()
        }
        guard let (compressed, length) = pending, buffer.readableBytes >= length, let bytes = buffer.readBytes(length: length) else { return nil }
        pending = nil
        count += 1
        guard compressed else { return bytes }
        switch encodingName {
        case nil:
            throw GRPCWireError(
                .internalError, "\(sender.capitalizedFirst) marked message \(count) compressed but named no grpc-encoding for the stream.")
        case "gzip":
            return try GRPCGzip.decompress(bytes, limit: limit)
        case let name?:
            throw GRPCWireError(
                .internalError,
                "\(sender.capitalizedFirst) compressed message \(count) with '\(name)', which apiexplorer cannot read (it reads gzip and identity).")
        }
    }

    /// Checks that the stream did not end inside a message.
    package func finish() throws(GRPCWireError) {
        if let pending {
            throw GRPCWireError(
                .internalError,
                "\(sender.capitalizedFirst) ended the stream inside message \(count + 1): \(buffer.readableBytes) of its \(pending.length) bytes came.")
        }
        if buffer.readableBytes > 0 {
            throw GRPCWireError(
                .internalError,
                "\(sender.capitalizedFirst) ended the stream inside the 5-byte prefix of message \(count + 1) (\(buffer.readableBytes) bytes came).")
        }
    }
}

extension String {
    /// The text with its first letter upper-cased: `the server` → `The server`.
    var capitalizedFirst: String {
        guard let first else { return self }
        return first.uppercased() + dropFirst()
    }
}
