extension DescriptorPool {
    /// Writes a message in protobuf's binary form: fields in number order, map entries in key order,
    /// repeated numbers packed where the field says so, unknown fields last, as they were read.
    package func encode(_ message: ProtoMessage) -> [UInt8] {
        var writer = WireWriter()
        BinaryEncoder(pool: self).write(message, to: &writer)
        return writer.bytes
    }
}

/// Writes binary messages by descriptor.
struct BinaryEncoder {
    let pool: DescriptorPool

    func write(_ message: ProtoMessage, to writer: inout WireWriter) {
        let descriptor = pool[message.type]
        for index in descriptor.fieldsByNumber {
            guard let value = message.values[index] else { continue }
            let field = descriptor.fields[index]
            switch value {
            case .single(let value): write(value, of: field, to: &writer)
            case .list(let values):
                if field.isPacked {
                    guard !values.isEmpty else { continue }
                    writer.writeTag(field.number, .lengthDelimited)
                    writer.writeLengthPrefixed { (inner: inout WireWriter) in
                        for value in values { writeBare(value, type: field.type, delimited: false, to: &inner) }
                    }
                } else {
                    for value in values { write(value, of: field, to: &writer) }
                }
            case .map(let entries):
                guard let entryType = field.mapEntry else { continue }
                let entry = pool[entryType]
                guard let keyIndex = entry.fieldIndex(number: 1), let valueIndex = entry.fieldIndex(number: 2) else { continue }
                let keyField = entry.fields[keyIndex]
                let valueField = entry.fields[valueIndex]
                for key in entries.keys.sorted() {
                    writer.writeTag(field.number, .lengthDelimited)
                    writer.writeLengthPrefixed { (inner: inout WireWriter) in
                        write(key.value(as: keyField.type), of: keyField, to: &inner)
                        write(entries[key] ?? pool.zero(of: valueField), of: valueField, to: &inner)
                    }
                }
            }
        }
        writer.bytes.append(contentsOf: message.unknownFields)
    }

    /// A value with its tag.
    private func write(_ value: ProtoValue, of field: FieldDescriptor, to writer: inout WireWriter) {
        let wireType = BinaryDecoder.wireType(of: field)
        writer.writeTag(field.number, wireType)
        writeBare(value, type: field.type, delimited: field.isDelimited, to: &writer)
        if wireType == .startGroup { writer.writeTag(field.number, .endGroup) }
    }

    /// A value without its tag.
    private func writeBare(_ value: ProtoValue, type: ProtoFieldType, delimited: Bool, to writer: inout WireWriter) {
        switch (type, value) {
        case (.int32, _), (.int64, _), (.uint32, _), (.uint64, _), (.bool, _), (.enumeration, _): writer.writeVarint(Self.bits(value))
        case (.sint32, _): writer.writeVarint(ZigZag.encode32(Int32(truncatingIfNeeded: Int64(bitPattern: Self.bits(value)))))
        case (.sint64, _): writer.writeVarint(ZigZag.encode64(Int64(bitPattern: Self.bits(value))))
        case (.fixed32, _), (.sfixed32, _), (.float, _): writer.writeFixed32(UInt32(truncatingIfNeeded: Self.bits(value)))
        case (.fixed64, _), (.sfixed64, _), (.double, _): writer.writeFixed64(Self.bits(value))
        case (.string, .string(let text)): writer.writeLengthDelimited(text.utf8)
        case (.bytes, .bytes(let bytes)): writer.writeLengthDelimited(bytes)
        case (.message, .message(let message)):
            if delimited {
                write(message, to: &writer)
            } else {
                writer.writeLengthPrefixed { (inner: inout WireWriter) in write(message, to: &inner) }
            }
        case (.string, _), (.bytes, _), (.message, _): writer.writeVarint(0)
        }
    }

    /// A number's bits as the wire writes them: signed 32-bit values sign-extended to 64 bits,
    /// floating-point values as their IEEE bits.
    static func bits(_ value: ProtoValue) -> UInt64 {
        switch value {
        case .int32(let value): UInt64(bitPattern: Int64(value))
        case .int64(let value): UInt64(bitPattern: value)
        case .uint32(let value): UInt64(value)
        case .uint64(let value): value
        case .float(let value): UInt64(value.bitPattern)
        case .double(let value): value.bitPattern
        case .bool(let value): value ? 1 : 0
        case .enumeration(let value): UInt64(bitPattern: Int64(value))
        case .string, .bytes, .message: 0
        }
    }
}
