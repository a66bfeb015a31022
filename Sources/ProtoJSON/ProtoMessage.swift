/// A message read by descriptor: the values of its fields, by the fields' positions in its
/// `MessageDescriptor`, and the bytes of fields the descriptor does not know (kept so that a
/// message read and written again loses nothing).
package struct ProtoMessage: Sendable, Hashable {
    package let type: MessageID
    /// By field index; nil for a field that is not set (fields without presence are not set at their default).
    package internal(set) var values: [ProtoFieldValue?]
    /// Unknown fields as they were read: tags and values, in order.
    package internal(set) var unknownFields: [UInt8]

    package init(type: MessageID, in pool: DescriptorPool) {
        self.type = type
        self.values = Array(repeating: nil, count: pool[type].fields.count)
        self.unknownFields = []
    }

    /// The numbers of the unknown fields, in the order read (the JSON form leaves them out, as the
    /// reference implementation does; a view can say how many it did not show).
    package var unknownFieldNumbers: [Int32] {
        unknownFields.withUnsafeBytes { buffer in
            var reader = WireReader(buffer)
            var numbers: [Int32] = []
            while !reader.isAtEnd, let (number, wireType) = try? reader.readTag(),
                (try? reader.skip(wireType, number: number, depth: 0, limit: DescriptorPool.defaultDepthLimit)) != nil
            {
                numbers.append(number)
            }
            return numbers
        }
    }

    /// Sets a field, clearing the other fields of its oneof.
    mutating func set(_ index: Int, _ value: ProtoFieldValue?, descriptor: MessageDescriptor) {
        if value != nil, let oneof = descriptor.fields[index].oneof {
            for member in descriptor.oneofs[oneof].fields where member != index { values[member] = nil }
        }
        values[index] = value
    }
}

/// The value of a set field.
package enum ProtoFieldValue: Sendable, Hashable {
    case single(ProtoValue)
    case list([ProtoValue])
    case map([ProtoMapKey: ProtoValue])
}

/// One value of a field.
package enum ProtoValue: Sendable, Hashable {
    case int32(Int32)
    case int64(Int64)
    case uint32(UInt32)
    case uint64(UInt64)
    case float(Float)
    case double(Double)
    case bool(Bool)
    case string(String)
    case bytes([UInt8])
    /// An enum's number (an open enum may hold numbers it does not name).
    case enumeration(Int32)
    case message(ProtoMessage)

    // Floating-point values compare by their bits, so that NaN equals itself and a message read
    // twice compares equal.
    package static func == (lhs: ProtoValue, rhs: ProtoValue) -> Bool {
        switch (lhs, rhs) {
        case (.int32(let a), .int32(let b)): a == b
        case (.int64(let a), .int64(let b)): a == b
        case (.uint32(let a), .uint32(let b)): a == b
        case (.uint64(let a), .uint64(let b)): a == b
        case (.float(let a), .float(let b)): a.bitPattern == b.bitPattern
        case (.double(let a), .double(let b)): a.bitPattern == b.bitPattern
        case (.bool(let a), .bool(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.bytes(let a), .bytes(let b)): a == b
        case (.enumeration(let a), .enumeration(let b)): a == b
        case (.message(let a), .message(let b)): a == b
        default: false
        }
    }

    package func hash(into hasher: inout Hasher) {
        switch self {
        case .int32(let value): hasher.combine(value)
        case .int64(let value): hasher.combine(value)
        case .uint32(let value): hasher.combine(value)
        case .uint64(let value): hasher.combine(value)
        case .float(let value): hasher.combine(value.bitPattern)
        case .double(let value): hasher.combine(value.bitPattern)
        case .bool(let value): hasher.combine(value)
        case .string(let value): hasher.combine(value)
        case .bytes(let value): hasher.combine(value)
        case .enumeration(let value): hasher.combine(value)
        case .message(let value): hasher.combine(value)
        }
    }

    /// Whether this is its type's zero value (what a field without presence does not write).
    var isZero: Bool {
        switch self {
        case .int32(let value): value == 0
        case .int64(let value): value == 0
        case .uint32(let value): value == 0
        case .uint64(let value): value == 0
        // -0.0 is not zero here: its bits are written, as the reference implementation does.
        case .float(let value): value.bitPattern == 0
        case .double(let value): value.bitPattern == 0
        case .bool(let value): !value
        case .string(let value): value.isEmpty
        case .bytes(let value): value.isEmpty
        case .enumeration(let value): value == 0
        case .message: false
        }
    }
}

/// A map's key: maps are keyed by integers, bools or strings, and written in key order.
package enum ProtoMapKey: Sendable, Hashable, Comparable {
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case string(String)

    package static func < (lhs: ProtoMapKey, rhs: ProtoMapKey) -> Bool {
        switch (lhs, rhs) {
        case (.bool(let a), .bool(let b)): !a && b
        case (.int(let a), .int(let b)): a < b
        case (.uint(let a), .uint(let b)): a < b
        case (.string(let a), .string(let b)): a.utf8.lexicographicallyPrecedes(b.utf8)
        default: lhs.rank < rhs.rank
        }
    }

    private var rank: Int {
        switch self {
        case .bool: 0
        case .int: 1
        case .uint: 2
        case .string: 3
        }
    }
}
