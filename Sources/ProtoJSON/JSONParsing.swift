import FoundationEssentials
import JSONSupport

/// How JSON is read into messages.
package struct ProtoJSONParseOptions: Sendable, Hashable {
    /// Skips members that name no field (and enum names no value names) instead of refusing them.
    package var ignoreUnknownFields: Bool
    /// The deepest nesting of messages accepted.
    package var depthLimit: Int
    /// Refuses a message without one of its proto2 `required` fields (as the reference refuses to
    /// write one); off, the message is read as it is (as a message read from binary is).
    package var checksRequiredFields: Bool

    package init(ignoreUnknownFields: Bool = false, depthLimit: Int = DescriptorPool.defaultDepthLimit, checksRequiredFields: Bool = true) {
        self.ignoreUnknownFields = ignoreUnknownFields
        self.depthLimit = depthLimit
        self.checksRequiredFields = checksRequiredFields
    }
}

extension DescriptorPool {
    /// Reads a message of `type` from its JSON form. A wrong field name or type is an error at its
    /// JSON path (`$.point.latitude: expected a number, got "x"`).
    package func message(fromJSON json: JSONValue, as type: MessageID, options: ProtoJSONParseOptions = ProtoJSONParseOptions()) throws(ProtoCodecError) -> ProtoMessage {
        try JSONMessageReader(pool: self, options: options).message(type, from: json, depth: 0)
    }

    /// Reads a message of `type` from JSON text (a key given twice in an object is an error, as in
    /// the reference implementation).
    package func message(fromJSONText text: some StringProtocol, as type: MessageID, options: ProtoJSONParseOptions = ProtoJSONParseOptions()) throws(ProtoCodecError) -> ProtoMessage {
        let json: JSONValue
        do {
            json = try JSONValue.parse(Data(text.utf8), rejectingDuplicateKeys: true)
        } catch {
            throw ProtoCodecError(syntax: error)
        }
        return try message(fromJSON: json, as: type, options: options)
    }

    /// JSON text to the binary form of a message of `type`: what a call sends.
    package func encodeJSON(_ text: some StringProtocol, as type: MessageID, options: ProtoJSONParseOptions = ProtoJSONParseOptions()) throws(ProtoCodecError) -> [UInt8] {
        encode(try message(fromJSONText: text, as: type, options: options))
    }

    /// A JSON value to the binary form of a message of `type`.
    package func encodeJSON(_ json: JSONValue, as type: MessageID, options: ProtoJSONParseOptions = ProtoJSONParseOptions()) throws(ProtoCodecError) -> [UInt8] {
        encode(try message(fromJSON: json, as: type, options: options))
    }
}

extension ProtoCodecError {
    /// A JSON syntax error, at its line and column.
    init(syntax error: JSONParseError) {
        self.init("invalid JSON at line \(error.line), column \(error.column): \(error.reason)")
    }
}

/// Reads messages from their JSON form.
struct JSONMessageReader {
    let pool: DescriptorPool
    let options: ProtoJSONParseOptions

    func message(_ type: MessageID, from json: JSONValue, depth: Int) throws(ProtoCodecError) -> ProtoMessage {
        guard depth < options.depthLimit else { throw ProtoCodecError("messages nested deeper than \(options.depthLimit) levels") }
        let descriptor = pool[type]
        if let wellKnown = descriptor.wellKnown { return try self.wellKnown(wellKnown, type, descriptor, from: json, depth: depth) }
        guard case .object(let object) = json else { throw Self.mismatch("an object (\(descriptor.fullName))", json) }
        var message = ProtoMessage(type: type, in: pool)
        try readFields(object, into: &message, descriptor, depth: depth)
        return message
    }

