/// A message type of a `DescriptorPool`: its position there (descriptors refer to each other by it,
/// so recursive types need no references between objects).
package struct MessageID: Hashable, Sendable {
    package let index: Int
}

/// An enum type of a `DescriptorPool`.
package struct EnumID: Hashable, Sendable {
    package let index: Int
}

/// A field's type as the wire and the JSON mapping see it.
package enum ProtoFieldType: Hashable, Sendable {
    case double, float, int64, uint64, int32, fixed64, fixed32, bool, string, bytes, uint32, sfixed32, sfixed64, sint32, sint64
    case enumeration(EnumID)
    case message(MessageID)

    /// The type's name in a .proto file (`int64`, `bytes`); messages and enums by their full name.
    package func name(in pool: DescriptorPool) -> String {
        switch self {
        case .double: "double"
        case .float: "float"
        case .int64: "int64"
        case .uint64: "uint64"
        case .int32: "int32"
        case .fixed64: "fixed64"
        case .fixed32: "fixed32"
        case .bool: "bool"
        case .string: "string"
        case .bytes: "bytes"
        case .uint32: "uint32"
        case .sfixed32: "sfixed32"
        case .sfixed64: "sfixed64"
        case .sint32: "sint32"
        case .sint64: "sint64"
        case .enumeration(let id): pool[id].fullName
        case .message(let id): pool[id].fullName
        }
    }

    /// Whether repeated values of this type may be packed (numbers, bools and enums).
    var isPackable: Bool {
        switch self {
        case .string, .bytes, .message: false
        default: true
        }
    }

    /// Whether the type can be a map's key (integers, bools and strings).
    var isMapKeyType: Bool {
        switch self {
        case .double, .float, .bytes, .message, .enumeration: false
        default: true
        }
    }
}

/// A field of a message type, with what the JSON mapping and the wire need of its options and
/// (for editions) resolved features.
package struct FieldDescriptor: Sendable {
    /// The name in the .proto file (`feature_name`).
    package let name: String
    /// The JSON name (`featureName`, or the file's `json_name`).
    package let jsonName: String
    package let number: Int32
    package let type: ProtoFieldType
    package let isRepeated: Bool
    /// For a `map<K, V>` field, the entry type (its field 1 is the key, 2 the value).
    package let mapEntry: MessageID?
    /// Whether the field tracks presence (proto2 singular, proto3 `optional`, messages, oneof
    /// members): only fields without it are printed at their default by `emitDefaults`.
    package let hasPresence: Bool
    /// proto2 `required` (or editions' LEGACY_REQUIRED).
    package let isRequired: Bool
    /// Repeated numbers written packed (proto3 and editions by default, proto2 `[packed = true]`).
    package let isPacked: Bool
    /// A message written as a group (proto2 `group`, editions' DELIMITED encoding).
    package let isDelimited: Bool
    /// Strings must be valid UTF-8 (proto3 and editions by default).
    package let validatesUTF8: Bool
    /// The index of its oneof in `MessageDescriptor.oneofs` (proto3 `optional` fields' synthetic
    /// oneofs are left out: they are plain fields with presence).
    package let oneof: Int?
    /// proto2's `[default = …]` as written in the descriptor.
    package let defaultText: String?

    package var isMap: Bool { mapEntry != nil }
}

/// A oneof: at most one of its fields is set.
package struct OneofDescriptor: Sendable {
    package let name: String
    /// Indexes into `MessageDescriptor.fields`.
    package let fields: [Int]
}

/// The types the JSON mapping writes in a form of their own.
package enum WellKnownType: Sendable, Hashable {
    case any, timestamp, duration, fieldMask, `struct`, value, listValue, empty
    /// `google.protobuf.DoubleValue` … `BytesValue`: written as their `value` field alone.
    case wrapper
}

/// A message type.
package struct MessageDescriptor: Sendable {
    package let fullName: String
    package let name: String
    /// The file that declares it.
    package let file: String
    /// The fields in declaration order.
    package let fields: [FieldDescriptor]
    package let oneofs: [OneofDescriptor]
    /// A `map<K, V>` field's synthesized entry type.
    package let isMapEntry: Bool
    package let wellKnown: WellKnownType?
    /// Field indexes in field-number order: the order the wire and JSON output follow.
    package let fieldsByNumber: [Int]
    let numberIndex: FieldNumberIndex
    /// JSON names and .proto names to field indexes.
    let nameIndex: [String: Int]

    /// A well-known type with a JSON form of its own (Empty's is an ordinary message's): inside an
    /// Any, that form is under "value".
    package var hasCustomJSON: Bool { wellKnown != nil && wellKnown != .empty }

    /// The index of the field with `number`.
    package func fieldIndex(number: Int32) -> Int? { numberIndex[number] }

    /// The index of the field named `name` (its JSON name or its .proto name).
    package func fieldIndex(named name: String) -> Int? { nameIndex[name] }
}

/// Field numbers to field indexes: an array for the usual small numbers, a dictionary past them.
struct FieldNumberIndex: Sendable {
    private var dense: [Int32] = []
    private var sparse: [Int32: Int] = [:]
    private static let denseLimit: Int32 = 512

    init(_ fields: [FieldDescriptor]) {
        let largest = fields.lazy.map(\.number).filter { $0 < Self.denseLimit }.max() ?? -1
        dense = Array(repeating: -1, count: Int(largest) + 1)
        for (index, field) in fields.enumerated() {
            if field.number >= 0, field.number < Self.denseLimit {
                dense[Int(field.number)] = Int32(index)
            } else {
                sparse[field.number] = index
            }
        }
    }

    subscript(number: Int32) -> Int? {
        if number >= 0, Int(number) < dense.count {
            let index = dense[Int(number)]
            return index < 0 ? nil : Int(index)
        }
        return sparse[number]
    }
}

/// An enum type.
package struct EnumDescriptor: Sendable {
    package let fullName: String
    package let name: String
    package let file: String
    /// The values in declaration order (aliases included).
    package let values: [(name: String, number: Int32)]
    /// A closed enum (proto2, editions' CLOSED) keeps only its declared numbers: others read from
    /// the wire go to the unknown fields, and JSON may not name them.
    package let isClosed: Bool
    let numbersByName: [String: Int32]
    let namesByNumber: [Int32: String]

    /// The name of `number` (the first declared, for aliases).
    package func name(of number: Int32) -> String? { namesByNumber[number] }

    /// The number named `name`.
    package func number(named name: String) -> Int32? { numbersByName[name] }

    /// The default: the first declared value (number 0 in proto3).
    package var defaultNumber: Int32 { values.first?.number ?? 0 }
}

/// A service and its methods.
package struct ServiceDescriptor: Sendable {
    package let fullName: String
    package let name: String
    package let file: String
    package let methods: [MethodDescriptor]
}

/// A method of a service: what it takes and returns, and which sides stream.
package struct MethodDescriptor: Sendable {
    package let name: String
    /// `package.Service.Method`.
    package let fullName: String
    /// `/package.Service/Method`: the HTTP/2 path gRPC calls it by.
    package let path: String
    package let input: MessageID
    package let output: MessageID
    package let clientStreaming: Bool
    package let serverStreaming: Bool
}

/// A file of the set: its name, package and imports, as `describe` shows them.
package struct FileSummary: Sendable, Hashable {
    package let name: String
    package let package: String
    package let dependencies: [String]
    /// `proto2`, `proto3` or `editions`.
    package let syntax: String
}
