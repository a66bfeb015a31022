import JSONSupport

/// How messages are written as JSON.
package struct ProtoJSONOptions: Sendable, Hashable {
    /// Writes fields without presence (proto3 scalars, repeated fields, maps) at their defaults
    /// when they are not set: grpcurl's `-emit-defaults`, the reference's
    /// `always_print_fields_with_no_presence`.
    package var emitDefaults: Bool
    /// Writes the .proto names (`feature_name`) instead of the JSON names (`featureName`).
    package var protoFieldNames: Bool
    /// Writes enums as their numbers instead of their names.
    package var enumsAsNumbers: Bool

    package init(emitDefaults: Bool = false, protoFieldNames: Bool = false, enumsAsNumbers: Bool = false) {
        self.emitDefaults = emitDefaults
        self.protoFieldNames = protoFieldNames
        self.enumsAsNumbers = enumsAsNumbers
    }
}

extension DescriptorPool {
    /// A message in the proto3 JSON mapping. Unknown fields are left out, as the reference
    /// implementation leaves them out (`ProtoMessage.unknownFieldNumbers` tells which there were).
    package func json(_ message: ProtoMessage, options: ProtoJSONOptions = ProtoJSONOptions()) throws(ProtoCodecError) -> JSONValue {
        try JSONPrinter(pool: self, options: options, depthLimit: Self.defaultDepthLimit).json(message, depth: 0)
    }

    /// Reads binary `bytes` as a message of `type` and writes it in the JSON mapping.
    package func decodeToJSON(_ bytes: [UInt8], as type: MessageID, options: ProtoJSONOptions = ProtoJSONOptions()) throws(ProtoCodecError) -> JSONValue {
        try json(decode(bytes, as: type), options: options)
    }
}

/// Writes messages in the JSON mapping.
struct JSONPrinter {
    let pool: DescriptorPool
    let options: ProtoJSONOptions
    let depthLimit: Int

    func json(_ message: ProtoMessage, depth: Int) throws(ProtoCodecError) -> JSONValue {
        guard depth <= depthLimit else { throw ProtoCodecError("messages nested deeper than \(depthLimit) levels") }
        let descriptor = pool[message.type]
        if let wellKnown = descriptor.wellKnown { return try self.wellKnown(wellKnown, message, descriptor, depth: depth) }
        return .object(JSONObject(try members(of: message, descriptor, depth: depth)))
    }

    private func members(of message: ProtoMessage, _ descriptor: MessageDescriptor, depth: Int) throws(ProtoCodecError) -> [(key: String, value: JSONValue)] {
        var members: [(key: String, value: JSONValue)] = []
        members.reserveCapacity(descriptor.fields.count)
        for index in descriptor.fieldsByNumber {
            let field = descriptor.fields[index]
            let name = options.protoFieldNames ? field.name : field.jsonName
            if let value = message.values[index] {
                do {
                    members.append((name, try json(value, of: field, depth: depth)))
                } catch {
                    throw error.inside(.field(name))
                }
            } else if options.emitDefaults, !field.hasPresence {
                members.append((name, defaultJSON(of: field)))
            }
        }
        return members
    }

    private func json(_ value: ProtoFieldValue, of field: FieldDescriptor, depth: Int) throws(ProtoCodecError) -> JSONValue {
        switch value {
        case .single(let value): return try json(value, type: field.type, depth: depth)
        case .list(let values):
            var elements: [JSONValue] = []
            elements.reserveCapacity(values.count)
            for (index, value) in values.enumerated() {
                do {
                    elements.append(try json(value, type: field.type, depth: depth))
                } catch {
                    throw error.inside(.index(index))
                }
            }
            return .array(elements)
        case .map(let entries):
            guard let entryType = field.mapEntry, let valueIndex = pool[entryType].fieldIndex(number: 2) else { return .object(JSONObject()) }
            let valueType = pool[entryType].fields[valueIndex].type
            var members: [(key: String, value: JSONValue)] = []
            members.reserveCapacity(entries.count)
            for key in entries.keys.sorted() {
                do {
                    members.append((key.text, try json(entries[key] ?? .bool(false), type: valueType, depth: depth)))
                } catch {
                    throw error.inside(.key(key.text))
                }
            }
            return .object(JSONObject(members))
        }
    }

    /// One value: 64-bit integers as strings, bytes in base64, enums by name, floats' NaN and
    /// infinities as strings.
    private func json(_ value: ProtoValue, type: ProtoFieldType, depth: Int) throws(ProtoCodecError) -> JSONValue {
        switch value {
        case .int32(let value): return .number(String(value))
        case .uint32(let value): return .number(String(value))
        case .int64(let value): return .string(String(value))
        case .uint64(let value): return .string(String(value))
        case .float(let value): return value.isFinite ? .number(NumberText.float(value)) : .string(Self.nonFinite(Double(value)))
        case .double(let value): return value.isFinite ? .number(NumberText.double(value)) : .string(Self.nonFinite(value))
        case .bool(let value): return .bool(value)
        case .string(let value): return .string(value)
        case .bytes(let value): return .string(Base64.encode(value))
        case .enumeration(let number):
            guard case .enumeration(let id) = type else { return .number(String(number)) }
            let enumeration = pool[id]
            if enumeration.fullName == "google.protobuf.NullValue", !options.enumsAsNumbers { return .null }
            if !options.enumsAsNumbers, let name = enumeration.name(of: number) { return .string(name) }
            return .number(String(number))
        case .message(let message): return try json(message, depth: depth + 1)
        }
    }