    private func readFields(_ object: JSONObject, into message: inout ProtoMessage, _ descriptor: MessageDescriptor, depth: Int, skipping skipped: String? = nil) throws(ProtoCodecError) {
        var seen: [Int: String] = [:]
        var oneofs: [Int: String] = [:]
        for (key, value) in object.members where key != skipped {
            guard let index = descriptor.fieldIndex(named: key) else {
                if options.ignoreUnknownFields { continue }
                let names = descriptor.fields.map(\.jsonName).joined(separator: ", ")
                throw ProtoCodecError("\(descriptor.fullName) has no field \(ProtoCodecError.quoted(key)) (its fields: \(names.isEmpty ? "none" : names))", path: [.field(key)])
            }
            let field = descriptor.fields[index]
            if let earlier = seen[index] {
                throw ProtoCodecError("the field is given twice (as \(ProtoCodecError.quoted(earlier)) and \(ProtoCodecError.quoted(key)))", path: [.field(key)])
            }
            seen[index] = key
            if let oneof = field.oneof, value != .null {
                if let other = oneofs[oneof] {
                    throw ProtoCodecError(
                        "\(ProtoCodecError.quoted(other)) and \(ProtoCodecError.quoted(key)) are both set, but only one field of the oneof '\(descriptor.oneofs[oneof].name)' may be",
                        path: [.field(key)])
                }
                oneofs[oneof] = key
            }
            do {
                try read(value, into: &message, index: index, field, descriptor, depth: depth)
            } catch {
                throw error.inside(.field(key))
            }
        }
        for (index, field) in descriptor.fields.enumerated() where options.checksRequiredFields && field.isRequired && message.values[index] == nil {
            throw ProtoCodecError("\(descriptor.fullName) requires the field \(ProtoCodecError.quoted(field.jsonName)), which is missing")
        }
    }

    private func read(_ json: JSONValue, into message: inout ProtoMessage, index: Int, _ field: FieldDescriptor, _ descriptor: MessageDescriptor, depth: Int) throws(ProtoCodecError) {
        if json == .null, !field.isRepeated {
            // null clears a field, but for the two types whose JSON null is a value.
            if case .message(let type) = field.type, pool[type].wellKnown == .value {
                message.set(index, .single(.message(try self.message(type, from: .null, depth: depth + 1))), descriptor: descriptor)
            } else if case .enumeration(let id) = field.type, pool[id].fullName == "google.protobuf.NullValue", field.hasPresence {
                message.set(index, .single(.enumeration(0)), descriptor: descriptor)
            } else {
                message.values[index] = nil
            }
            return
        }
        if json == .null { return }
        if let entryType = field.mapEntry {
            guard case .object(let object) = json else { throw Self.mismatch("an object (a map)", json) }
            let entry = pool[entryType]
            guard let keyIndex = entry.fieldIndex(number: 1), let valueIndex = entry.fieldIndex(number: 2) else { return }
            var map: [ProtoMapKey: ProtoValue] = [:]
            for (key, value) in object.members {
                do {
                    let keyValue = try mapKey(key, entry.fields[keyIndex].type)
                    map[ProtoMapKey(keyValue)] = try element(value, entry.fields[valueIndex], depth: depth)
                } catch {
                    throw error.inside(.key(key))
                }
            }
            message.values[index] = map.isEmpty ? nil : .map(map)
            return
        }
        if field.isRepeated {
            guard case .array(let elements) = json else { throw Self.mismatch("an array", json) }
            var values: [ProtoValue] = []
            values.reserveCapacity(elements.count)
            for (position, value) in elements.enumerated() {
                do {
                    values.append(try element(value, field, depth: depth))
                } catch {
                    throw error.inside(.index(position))
                }
            }
            message.values[index] = values.isEmpty ? nil : .list(values)
            return
        }
        let value = try element(json, field, depth: depth)
        if !field.hasPresence, value.isZero {
            message.values[index] = nil
        } else {
            message.set(index, .single(value), descriptor: descriptor)
        }
    }

    /// One value of a field: an element of a list or map, or a singular field's value.
    private func element(_ json: JSONValue, _ field: FieldDescriptor, depth: Int) throws(ProtoCodecError) -> ProtoValue {
        if case .message(let type) = field.type {
            if json == .null, pool[type].wellKnown != .value { throw ProtoCodecError("null is not a value here (only google.protobuf.Value takes null)") }
            return .message(try message(type, from: json, depth: depth + 1))
        }
        if json == .null { throw ProtoCodecError("null is not a value here") }
        return try scalar(json, field.type)
    }

