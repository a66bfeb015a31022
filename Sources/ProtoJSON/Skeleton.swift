import JSONSupport

/// What the request editor shows of a field: names, types and the values an enum allows.
package struct ProtoFieldInfo: Sendable, Hashable {
    package enum Cardinality: Sendable, Hashable {
        /// A field without presence: absent means its default.
        case singular
        /// A field with presence (proto2, proto3 `optional`, messages, oneof members).
        case optional
        case required
        case repeated
        case map
    }

    /// The name in the .proto file.
    package let name: String
    /// The name JSON writes (either is read).
    package let jsonName: String
    package let number: Int32
    package let cardinality: Cardinality
    /// The type as a .proto file writes it: `int64`, `routeguide.Point`, `map<string, int32>`.
    package let typeName: String
    /// What JSON the field takes, for a person: `string (int64)`, `number (double)`, `string (RFC 3339 time)`.
    package let jsonType: String
    /// The names an enum field (or a map's enum values) takes.
    package let enumValues: [String]
    /// The oneof the field belongs to.
    package let oneof: String?
    /// The message type of a message field (of a map's values for a map).
    package let messageType: MessageID?
}

extension DescriptorPool {
    /// The fields of a message type, in declaration order.
    package func fieldInfo(of type: MessageID) -> [ProtoFieldInfo] {
        let descriptor = self[type]
        return descriptor.fields.map { fieldInfo($0, in: descriptor) }
    }

    /// The field a JSON path leads to from a message of `type` (`[.field("point"), .field("latitude")]`;
    /// indexes and map keys step into a list's or map's values), or nil where it leads to none.
    package func fieldInfo(at path: [ProtoPathComponent], in type: MessageID) -> ProtoFieldInfo? {
        var current = type
        var last: ProtoFieldInfo?
        for component in path {
            switch component {
            case .field(let name):
                let descriptor = self[current]
                guard let index = descriptor.fieldIndex(named: name) else { return nil }
                let info = fieldInfo(descriptor.fields[index], in: descriptor)
                last = info
                if let next = info.messageType { current = next }
            case .index, .key:
                guard last?.cardinality == .repeated || last?.cardinality == .map else { return nil }
            }
        }
        return last
    }

    private func fieldInfo(_ field: FieldDescriptor, in descriptor: MessageDescriptor) -> ProtoFieldInfo {
        var valueType = field.type
        var typeName = field.type.name(in: self)
        if let entry = field.mapEntry {
            let entryFields = self[entry].fields
            let key = entryFields.first { $0.number == 1 }?.type ?? .string
            valueType = entryFields.first { $0.number == 2 }?.type ?? .string
            typeName = "map<\(key.name(in: self)), \(valueType.name(in: self))>"
        }
        let cardinality: ProtoFieldInfo.Cardinality =
            field.isMap ? .map : field.isRepeated ? .repeated : field.isRequired ? .required : field.hasPresence ? .optional : .singular
        var enumValues: [String] = []
        var messageType: MessageID?
        switch valueType {
        case .enumeration(let id): enumValues = self[id].values.map(\.name)
        case .message(let id): messageType = id
        default: break
        }
        var jsonType = jsonTypeName(valueType)
        if field.isMap { jsonType = "object of \(jsonType)" } else if field.isRepeated { jsonType = "array of \(jsonType)" }
        return ProtoFieldInfo(
            name: field.name, jsonName: field.jsonName, number: field.number, cardinality: cardinality, typeName: typeName, jsonType: jsonType,
            enumValues: enumValues, oneof: field.oneof.map { descriptor.oneofs[$0].name }, messageType: messageType)
    }

    private func jsonTypeName(_ type: ProtoFieldType) -> String {
        switch type {
        case .int32, .sint32, .sfixed32, .uint32, .fixed32: "number (\(type.name(in: self)))"
        case .int64, .sint64, .sfixed64, .uint64, .fixed64: "string (\(type.name(in: self)))"
        case .float, .double: "number (\(type.name(in: self)))"
        case .bool: "true or false"
        case .string: "string"
        case .bytes: "string (base64)"
        case .enumeration(let id): "string (\(self[id].fullName))"
        case .message(let id):
            switch self[id].wellKnown {
            case .timestamp?: "string (RFC 3339 time)"
            case .duration?: "string (duration such as \"1.5s\")"
            case .fieldMask?: "string (comma-separated paths)"
            case .value?: "any JSON value"
            case .struct?: "object (any members)"
            case .listValue?: "array (any values)"
            case .any?: "object with \"@type\""
            case .wrapper?:
                self[id].fields.first.map { "\(jsonTypeName($0.type)) or null" } ?? "null"
            case .empty?, nil: "object (\(self[id].fullName))"
            }
        }
    }