    /// One scalar or enum value as JSON.
    func value(_ value: ProtoValue, type: ProtoFieldType) throws(ProtoCodecError) -> JSONValue {
        try json(value, type: type, depth: 0)
    }

    static func nonFinite(_ value: Double) -> String { value.isNaN ? "NaN" : value < 0 ? "-Infinity" : "Infinity" }

    /// What `emitDefaults` writes for a field without presence that is not set.
    private func defaultJSON(of field: FieldDescriptor) -> JSONValue {
        if field.isMap { return .object(JSONObject()) }
        if field.isRepeated { return .array([]) }
        return (try? value(pool.zero(of: field), type: field.type)) ?? .null
    }

    // MARK: Well-known types

    private func wellKnown(_ kind: WellKnownType, _ message: ProtoMessage, _ descriptor: MessageDescriptor, depth: Int) throws(ProtoCodecError) -> JSONValue {
        func single(_ number: Int32) -> ProtoValue? {
            guard let index = descriptor.fieldIndex(number: number), case .single(let value)? = message.values[index] else { return nil }
            return value
        }
        func list(_ number: Int32) -> [ProtoValue] {
            guard let index = descriptor.fieldIndex(number: number), case .list(let values)? = message.values[index] else { return [] }
            return values
        }
        func int64(_ number: Int32) -> Int64 { if case .int64(let value)? = single(number) { value } else { 0 } }
        func int32(_ number: Int32) -> Int32 { if case .int32(let value)? = single(number) { value } else { 0 } }
        switch kind {
        case .timestamp: return .string(try WellKnownText.timestamp(seconds: int64(1), nanos: int32(2)))
        case .duration: return .string(try WellKnownText.duration(seconds: int64(1), nanos: int32(2)))
        case .fieldMask:
            return .string(try WellKnownText.fieldMask(list(1).map { if case .string(let path) = $0 { path } else { "" } }))
        case .wrapper:
            guard let index = descriptor.fieldIndex(number: 1) else { return .null }
            let field = descriptor.fields[index]
            return try json(single(1) ?? pool.zero(of: field), type: field.type, depth: depth)
        case .struct:
            guard let index = descriptor.fieldIndex(number: 1) else { return .object(JSONObject()) }
            guard let value = message.values[index] else { return .object(JSONObject()) }
            return try json(value, of: descriptor.fields[index], depth: depth)
        case .listValue:
            guard let index = descriptor.fieldIndex(number: 1) else { return .array([]) }
            var elements: [JSONValue] = []
            for (position, element) in list(1).enumerated() {
                do {
                    elements.append(try json(element, type: descriptor.fields[index].type, depth: depth))
                } catch {
                    throw error.inside(.index(position))
                }
            }
            return .array(elements)
        case .value:
            for index in descriptor.fieldsByNumber {
                guard case .single(let value)? = message.values[index] else { continue }
                switch value {
                case .enumeration: return .null
                case .double(let number):
                    guard number.isFinite else {
                        throw ProtoCodecError("a Value's number is \(Self.nonFinite(number)), which JSON cannot write as a number")
                    }
                    return .number(NumberText.double(number))
                default: return try json(value, type: descriptor.fields[index].type, depth: depth)
                }
            }
            return .null
        case .empty: return .object(JSONObject())
        case .any: return try any(message, descriptor, single: single, depth: depth)
        }
    }

    /// `{"@type": URL, …fields}`, or `{"@type": URL, "value": …}` for a well-known type inside.
    private func any(_ message: ProtoMessage, _ descriptor: MessageDescriptor, single: (Int32) -> ProtoValue?, depth: Int) throws(ProtoCodecError) -> JSONValue {
        let url = if case .string(let url)? = single(1) { url } else { "" }
        let bytes = if case .bytes(let bytes)? = single(2) { bytes } else { [UInt8]() }
        if url.isEmpty, bytes.isEmpty { return .object(JSONObject()) }
        let type = try pool.anyType(url)
        let inner: ProtoMessage
        do {
            inner = try BinaryDecoder(pool: pool, depthLimit: depthLimit).message(type, from: bytes, depth: depth + 1)
        } catch {
            throw error.inside(.field("value"))
        }
        let innerDescriptor = pool[type]
        if innerDescriptor.hasCustomJSON {
            return .object(JSONObject([("@type", .string(url)), ("value", try json(inner, depth: depth + 1))]))
        }
        return .object(JSONObject([("@type", .string(url))] + (try members(of: inner, innerDescriptor, depth: depth + 1))))
    }
}

extension DescriptorPool {
    /// The message type an `Any`'s type URL names: the part after its last `/`.
    func anyType(_ url: String) throws(ProtoCodecError) -> MessageID {
        let name = url.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? url
        guard !name.isEmpty, !name.hasPrefix("."), let type = messageID(named: name) else {
            throw ProtoCodecError("the Any's type \(ProtoCodecError.quoted(url)) names no message type of the descriptor set")
        }
        return type
    }
}