    /// A map key: JSON writes every key as a string.
    private func mapKey(_ key: String, _ type: ProtoFieldType) throws(ProtoCodecError) -> ProtoValue {
        switch type {
        case .string: return .string(key)
        case .bool:
            switch key {
            case "true": return .bool(true)
            case "false": return .bool(false)
            default: throw ProtoCodecError("a bool map key must be \"true\" or \"false\", not \(ProtoCodecError.quoted(key))")
            }
        default: return try scalar(.string(key), type)
        }
    }

    /// A scalar or enum value from a JSON number, string or bool.
    func scalar(_ json: JSONValue, _ type: ProtoFieldType) throws(ProtoCodecError) -> ProtoValue {
        switch type {
        case .int32, .sint32, .sfixed32:
            return .int32(Int32(try integer(json, "int32", Int64(Int32.min), UInt64(Int32.max))))
        case .int64, .sint64, .sfixed64:
            return .int64(try integer(json, "int64", Int64.min, UInt64(Int64.max)))
        case .uint32, .fixed32:
            return .uint32(UInt32(try unsignedInteger(json, "uint32", UInt64(UInt32.max))))
        case .uint64, .fixed64:
            return .uint64(try unsignedInteger(json, "uint64", UInt64.max))
        case .float:
            let value = try floatingPoint(json, "float")
            // What rounds to the largest float is read as it (the reference refuses past its
            // exact value, and so its own "3.40282347e+38").
            if value.isFinite, !Float(value).isFinite {
                throw ProtoCodecError("\(Self.describe(json)) is out of range for a float")
            }
            return .float(Float(value))
        case .double: return .double(try floatingPoint(json, "double"))
        case .bool:
            guard case .bool(let value) = json else { throw Self.mismatch("true or false", json) }
            return .bool(value)
        case .string:
            guard case .string(let value) = json else { throw Self.mismatch("a string", json) }
            return .string(value)
        case .bytes:
            guard case .string(let text) = json else { throw Self.mismatch("a base64 string", json) }
            guard let bytes = Base64.decode(text) else { throw ProtoCodecError("\(Self.describe(json)) is not base64") }
            return .bytes(bytes)
        case .enumeration(let id):
            let enumeration = pool[id]
            var number: Int32
            if case .string(let name) = json, let named = enumeration.number(named: name) {
                number = named
            } else if case .string(let name) = json, (try? NumberText.integer(name)) == nil {
                let names = enumeration.values.prefix(20).map(\.name).joined(separator: ", ")
                throw ProtoCodecError("\(ProtoCodecError.quoted(name)) is no value of \(enumeration.fullName) (its values: \(names)\(enumeration.values.count > 20 ? ", …" : ""))")
            } else {
                do {
                    number = Int32(try integer(json, "enum number", Int64(Int32.min), UInt64(Int32.max)))
                } catch {
                    throw ProtoCodecError("expected a name of \(enumeration.fullName) or its number, got \(Self.describe(json))")
                }
                if enumeration.isClosed, enumeration.name(of: number) == nil {
                    throw ProtoCodecError("\(number) is no value of the closed enum \(enumeration.fullName)")
                }
            }
            return .enumeration(number)
        case .message: throw ProtoCodecError("a message where a scalar was expected")
        }
    }

    /// The sign and magnitude of an integer written as a number or a string.
    private func parsedInteger(_ json: JSONValue, _ typeName: String) throws(ProtoCodecError) -> (negative: Bool, magnitude: UInt64) {
        let text: String
        switch json {
        case .number(let literal): text = literal
        case .string(let string): text = string
        default: throw Self.mismatch("an integer (\(typeName))", json)
        }
        do {
            return try NumberText.integer(text)
        } catch {
            throw Self.integerProblem(error, json, typeName)
        }
    }

