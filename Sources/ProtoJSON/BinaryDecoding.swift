import FoundationEssentials

extension DescriptorPool {
    /// The deepest nesting of messages read or written (the reference implementation's default).
    package static let defaultDepthLimit = 100

    /// Reads a message of `type` from protobuf's binary form. Fields the descriptor does not know
    /// (and numbers a closed enum does not name) are kept as unknown fields; a field whose wire type
    /// does not fit its declaration is kept the same way, as protobuf's own parsers do.
    package func decode(_ bytes: [UInt8], as type: MessageID, depthLimit: Int = DescriptorPool.defaultDepthLimit) throws(ProtoCodecError) -> ProtoMessage {
        try BinaryDecoder(pool: self, depthLimit: depthLimit).message(type, from: bytes, depth: 0)
    }

    /// Reads a message of `type` from protobuf's binary form.
    package func decode(_ data: Data, as type: MessageID, depthLimit: Int = DescriptorPool.defaultDepthLimit) throws(ProtoCodecError) -> ProtoMessage {
        try decode([UInt8](data), as: type, depthLimit: depthLimit)
    }
}

/// Reads binary messages by descriptor.
struct BinaryDecoder {
    let pool: DescriptorPool
    let depthLimit: Int

    /// A whole message of `type` from `bytes`, nested `depth` levels deep in what is being read.
    func message(_ type: MessageID, from bytes: [UInt8], depth: Int) throws(ProtoCodecError) -> ProtoMessage {
        do {
            return try bytes.withUnsafeBytes { buffer in
                var reader = WireReader(buffer)
                return try message(type, from: &reader, depth: depth, group: nil)
            }
        } catch let error as ProtoCodecError {
            throw error
        } catch {
            throw ProtoCodecError("\(error)")
        }
    }

    func message(_ type: MessageID, from reader: inout WireReader, depth: Int, group: Int32?) throws(ProtoCodecError) -> ProtoMessage {
        // As upb counts: the root and `depthLimit` levels of messages inside it.
        guard depth <= depthLimit else { throw ProtoCodecError("messages nested deeper than \(depthLimit) levels") }
        let descriptor = pool[type]
        var message = ProtoMessage(type: type, in: pool)
        while !reader.isAtEnd {
            let tagStart = reader.position
            let (number, wireType) = try reader.readTag()
            if wireType == .endGroup {
                guard group == number else { throw ProtoCodecError("an end of group \(number) that no group started (at byte \(tagStart))") }
                return message
            }
            guard let index = descriptor.fieldIndex(number: number) else {
                try reader.skip(wireType, number: number, depth: depth, limit: depthLimit)
                message.unknownFields.append(contentsOf: reader.bytes[tagStart..<reader.position])
                continue
            }
            let field = descriptor.fields[index]
            do {
                try read(field, index: index, wireType: wireType, tagStart: tagStart, from: &reader, into: &message, descriptor: descriptor, depth: depth)
            } catch {
                // An element of a list is named by its position.
                if field.isRepeated, !field.isMap, wireType != .lengthDelimited || !field.type.isPackable {
                    let count = if case .list(let values)? = message.values[index] { values.count } else { 0 }
                    throw error.inside(.index(count)).inside(.field(field.jsonName))
                }
                throw error.inside(.field(field.jsonName))
            }
        }
        if let group { throw ProtoCodecError("group \(group) has no end") }
        return message
    }

    /// The wire type a single value of `field` is written with.
    static func wireType(of field: FieldDescriptor) -> WireType {
        switch field.type {
        case .int32, .int64, .uint32, .uint64, .sint32, .sint64, .bool, .enumeration: .varint
        case .fixed64, .sfixed64, .double: .fixed64
        case .fixed32, .sfixed32, .float: .fixed32
        case .string, .bytes: .lengthDelimited
        case .message: field.isDelimited ? .startGroup : .lengthDelimited
        }
    }

