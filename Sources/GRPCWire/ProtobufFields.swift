/// Protobuf's binary format read and written field by field, without a schema: what a
/// `google.rpc.Status` needs, and what tests write messages with (`[1: .text("hi"), 2: .number(3)]`).
package struct ProtobufFields: Sendable, Hashable, ExpressibleByDictionaryLiteral {
    /// A field's value on the wire.
    package enum Value: Sendable, Hashable {
        /// A varint (int32, int64, bool, enum); negative numbers as protobuf writes int32/int64.
        case number(Int64)
        /// Length-delimited bytes (string, bytes, a nested message).
        case bytes([UInt8])
        /// A 64-bit fixed value (double, fixed64).
        case fixed64(UInt64)
        /// A 32-bit fixed value (float, fixed32).
        case fixed32(UInt32)

        /// UTF-8 text.
        package static func text(_ text: String) -> Value { .bytes(Array(text.utf8)) }
        /// A nested message.
        package static func message(_ fields: ProtobufFields) -> Value { .bytes(fields.encoded) }
    }

    /// The fields in order (a number may repeat).
    package var fields: [(number: Int, value: Value)]

    package init(_ fields: [(number: Int, value: Value)] = []) {
        self.fields = fields
    }

    package init(dictionaryLiteral elements: (Int, Value)...) {
        fields = elements.map { (number: $0.0, value: $0.1) }
    }

    /// Reads a message's fields; nil when the bytes are not protobuf.
    package init?(decoding bytes: [UInt8]) {
        fields = []
        var offset = 0
        func varint() -> UInt64? {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while offset < bytes.count, shift < 64 {
                let byte = bytes[offset]
                offset += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte & 0x80 == 0 { return value }
                shift += 7
            }
            return nil
        }
        while offset < bytes.count {
            guard let tag = varint() else { return nil }
            let number = Int(tag >> 3)
            switch tag & 7 {
            case 0:
                guard let value = varint() else { return nil }
                fields.append((number, .number(Int64(bitPattern: value))))
            case 1:
                guard offset + 8 <= bytes.count else { return nil }
                fields.append((number, .fixed64(bytes[offset..<offset + 8].reversed().reduce(0) { $0 << 8 | UInt64($1) })))
                offset += 8
            case 2:
                guard let length = varint(), length <= UInt64(bytes.count - offset) else { return nil }
                fields.append((number, .bytes(Array(bytes[offset..<offset + Int(length)]))))
                offset += Int(length)
            case 5:
                guard offset + 4 <= bytes.count else { return nil }
                fields.append((number, .fixed32(bytes[offset..<offset + 4].reversed().reduce(0) { $0 << 8 | UInt32($1) })))
                offset += 4
            default:
                return nil
            }
        }
    }

    /// The message's bytes.
    package var encoded: [UInt8] {
        var bytes: [UInt8] = []
        func varint(_ value: UInt64) {
            var value = value
            while value >= 0x80 {
                bytes.append(UInt8(value & 0x7F) | 0x80)
                value >>= 7
            }
            bytes.append(UInt8(value))
        }
        for (number, value) in fields {
            switch value {
            case .number(let number64):
                varint(UInt64(number) << 3)
                varint(UInt64(bitPattern: number64))
            case .bytes(let data):
                varint(UInt64(number) << 3 | 2)
                varint(UInt64(data.count))
                bytes += data
            case .fixed64(let value):
                varint(UInt64(number) << 3 | 1)
                bytes += (0..<8).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
            case .fixed32(let value):
                varint(UInt64(number) << 3 | 5)
                bytes += (0..<4).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
            }
        }
        return bytes
    }

    /// Every value of field `number`.
    package func values(_ number: Int) -> [Value] {
        fields.filter { $0.number == number }.map(\.value)
    }

    /// The last text of field `number` ("" when absent, as proto3 reads it).
    package func text(_ number: Int) -> String {
        guard case .bytes(let data)? = values(number).last else { return "" }
        return String(decoding: data, as: UTF8.self)
    }

    /// The last number of field `number` (0 when absent).
    package func number(_ number: Int) -> Int64 {
        guard case .number(let value)? = values(number).last else { return 0 }
        return value
    }

    /// The last nested message of field `number` (empty when absent).
    package func message(_ number: Int) -> ProtobufFields {
        guard case .bytes(let data)? = values(number).last else { return ProtobufFields() }
        return ProtobufFields(decoding: data) ?? ProtobufFields()
    }

    /// A double field (fixed64).
    package func double(_ number: Int) -> Double {
        guard case .fixed64(let bits)? = values(number).last else { return 0 }
        return Double(bitPattern: bits)
    }

    package static func == (lhs: ProtobufFields, rhs: ProtobufFields) -> Bool { lhs.encoded == rhs.encoded }

    package func hash(into hasher: inout Hasher) { hasher.combine(encoded) }
}
