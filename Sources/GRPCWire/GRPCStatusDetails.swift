import GRPCCore
import GRPCProtobuf
import SwiftProtobuf

/// `grpc-status-details-bin`: a serialized `google.rpc.Status` whose `details` are `Any`s.
/// Each detail is decoded on its own, so one damaged detail leaves the others readable.
package enum GRPCStatusDetails {
    /// What a `google.rpc.Status` held.
    package struct Decoded: Sendable, Hashable {
        package var code: Int?
        package var message: String?
        package var details: [GRPCErrorDetail] = []
        /// What could not be decoded, in words.
        package var problem: String?
    }

    /// The status the bytes hold; what is damaged is named in `problem`, never thrown.
    package static func decode(_ bytes: [UInt8]) -> Decoded {
        var decoded = Decoded()
        var problems: [String] = []
        var reader = ProtobufFieldReader(bytes: bytes)
        var rawDetails: [[UInt8]] = []
        do {
            while let field = try reader.next() {
                switch (field.number, field.value) {
                case (1, .varint(let value)): decoded.code = Int(Int32(truncatingIfNeeded: value))
                case (2, .bytes(let text)): decoded.message = String(decoding: text, as: UTF8.self)
                case (3, .bytes(let detail)): rawDetails.append(detail)
                default: continue
                }
            }
        } catch {
            let reason = (error as? ProtobufFieldReader.Malformed)?.reason ?? "\(error)"
            problems.append("grpc-status-details-bin is not a google.rpc.Status: \(reason)")
        }
        for (index, raw) in rawDetails.enumerated() {
            do {
                decoded.details.append(try decodeDetail(raw))
            } catch {
                let any = try? Google_Protobuf_Any(serializedBytes: raw)
                if let any {
                    decoded.details.append(.other(typeURL: any.typeURL, bytes: Array(any.value)))
                    problems.append("detail \(index + 1) (\(any.typeURL)) could not be decoded: \(error)")
                } else {
                    problems.append("detail \(index + 1) is not a google.protobuf.Any")
                }
            }
        }
        decoded.problem = problems.isEmpty ? nil : problems.joined(separator: "; ")
        return decoded
    }

    /// One `Any` decoded to its type (a status holding only it, read by GRPCProtobuf).
    private static func decodeDetail(_ raw: [UInt8]) throws -> GRPCErrorDetail {
        var wrapped: [UInt8] = [0x1A]
        ProtobufFieldReader.appendVarint(UInt64(raw.count), to: &wrapped)
        wrapped += raw
        let status = try GoogleRPCStatus(serializedBytes: wrapped)
        guard let first = status.details.first else { throw GRPCWireError(.internalError, "an empty detail") }
        return try GRPCErrorDetail(first)
    }

    /// A `google.rpc.Status` with these details, serialized for `grpc-status-details-bin`.
    package static func encode(code: GRPCStatusCode, message: String, details: [GRPCErrorDetail]) throws -> [UInt8] {
        let code = RPCError.Code(code.core) ?? .unknown
        return try GoogleRPCStatus(code: code, message: message, details: details.map(\.packed)).serializedBytes()
    }
}

/// Walks the fields of protobuf binary data (only what a `google.rpc.Status` needs).
struct ProtobufFieldReader {
    enum Value {
        case varint(UInt64)
        case bytes([UInt8])
        case fixed
    }

    struct Malformed: Error {
        var reason: String
    }

    let bytes: [UInt8]
    var offset = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func next() throws(Malformed) -> (number: Int, value: Value)? {
        guard offset < bytes.count else { return nil }
        let tag = try varint()
        let number = Int(tag >> 3)
        guard number > 0 else { throw Malformed(reason: "field number 0 at byte \(offset)") }
        switch tag & 7 {
        case 0: return (number, .varint(try varint()))
        case 1: try skip(8)
        case 5: try skip(4)
        case 2:
            let length = try varint()
            guard length <= UInt64(bytes.count - offset) else {
                throw Malformed(reason: "field \(number) claims \(length) bytes, \(bytes.count - offset) remain")
            }
            let start = offset
            offset += Int(length)
            return (number, .bytes(Array(bytes[start..<offset])))
        default:
            throw Malformed(reason: "wire type \(tag & 7) at byte \(offset)")
        }
        return (number, .fixed)
    }

    private mutating func skip(_ count: Int) throws(Malformed) {
        guard bytes.count - offset >= count else { throw Malformed(reason: "the data ends inside a fixed-size field") }
        offset += count
    }

    private mutating func varint() throws(Malformed) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while offset < bytes.count, shift < 64 {
            let byte = bytes[offset]
            offset += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
        throw Malformed(reason: "the data ends inside a varint")
    }

    static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }
}