    private func read(
        _ field: FieldDescriptor, index: Int, wireType: WireType, tagStart: Int, from reader: inout WireReader, into message: inout ProtoMessage,
        descriptor: MessageDescriptor, depth: Int
    ) throws(ProtoCodecError) {
        let expected = Self.wireType(of: field)
        if field.isRepeated, field.type.isPackable, wireType == .lengthDelimited {
            let length = try reader.readLength()
            let savedEnd = reader.end
            reader.end = reader.position + length
            var values: [ProtoValue] = []
            while !reader.isAtEnd {
                let valueStart = reader.position
                let value = try scalar(field, expected, from: &reader)
                if case .enumeration(let number) = value, isUnknown(number, field) {
                    var writer = WireWriter()
                    writer.writeTag(field.number, .varint)
                    writer.bytes.append(contentsOf: reader.bytes[valueStart..<reader.position])
                    message.unknownFields.append(contentsOf: writer.bytes)
                } else {
                    values.append(value)
                }
            }
            reader.end = savedEnd
            append(values, at: index, to: &message)
            return
        }
        guard wireType == expected else {
            try reader.skip(wireType, number: field.number, depth: depth, limit: depthLimit)
            message.unknownFields.append(contentsOf: reader.bytes[tagStart..<reader.position])
            return
        }
        if let entryType = field.mapEntry {
            let entry = try nested(entryType, field: field, from: &reader, depth: depth)
            try insert(entry, entryType: entryType, at: index, into: &message)
            return
        }
        let value: ProtoValue
        if case .message(let type) = field.type {
            var nestedMessage = try nested(type, field: field, from: &reader, depth: depth)
            if !field.isRepeated, case .single(.message(let existing))? = message.values[index] {
                // A message field written twice is the two merged.
                var merged = existing
                message.values[index] = nil
                merge(&merged, with: nestedMessage)
                nestedMessage = merged
            }
            value = .message(nestedMessage)
        } else {
            value = try scalar(field, expected, from: &reader)
            if case .enumeration(let number) = value, isUnknown(number, field) {
                message.unknownFields.append(contentsOf: reader.bytes[tagStart..<reader.position])
                return
            }
        }
        if field.isRepeated {
            append([value], at: index, to: &message)
        } else if !field.hasPresence, value.isZero {
            message.values[index] = nil
        } else {
            message.set(index, .single(value), descriptor: descriptor)
        }
    }

    /// Whether `number` is one a closed enum field does not name (kept with the unknown fields).
    private func isUnknown(_ number: Int32, _ field: FieldDescriptor) -> Bool {
        guard case .enumeration(let id) = field.type else { return false }
        let enumeration = pool[id]
        return enumeration.isClosed && enumeration.name(of: number) == nil
    }

    private func nested(_ type: MessageID, field: FieldDescriptor, from reader: inout WireReader, depth: Int) throws(ProtoCodecError) -> ProtoMessage {
        if field.isDelimited {
            return try message(type, from: &reader, depth: depth + 1, group: field.number)
        }
        let length = try reader.readLength()
        let savedEnd = reader.end
        reader.end = reader.position + length
        let result = try message(type, from: &reader, depth: depth + 1, group: nil)
        reader.end = savedEnd
        return result
    }

    private func append(_ values: [ProtoValue], at index: Int, to message: inout ProtoMessage) {
        guard !values.isEmpty else { return }
        guard case .list(var list)? = message.values[index] else {
            message.values[index] = .list(values)
            return
        }
        // Emptied first, so that the list is not copied to grow.
        message.values[index] = nil
        list.append(contentsOf: values)
        message.values[index] = .list(list)
    }

    private func insert(_ entry: ProtoMessage, entryType: MessageID, at index: Int, into message: inout ProtoMessage) throws(ProtoCodecError) {
        let entryDescriptor = pool[entryType]
        guard let keyIndex = entryDescriptor.fieldIndex(number: 1), let valueIndex = entryDescriptor.fieldIndex(number: 2) else { return }
        let keyField = entryDescriptor.fields[keyIndex]
        let valueField = entryDescriptor.fields[valueIndex]
        func single(_ value: ProtoFieldValue?) -> ProtoValue? {
            if case .single(let value)? = value { return value }
            return nil
        }
        let key = ProtoMapKey(single(entry.values[keyIndex]) ?? pool.zero(of: keyField))
        let value = single(entry.values[valueIndex]) ?? pool.zero(of: valueField)
        guard case .map(var map)? = message.values[index] else {
            message.values[index] = .map([key: value])
            return
        }
        message.values[index] = nil
        map[key] = value
        message.values[index] = .map(map)
    }