    private func integer(_ json: JSONValue, _ typeName: String, _ minimum: Int64, _ maximum: UInt64) throws(ProtoCodecError) -> Int64 {
        let parsed = try parsedInteger(json, typeName)
        if parsed.negative {
            guard parsed.magnitude <= minimum.magnitude else { throw Self.integerProblem(.outOfRange, json, typeName) }
            return parsed.magnitude == minimum.magnitude ? minimum : -Int64(parsed.magnitude)
        }
        guard parsed.magnitude <= maximum else { throw Self.integerProblem(.outOfRange, json, typeName) }
        return Int64(parsed.magnitude)
    }

    private func unsignedInteger(_ json: JSONValue, _ typeName: String, _ maximum: UInt64) throws(ProtoCodecError) -> UInt64 {
        let parsed = try parsedInteger(json, typeName)
        guard !parsed.negative || parsed.magnitude == 0, parsed.magnitude <= maximum else { throw Self.integerProblem(.outOfRange, json, typeName) }
        return parsed.magnitude
    }

    private static func integerProblem(_ problem: NumberText.IntegerProblem, _ json: JSONValue, _ typeName: String) -> ProtoCodecError {
        switch problem {
        case .notANumber: mismatch("an integer (\(typeName))", json)
        case .notIntegral: ProtoCodecError("\(describe(json)) is not a whole number (\(typeName))")
        case .outOfRange: ProtoCodecError("\(describe(json)) is out of range for \(typeName)")
        }
    }

    /// A float or double: a number, or a string holding a number, "NaN", "Infinity" or "-Infinity".
    private func floatingPoint(_ json: JSONValue, _ typeName: String) throws(ProtoCodecError) -> Double {
        let text: String
        switch json {
        case .number(let literal): text = literal
        case .string("NaN"): return .nan
        case .string("Infinity"): return .infinity
        case .string("-Infinity"): return -.infinity
        case .string(let string) where NumberText.isJSONNumber(string): text = string
        default: throw Self.mismatch("a number (\(typeName)), \"NaN\", \"Infinity\" or \"-Infinity\"", json)
        }
        guard let value = Double(text), value.isFinite else {
            throw ProtoCodecError("\(describe(json)) is out of range for a \(typeName) (write \"Infinity\" or \"-Infinity\" for infinities)")
        }
        return value
    }

    private func describe(_ json: JSONValue) -> String { Self.describe(json) }

    /// `expected a number, got "x"`.
    static func mismatch(_ expected: String, _ json: JSONValue) -> ProtoCodecError {
        ProtoCodecError("expected \(expected), got \(describe(json))")
    }

    /// A JSON value shown in an error: scalars as written (long strings cut), containers by kind.
    static func describe(_ json: JSONValue) -> String {
        switch json {
        case .string(let string):
            string.count > 40 ? ProtoCodecError.quoted(String(string.prefix(40))) + "…" : ProtoCodecError.quoted(string)
        case .array: "an array"
        case .object: "an object"
        default: json.compactText
        }
    }

    // MARK: Well-known types

