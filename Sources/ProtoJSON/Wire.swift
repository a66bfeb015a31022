/// The protobuf wire types.
enum WireType: UInt8 {
    case varint = 0
    case fixed64 = 1
    case lengthDelimited = 2
    case startGroup = 3
    case endGroup = 4
    case fixed32 = 5
}

/// Reads protobuf's wire format from bytes it does not own, within `position..<end`. Every length
/// is checked against what remains before anything is read or allocated.
struct WireReader {
    let bytes: UnsafeRawBufferPointer
    var position = 0
    var end: Int

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        self.end = bytes.count
    }

    var isAtEnd: Bool { position >= end }
    var remaining: Int { end - position }

    mutating func readVarint() throws(ProtoCodecError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while position < end {
            let byte = bytes[position]
            position += 1
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
            if shift >= 70 { throw ProtoCodecError("a varint longer than 10 bytes (at byte \(position - 1))") }
        }
        throw ProtoCodecError("the message ends inside a varint (at byte \(position))")
    }

    /// A field's number and wire type.
    mutating func readTag() throws(ProtoCodecError) -> (number: Int32, wireType: WireType) {
        let start = position
        let tag = try readVarint()
        guard tag <= UInt64(UInt32.max) else { throw ProtoCodecError("a field tag over 32 bits (at byte \(start))") }
        let number = Int32(truncatingIfNeeded: tag >> 3)
        guard number > 0 else { throw ProtoCodecError("a field numbered 0 (at byte \(start))") }
        guard let wireType = WireType(rawValue: UInt8(tag & 7)) else {
            throw ProtoCodecError("field \(number) has the wire type \(tag & 7), which does not exist (at byte \(start))")
        }
        return (number, wireType)
    }

    mutating func readFixed32() throws(ProtoCodecError) -> UInt32 {
        guard remaining >= 4 else { throw ProtoCodecError("the message ends inside a 4-byte value (at byte \(position))") }
        var value: UInt32 = 0
        for offset in (0..<4).reversed() { value = value << 8 | UInt32(bytes[position + offset]) }
        position += 4
        return value
    }

    mutating func readFixed64() throws(ProtoCodecError) -> UInt64 {
        guard remaining >= 8 else { throw ProtoCodecError("the message ends inside an 8-byte value (at byte \(position))") }
        var value: UInt64 = 0
        for offset in (0..<8).reversed() { value = value << 8 | UInt64(bytes[position + offset]) }
        position += 8
        return value
    }

    /// A length prefix, checked against the bytes that remain.
    mutating func readLength() throws(ProtoCodecError) -> Int {
        let start = position
        let length = try readVarint()
        guard length <= UInt64(remaining) else {
            throw ProtoCodecError("a length of \(length) bytes where \(remaining) remain (at byte \(start))")
        }
        return Int(length)
    }

    /// The next `count` bytes (already checked by `readLength`).
    mutating func readBytes(_ count: Int) -> UnsafeRawBufferPointer {
        let slice = UnsafeRawBufferPointer(rebasing: bytes[position..<position + count])
        position += count
        return slice
    }

    /// Skips a value of `wireType` (a whole group, to its end, for a start-group tag).
    mutating func skip(_ wireType: WireType, number: Int32, depth: Int, limit: Int) throws(ProtoCodecError) {
        switch wireType {
        case .varint: _ = try readVarint()
        case .fixed64: _ = try readFixed64()
        case .fixed32: _ = try readFixed32()
        case .lengthDelimited: position += try readLength()
        case .startGroup:
            guard depth < limit else { throw ProtoCodecError("groups nested deeper than \(limit) levels") }
            while true {
                guard !isAtEnd else { throw ProtoCodecError("group \(number) has no end") }
                let (inner, innerType) = try readTag()
                if innerType == .endGroup {
                    guard inner == number else { throw ProtoCodecError("group \(number) ends with the end of group \(inner)") }
                    return
                }
                try skip(innerType, number: inner, depth: depth + 1, limit: limit)
            }
        case .endGroup: throw ProtoCodecError("an end of group \(number) that no group started")
        }
    }
}

/// Writes protobuf's wire format.
struct WireWriter {
    var bytes: [UInt8] = []

    mutating func writeVarint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    mutating func writeTag(_ number: Int32, _ wireType: WireType) {
        writeVarint(UInt64(UInt32(bitPattern: number) << 3 | UInt32(wireType.rawValue)))
    }

    mutating func writeFixed32(_ value: UInt32) {
        var value = value
        for _ in 0..<4 {
            bytes.append(UInt8(truncatingIfNeeded: value))
            value >>= 8
        }
    }

    mutating func writeFixed64(_ value: UInt64) {
        var value = value
        for _ in 0..<8 {
            bytes.append(UInt8(truncatingIfNeeded: value))
            value >>= 8
        }
    }

    mutating func writeLengthDelimited(_ payload: some Collection<UInt8>) {
        writeVarint(UInt64(payload.count))
        bytes.append(contentsOf: payload)
    }

    /// Writes what `body` writes, preceded by its length.
    mutating func writeLengthPrefixed<Failure: Error>(_ body: (inout WireWriter) throws(Failure) -> Void) throws(Failure) {
        let start = bytes.count
        try body(&self)
        let length = bytes.count - start
        var prefix = WireWriter()
        prefix.writeVarint(UInt64(length))
        bytes.insert(contentsOf: prefix.bytes, at: start)
    }

    static func varintSize(_ value: UInt64) -> Int {
        var value = value
        var size = 1
        while value >= 0x80 {
            value >>= 7
            size += 1
        }
        return size
    }
}

enum ZigZag {
    static func encode32(_ value: Int32) -> UInt64 { UInt64(UInt32(bitPattern: (value << 1) ^ (value >> 31))) }
    static func encode64(_ value: Int64) -> UInt64 { UInt64(bitPattern: (value << 1) ^ (value >> 63)) }
    static func decode32(_ value: UInt32) -> Int32 { Int32(bitPattern: value >> 1) ^ -Int32(bitPattern: value & 1) }
    static func decode64(_ value: UInt64) -> Int64 { Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1) }
}
