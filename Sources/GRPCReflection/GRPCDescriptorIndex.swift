import SwiftProtobuf

/// A descriptor set with its symbols found by full name: services and methods, messages (nested
/// too), enums and fields, each with the file that defines it.
package struct GRPCDescriptorIndex: Sendable {
    /// What a full name names.
    package enum Symbol: Sendable {
        case service(Google_Protobuf_ServiceDescriptorProto)
        case method(Google_Protobuf_MethodDescriptorProto, service: String)
        case message(Google_Protobuf_DescriptorProto)
        case enumeration(Google_Protobuf_EnumDescriptorProto)
        case field(Google_Protobuf_FieldDescriptorProto, message: String)
        case enumValue(Google_Protobuf_EnumValueDescriptorProto, enumeration: String)
        case `extension`(Google_Protobuf_FieldDescriptorProto)
    }

    package let set: Google_Protobuf_FileDescriptorSet
    /// Full name (no leading dot) → the symbol and the name of the file that defines it.
    private var symbols: [String: (symbol: Symbol, file: String)] = [:]
    private var filesByName: [String: Google_Protobuf_FileDescriptorProto] = [:]
    /// Services' full names, sorted.
    package private(set) var serviceNames: [String] = []

    package init(_ set: Google_Protobuf_FileDescriptorSet) {
        self.set = set
        for file in set.file {
            filesByName[file.name] = file
            let scope = file.package.isEmpty ? "" : file.package + "."
            for service in file.service {
                let name = scope + service.name
                symbols[name] = (.service(service), file.name)
                serviceNames.append(name)
                for method in service.method {
                    symbols[name + "." + method.name] = (.method(method, service: name), file.name)
                }
            }
            for message in file.messageType { index(message, scope: scope, file: file.name) }
            for enumeration in file.enumType { index(enumeration, scope: scope, file: file.name) }
            for field in file.extension { symbols[scope + field.name] = (.extension(field), file.name) }
        }
        serviceNames.sort()
    }

    private mutating func index(_ message: Google_Protobuf_DescriptorProto, scope: String, file: String) {
        let name = scope + message.name
        symbols[name] = (.message(message), file)
        for field in message.field { symbols[name + "." + field.name] = (.field(field, message: name), file) }
        for nested in message.nestedType { index(nested, scope: name + ".", file: file) }
        for enumeration in message.enumType { index(enumeration, scope: name + ".", file: file) }
        for field in message.extension { symbols[name + "." + field.name] = (.extension(field), file) }
    }

    private mutating func index(_ enumeration: Google_Protobuf_EnumDescriptorProto, scope: String, file: String) {
        let name = scope + enumeration.name
        symbols[name] = (.enumeration(enumeration), file)
        for value in enumeration.value { symbols[name + "." + value.name] = (.enumValue(value, enumeration: name), file) }
    }

    /// The symbol a full name names (a leading dot is allowed), with its file's name.
    package func symbol(_ name: String) -> (symbol: Symbol, file: String)? {
        symbols[name.hasPrefix(".") ? String(name.dropFirst()) : name]
    }

    /// The file of this name.
    package func file(named name: String) -> Google_Protobuf_FileDescriptorProto? {
        filesByName[name]
    }

    /// The file and the files it imports, directly or not, dependencies first, each once.
    package func fileWithDependencies(_ name: String) -> [Google_Protobuf_FileDescriptorProto] {
        var ordered: [Google_Protobuf_FileDescriptorProto] = []
        var seen: Set<String> = []
        func visit(_ name: String) {
            guard seen.insert(name).inserted, let file = filesByName[name] else { return }
            file.dependency.forEach(visit)
            ordered.append(file)
        }
        visit(name)
        return ordered
    }

    /// Extensions of `message` (a full name), with the file of each.
    package func extensions(of message: String) -> [(field: Google_Protobuf_FieldDescriptorProto, file: String)] {
        let wanted = "." + (message.hasPrefix(".") ? String(message.dropFirst()) : message)
        return symbols.values.compactMap { entry in
            guard case .extension(let field) = entry.symbol, field.extendee == wanted else { return nil }
            return (field, entry.file)
        }.sorted { $0.field.number < $1.field.number }
    }
}