    private func wellKnown(_ kind: WellKnownType, _ type: MessageID, _ descriptor: MessageDescriptor, from json: JSONValue, depth: Int) throws(ProtoCodecError) -> ProtoMessage {
        var message = ProtoMessage(type: type, in: pool)
        func set(_ number: Int32, _ value: ProtoFieldValue?) {
            guard let index = descriptor.fieldIndex(number: number) else { return }
            if case .single(let single)? = value, !descriptor.fields[index].hasPresence, single.isZero { return }
            if case .list(let values)? = value, values.isEmpty { return }
            message.set(index, value, descriptor: descriptor)
        }
        switch kind {
        case .timestamp, .duration:
            guard case .string(let text) = json else {
                throw Self.mismatch(kind == .timestamp ? "an RFC 3339 time string (Timestamp)" : "a duration string such as \"1.5s\" (Duration)", json)
            }
            let (seconds, nanos) = try kind == .timestamp ? WellKnownText.timestamp(text) : WellKnownText.duration(text)
            set(1, .single(.int64(seconds)))
            set(2, .single(.int32(nanos)))
        case .fieldMask:
            guard case .string(let text) = json else { throw Self.mismatch("a string of comma-separated paths (FieldMask)", json) }
            set(1, .list(try WellKnownText.fieldMask(text).map(ProtoValue.string)))
        case .wrapper:
            guard let index = descriptor.fieldIndex(number: 1) else { break }
            if json == .null { throw ProtoCodecError("null is not a value here") }
            set(1, .single(try scalar(json, descriptor.fields[index].type)))
        case .struct:
            guard case .object = json else { throw Self.mismatch("an object (Struct)", json) }
            guard let index = descriptor.fieldIndex(number: 1) else { break }
            try read(json, into: &message, index: index, descriptor.fields[index], descriptor, depth: depth)
        case .listValue:
            guard case .array = json else { throw Self.mismatch("an array (ListValue)", json) }
            guard let index = descriptor.fieldIndex(number: 1) else { break }
            try read(json, into: &message, index: index, descriptor.fields[index], descriptor, depth: depth)
        case .value:
            let number: Int32
            let value: ProtoValue
            switch json {
            case .null: (number, value) = (1, .enumeration(0))
            case .number(let literal): (number, value) = (2, .double(Double(literal) ?? .nan))
            case .string(let string): (number, value) = (3, .string(string))
            case .bool(let bool): (number, value) = (4, .bool(bool))
            case .object, .array:
                number = json.isObject ? 5 : 6
                guard let index = descriptor.fieldIndex(number: number), case .message(let inner) = descriptor.fields[index].type else { return message }
                value = .message(try self.message(inner, from: json, depth: depth + 1))
            }
            if let index = descriptor.fieldIndex(number: number) { message.set(index, .single(value), descriptor: descriptor) }
        case .empty:
            guard case .object(let object) = json else { throw Self.mismatch("an object (Empty)", json) }
            try readFields(object, into: &message, descriptor, depth: depth)
        case .any: try any(json, into: &message, descriptor, depth: depth)
        }
        return message
    }

    /// `{}`, `{"@type": URL, …fields}` or `{"@type": URL, "value": …}` for a well-known type inside.
    private func any(_ json: JSONValue, into message: inout ProtoMessage, _ descriptor: MessageDescriptor, depth: Int) throws(ProtoCodecError) {
        guard case .object(let object) = json else { throw Self.mismatch("an object with \"@type\" (Any)", json) }
        if object.isEmpty { return }
        guard let typeValue = object["@type"] else { throw ProtoCodecError("an Any needs \"@type\", the type URL of what it holds") }
        guard case .string(let url) = typeValue else { throw Self.mismatch("a type URL string", typeValue).inside(.field("@type")) }
        let type: MessageID
        do {
            type = try pool.anyType(url)
        } catch {
            throw error.inside(.field("@type"))
        }
        let inner: ProtoMessage
        if pool[type].hasCustomJSON {
            for key in object.keys where key != "@type" && key != "value" {
                throw ProtoCodecError("an Any holding \(pool[type].fullName) has its JSON under \"value\" alone", path: [.field(key)])
            }
            guard let value = object["value"] else { throw ProtoCodecError("an Any holding \(pool[type].fullName) needs \"value\"") }
            do {
                inner = try self.message(type, from: value, depth: depth + 1)
            } catch {
                throw error.inside(.field("value"))
            }
        } else {
            guard depth + 1 < options.depthLimit else { throw ProtoCodecError("messages nested deeper than \(options.depthLimit) levels") }
            var regular = ProtoMessage(type: type, in: pool)
            try readFields(object, into: &regular, pool[type], depth: depth + 1, skipping: "@type")
            inner = regular
        }
        if let index = descriptor.fieldIndex(number: 1) { message.set(index, .single(.string(url)), descriptor: descriptor) }
        let bytes = pool.encode(inner)
        if !bytes.isEmpty, let index = descriptor.fieldIndex(number: 2) { message.set(index, .single(.bytes(bytes)), descriptor: descriptor) }
    }
}

extension JSONValue {
    fileprivate var isObject: Bool { if case .object = self { true } else { false } }
}