    /// One value of a scalar field (or an enum).
    private func scalar(_ field: FieldDescriptor, _ wireType: WireType, from reader: inout WireReader) throws(ProtoCodecError) -> ProtoValue {
        switch field.type {
        case .int32: return .int32(Int32(truncatingIfNeeded: try reader.readVarint()))
        case .int64: return .int64(Int64(bitPattern: try reader.readVarint()))
        case .uint32: return .uint32(UInt32(truncatingIfNeeded: try reader.readVarint()))
        case .uint64: return .uint64(try reader.readVarint())
        case .sint32: return .int32(ZigZag.decode32(UInt32(truncatingIfNeeded: try reader.readVarint())))
        case .sint64: return .int64(ZigZag.decode64(try reader.readVarint()))
        case .bool: return .bool(try reader.readVarint() != 0)
        case .enumeration: return .enumeration(Int32(truncatingIfNeeded: try reader.readVarint()))
        case .fixed32: return .uint32(try reader.readFixed32())
        case .sfixed32: return .int32(Int32(bitPattern: try reader.readFixed32()))
        case .float: return .float(Float(bitPattern: try reader.readFixed32()))
        case .fixed64: return .uint64(try reader.readFixed64())
        case .sfixed64: return .int64(Int64(bitPattern: try reader.readFixed64()))
        case .double: return .double(Double(bitPattern: try reader.readFixed64()))
        case .bytes:
            let length = try reader.readLength()
            return .bytes([UInt8](reader.readBytes(length)))
        case .string:
            let start = reader.position
            let length = try reader.readLength()
            let raw = reader.readBytes(length)
            guard let text = String(validating: raw, as: UTF8.self) else {
                throw ProtoCodecError("the string is not valid UTF-8 (at byte \(start))")
            }
            return .string(text)
        case .message: throw ProtoCodecError("a message where a scalar was expected")
        }
    }

    /// `other` merged into `message`: scalars replaced, lists appended, maps and messages merged.
    func merge(_ message: inout ProtoMessage, with other: ProtoMessage) {
        let descriptor = pool[message.type]
        for (index, value) in other.values.enumerated() {
            guard let value else { continue }
            switch value {
            case .list(let values): append(values, at: index, to: &message)
            case .map(let entries):
                guard case .map(var map)? = message.values[index] else {
                    message.values[index] = value
                    continue
                }
                message.values[index] = nil
                map.merge(entries) { _, new in new }
                message.values[index] = .map(map)
            case .single(.message(let incoming)):
                if case .single(.message(var existing))? = message.values[index] {
                    message.values[index] = nil
                    merge(&existing, with: incoming)
                    message.values[index] = .single(.message(existing))
                } else {
                    message.set(index, value, descriptor: descriptor)
                }
            case .single: message.set(index, value, descriptor: descriptor)
            }
        }
        message.unknownFields.append(contentsOf: other.unknownFields)
    }
}

extension ProtoMapKey {
    /// The key of a map entry's key value.
    init(_ value: ProtoValue) {
        switch value {
        case .bool(let bool): self = .bool(bool)
        case .int32(let int): self = .int(Int64(int))
        case .int64(let int): self = .int(int)
        case .uint32(let uint): self = .uint(UInt64(uint))
        case .uint64(let uint): self = .uint(uint)
        case .string(let string): self = .string(string)
        default: self = .string("")
        }
    }

    /// The key as a value of the key field's type.
    func value(as type: ProtoFieldType) -> ProtoValue {
        switch (self, type) {
        case (.bool(let bool), _): .bool(bool)
        case (.int(let int), .int64), (.int(let int), .sint64), (.int(let int), .sfixed64): .int64(int)
        case (.int(let int), _): .int32(Int32(truncatingIfNeeded: int))
        case (.uint(let uint), .uint64), (.uint(let uint), .fixed64): .uint64(uint)
        case (.uint(let uint), _): .uint32(UInt32(truncatingIfNeeded: uint))
        case (.string(let string), _): .string(string)
        }
    }

    /// The key as JSON writes it: a string.
    var text: String {
        switch self {
        case .bool(let bool): bool ? "true" : "false"
        case .int(let int): String(int)
        case .uint(let uint): String(uint)
        case .string(let string): string
        }
    }
}

extension DescriptorPool {
    /// The zero value of a field's type (an empty message for a message type).
    func zero(of field: FieldDescriptor) -> ProtoValue {
        switch field.type {
        case .int32, .sint32, .sfixed32: .int32(0)
        case .int64, .sint64, .sfixed64: .int64(0)
        case .uint32, .fixed32: .uint32(0)
        case .uint64, .fixed64: .uint64(0)
        case .float: .float(0)
        case .double: .double(0)
        case .bool: .bool(false)
        case .string: .string("")
        case .bytes: .bytes([])
        case .enumeration(let id): .enumeration(self[id].defaultNumber)
        case .message(let type): .message(ProtoMessage(type: type, in: self))
        }
    }
}
