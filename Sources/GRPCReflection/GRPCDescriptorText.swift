import SwiftProtobuf

/// grpcurl's `list` and `describe` over a descriptor set, as text. Pure.
package enum GRPCDescriptorText {
    /// `list`: every service's full name; `list SERVICE`: its methods' full names. Sorted, as grpcurl.
    package static func list(_ index: GRPCDescriptorIndex, service: String? = nil) throws(GRPCDescriptorError) -> [String] {
        guard let service else { return index.serviceNames }
        guard case .service(let descriptor)? = index.symbol(service)?.symbol else {
            throw GRPCDescriptorError(.symbolNotFound, "There is no service '\(service)' in the descriptors (services: \(index.serviceNames.joined(separator: ", "))).")
        }
        let name = service.hasPrefix(".") ? String(service.dropFirst()) : service
        return descriptor.method.map { "\(name).\($0.name)" }.sorted()
    }

    /// `describe`: every service; `describe SYMBOL`: that service, method, message, enum, field or
    /// enum value, as grpcurl prints it (`X is a message:` then its proto source).
    package static func describe(_ index: GRPCDescriptorIndex, symbol: String? = nil) throws(GRPCDescriptorError) -> String {
        guard let symbol else {
            var parts: [String] = []
            for name in index.serviceNames { parts.append(try describe(index, symbol: name)) }
            return parts.joined()
        }
        let name = symbol.hasPrefix(".") ? String(symbol.dropFirst()) : symbol
        guard let (found, _) = index.symbol(name) else {
            throw GRPCDescriptorError(.symbolNotFound, "There is no symbol '\(name)' in the descriptors.")
        }
        var lines: [String]
        switch found {
        case .service(let service):
            lines = ["\(name) is a service:"] + Self.service(service)
        case .method(let method, _):
            lines = ["\(name) is a method:", Self.method(method)]
        case .message(let message):
            lines = ["\(name) is a message:"] + Self.message(message)
        case .enumeration(let enumeration):
            lines = ["\(name) is an enum:"] + Self.enumeration(enumeration)
        case .field(let field, let message):
            let entries = index.symbol(message).flatMap { entry -> Google_Protobuf_DescriptorProto? in
                if case .message(let message) = entry.symbol { return message }
                return nil
            }
            lines = ["\(name) is a field:", Self.field(field, in: entries)]
        case .enumValue(let value, _):
            lines = ["\(name) is an enum value:", "\(value.name) = \(value.number);"]
        case .extension(let field):
            lines = ["\(name) is an extension:", "extend \(field.extendee) {", "  " + Self.field(field, in: nil), "}"]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: Proto source

    static func service(_ service: Google_Protobuf_ServiceDescriptorProto) -> [String] {
        ["service \(service.name) {"] + service.method.map { "  " + method($0) } + ["}"]
    }

    static func method(_ method: Google_Protobuf_MethodDescriptorProto) -> String {
        let input = (method.clientStreaming ? "stream " : "") + method.inputType
        let output = (method.serverStreaming ? "stream " : "") + method.outputType
        return "rpc \(method.name) ( \(input) ) returns ( \(output) );"
    }

    static func message(_ message: Google_Protobuf_DescriptorProto) -> [String] {
        var body: [String] = []
        // Map fields' entry types are written as map<K, V>, not as nested messages.
        let mapEntries = Set(message.nestedType.filter(\.options.mapEntry).map(\.name))
        var writtenOneofs: Set<Int32> = []
        for field in message.field {
            if field.hasOneofIndex, !field.proto3Optional, Int(field.oneofIndex) < message.oneofDecl.count {
                let oneof = field.oneofIndex
                guard writtenOneofs.insert(oneof).inserted else { continue }
                body.append("oneof \(message.oneofDecl[Int(oneof)].name) {")
                for member in message.field where member.hasOneofIndex && member.oneofIndex == oneof {
                    body.append("  " + Self.field(member, in: message))
                }
                body.append("}")
            } else {
                body.append(Self.field(field, in: message))
            }
        }
        for nested in message.nestedType where !mapEntries.contains(nested.name) { body += Self.message(nested) }
        for enumeration in message.enumType { body += Self.enumeration(enumeration) }
        for range in message.reservedRange {
            body.append(range.end - 1 == range.start ? "reserved \(range.start);" : "reserved \(range.start) to \(range.end - 1);")
        }
        if !message.reservedName.isEmpty {
            body.append("reserved " + message.reservedName.map { "\"\($0)\"" }.joined(separator: ", ") + ";")
        }
        return ["message \(message.name) {"] + body.map { "  " + $0 } + ["}"]
    }

    static func enumeration(_ enumeration: Google_Protobuf_EnumDescriptorProto) -> [String] {
        ["enum \(enumeration.name) {"] + enumeration.value.map { "  \($0.name) = \($0.number);" } + ["}"]
    }

    /// One field as its declaration: `repeated string tags = 3;`, `map<string, int32> counts = 4;`.
    static func field(_ field: Google_Protobuf_FieldDescriptorProto, in message: Google_Protobuf_DescriptorProto?) -> String {
        var options: [String] = []
        if field.options.deprecated { options.append("deprecated = true") }
        if field.hasJsonName, field.jsonName != defaultJSONName(field.name) { options.append("json_name = \"\(field.jsonName)\"") }
        let suffix = options.isEmpty ? "" : " [\(options.joined(separator: ", "))]"
        if field.label == .repeated, field.type == .message, let entry = mapEntry(field.typeName, in: message),
            let key = entry.field.first(where: { $0.number == 1 }), let value = entry.field.first(where: { $0.number == 2 })
        {
            return "map<\(typeName(key)), \(typeName(value))> \(field.name) = \(field.number)\(suffix);"
        }
        let label: String =
            switch field.label {
            case .repeated: "repeated "
            case .required: "required "
            case .optional: field.proto3Optional ? "optional " : ""
            }
        return "\(label)\(typeName(field)) \(field.name) = \(field.number)\(suffix);"
    }

    /// The type as written in a declaration: a scalar's name, or a message's or enum's full name with its leading dot.
    static func typeName(_ field: Google_Protobuf_FieldDescriptorProto) -> String {
        switch field.type {
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
        case .group, .message, .enum: field.typeName
        }
    }

    /// The nested map-entry message a field's type names, when the field is in `message`.
    private static func mapEntry(_ typeName: String, in message: Google_Protobuf_DescriptorProto?) -> Google_Protobuf_DescriptorProto? {
        guard let message, let last = typeName.split(separator: ".").last else { return nil }
        return message.nestedType.first { $0.name == last && $0.options.mapEntry }
    }

    /// protoc's JSON name for a field: lowerCamelCase of its name.
    static func defaultJSONName(_ name: String) -> String {
        var result = ""
        var upperNext = false
        for character in name {
            if character == "_" {
                upperNext = true
            } else if upperNext {
                result += character.uppercased()
                upperNext = false
            } else {
                result.append(character)
            }
        }
        return result
    }
}