    /// The JSON a person edits to write a message of `type`: every field at its default (proto2
    /// defaults included), enums by the name of their default; a list with one element and a map
    /// with one entry, to show their shape (as grpcurl's message templates do); only the first
    /// field of each oneof, so that the skeleton reads back as it is. A type met again inside
    /// itself is `{}`.
    package func skeleton(of type: MessageID) -> JSONValue {
        var budget = 10_000
        return skeleton(of: type, path: [], budget: &budget)
    }

    private func skeleton(of type: MessageID, path: Set<MessageID>, budget: inout Int) -> JSONValue {
        let descriptor = self[type]
        budget -= 1
        guard budget > 0, path.count < 32, !path.contains(type) else { return .object(JSONObject()) }
        if let wellKnown = descriptor.wellKnown {
            switch wellKnown {
            case .timestamp: return "1970-01-01T00:00:00Z"
            case .duration: return "0s"
            case .fieldMask: return ""
            case .value: return .null
            case .listValue: return []
            case .wrapper:
                if let field = descriptor.fields.first { return scalarSkeleton(field) }
            case .struct, .empty, .any: return .object(JSONObject())
            }
        }
        let inner = path.union([type])
        var members: [(key: String, value: JSONValue)] = []
        var oneofsShown: Set<Int> = []
        for field in descriptor.fields {
            if let oneof = field.oneof, !oneofsShown.insert(oneof).inserted { continue }
            let value: JSONValue
            if let entry = field.mapEntry {
                let entryFields = self[entry].fields
                guard let key = entryFields.first(where: { $0.number == 1 }), let valueField = entryFields.first(where: { $0.number == 2 }) else { continue }
                let keyText: String
                switch key.type {
                case .string: keyText = ""
                case .bool: keyText = "false"
                default: keyText = "0"
                }
                value = .object(JSONObject([(keyText, elementSkeleton(valueField, path: inner, budget: &budget))]))
            } else if field.isRepeated {
                value = .array([elementSkeleton(field, path: inner, budget: &budget)])
            } else {
                value = elementSkeleton(field, path: inner, budget: &budget)
            }
            members.append((field.jsonName, value))
        }
        return .object(JSONObject(members))
    }

    private func elementSkeleton(_ field: FieldDescriptor, path: Set<MessageID>, budget: inout Int) -> JSONValue {
        if case .message(let type) = field.type { return skeleton(of: type, path: path, budget: &budget) }
        return scalarSkeleton(field)
    }

    /// A scalar's default as JSON: proto2's `[default = …]` where the field has one.
    private func scalarSkeleton(_ field: FieldDescriptor) -> JSONValue {
        let reader = JSONMessageReader(pool: self, options: ProtoJSONParseOptions())
        if let text = field.defaultText {
            let candidate: JSONValue? =
                switch field.type {
                case .string: .string(text)
                case .bool: text == "true" ? .bool(true) : .bool(false)
                case .enumeration: .string(text)
                case .float, .double:
                    switch text {
                    case "inf": .string("Infinity")
                    case "-inf": .string("-Infinity")
                    case "nan": .string("NaN")
                    default: .number(text)
                    }
                case .bytes, .message: nil
                default: .number(text)
                }
            // Written as the JSON form would write the value (64-bit integers as strings).
            if let candidate, let value = try? reader.scalar(candidate, field.type),
                let json = try? JSONPrinter(pool: self, options: ProtoJSONOptions(), depthLimit: 1).value(value, type: field.type)
            {
                return json
            }
        }
        return (try? JSONPrinter(pool: self, options: ProtoJSONOptions(), depthLimit: 1).value(zero(of: field), type: field.type)) ?? .null
    }
}
