import FoundationEssentials
import SwiftProtobuf

/// Why a descriptor set cannot be used: it names the file, type or field at fault.
package struct DescriptorError: Error, Sendable, Hashable, CustomStringConvertible {
    package let reason: String

    package init(_ reason: String) { self.reason = reason }

    package var description: String { reason }
}

/// Every message, enum and service of a descriptor set (`protoc --include_imports
/// --descriptor_set_out`, or the files reflection returned), with names resolved and checked,
/// ready for encoding and decoding messages by type at run time.
package struct DescriptorPool: Sendable {
    package let files: [FileSummary]
    /// The files as they were given (for `describe`, and to keep beside a catalog).
    package let fileDescriptors: [Google_Protobuf_FileDescriptorProto]
    package let messages: [MessageDescriptor]
    package let enums: [EnumDescriptor]
    package let services: [ServiceDescriptor]
    let messagesByName: [String: MessageID]
    let enumsByName: [String: EnumID]
    let servicesByName: [String: Int]

    /// Reads a serialized `google.protobuf.FileDescriptorSet`.
    package init(protoset: Data) throws(DescriptorError) {
        let set: Google_Protobuf_FileDescriptorSet
        do {
            set = try Google_Protobuf_FileDescriptorSet(serializedBytes: protoset)
        } catch {
            throw DescriptorError("the descriptor set is damaged: it does not read as a google.protobuf.FileDescriptorSet (\(error))")
        }
        try self.init(files: set.file)
    }

    /// Reads a serialized `google.protobuf.FileDescriptorSet`.
    package init(protoset: [UInt8]) throws(DescriptorError) {
        try self.init(protoset: Data(protoset))
    }

    /// Resolves `files` (in any order; each file's imports must be among them).
    package init(files: [Google_Protobuf_FileDescriptorProto]) throws(DescriptorError) {
        var builder = PoolBuilder()
        try builder.add(files)
        try builder.resolve()
        self.files = builder.summaries
        self.fileDescriptors = builder.files
        self.messages = builder.messages
        self.enums = builder.enums
        self.services = builder.services
        self.messagesByName = builder.messageIDs
        self.enumsByName = builder.enumIDs
        self.servicesByName = Dictionary(builder.services.enumerated().map { ($1.fullName, $0) }, uniquingKeysWith: { first, _ in first })
    }

    package subscript(id: MessageID) -> MessageDescriptor { messages[id.index] }
    package subscript(id: EnumID) -> EnumDescriptor { enums[id.index] }

    /// The message type with the fully qualified name (a leading dot is allowed).
    package func messageID(named name: String) -> MessageID? { messagesByName[Self.trimmed(name)] }

    /// The enum type with the fully qualified name.
    package func enumID(named name: String) -> EnumID? { enumsByName[Self.trimmed(name)] }

    /// The message type named `name`, or an error that says it is not in the set.
    package func messageType(named name: String) throws(DescriptorError) -> MessageID {
        guard let id = messageID(named: name) else {
            throw DescriptorError("no message type '\(Self.trimmed(name))' in the descriptor set")
        }
        return id
    }

    /// The service with the fully qualified name.
    package func service(named name: String) -> ServiceDescriptor? {
        servicesByName[Self.trimmed(name)].map { services[$0] }
    }

    /// A method named `package.Service/Method`, `package.Service.Method` or `/package.Service/Method`.
    package func method(named name: String) -> MethodDescriptor? {
        var name = Self.trimmed(name)
        if name.hasPrefix("/") { name.removeFirst() }
        let separator = name.lastIndex(of: "/") ?? name.lastIndex(of: ".")
        guard let separator else { return nil }
        let methodName = name[name.index(after: separator)...]
        return service(named: String(name[..<separator]))?.methods.first { $0.name == methodName }
    }

    private static func trimmed(_ name: String) -> String {
        name.hasPrefix(".") ? String(name.dropFirst()) : name
    }
}

/// Features that decide how a field is written, resolved from the file's syntax or edition down
/// through the enclosing messages to the field.
private struct Features {
    var explicitPresence: Bool
    var legacyRequired = false
    var closedEnums: Bool
    var packed: Bool
    var validatesUTF8: Bool
    var delimited = false

    static let proto2 = Features(explicitPresence: true, closedEnums: true, packed: false, validatesUTF8: false)
    static let proto3 = Features(explicitPresence: false, closedEnums: false, packed: true, validatesUTF8: true)
    static let editions = Features(explicitPresence: true, closedEnums: false, packed: true, validatesUTF8: true)

    /// These features with the ones `set` names replacing them.
    func merged(_ set: Google_Protobuf_FeatureSet?) -> Features {
        guard let set else { return self }
        var result = self
        if set.hasFieldPresence {
            switch set.fieldPresence {
            case .explicit: result.explicitPresence = true; result.legacyRequired = false
            case .implicit: result.explicitPresence = false; result.legacyRequired = false
            case .legacyRequired: result.explicitPresence = true; result.legacyRequired = true
            default: break
            }
        }
        if set.hasEnumType { result.closedEnums = set.enumType == .closed }
        if set.hasRepeatedFieldEncoding { result.packed = set.repeatedFieldEncoding == .packed }
        if set.hasUtf8Validation { result.validatesUTF8 = set.utf8Validation == .verify }
        if set.hasMessageEncoding { result.delimited = set.messageEncoding == .delimited }
        return result
    }
}

/// Builds a pool: every type named first, then every field's type resolved and checked.
private struct PoolBuilder {
    enum Syntax { case proto2, proto3, editions }

    struct PendingMessage {
        let proto: Google_Protobuf_DescriptorProto
        let fullName: String
        let file: Int
        let features: Features
    }

    var files: [Google_Protobuf_FileDescriptorProto] = []
    var summaries: [FileSummary] = []
    var syntaxes: [Syntax] = []
    var pendingMessages: [PendingMessage] = []
    var pendingEnums: [(proto: Google_Protobuf_EnumDescriptorProto, fullName: String, file: Int, features: Features)] = []
    var messageIDs: [String: MessageID] = [:]
    var enumIDs: [String: EnumID] = [:]
    var otherSymbols: Set<String> = []
    var messages: [MessageDescriptor] = []
    var enums: [EnumDescriptor] = []
    var services: [ServiceDescriptor] = []

    mutating func add(_ given: [Google_Protobuf_FileDescriptorProto]) throws(DescriptorError) {
        var byName: [String: Google_Protobuf_FileDescriptorProto] = [:]
        for file in given {
            guard !file.name.isEmpty else { throw DescriptorError("a file of the descriptor set has no name") }
            if let earlier = byName[file.name] {
                // Reflection may send a file twice; only two different files of one name are wrong.
                if earlier == file { continue }
                throw DescriptorError("the descriptor set holds two different files named '\(file.name)'")
            }
            byName[file.name] = file
            files.append(file)
        }
        for file in files {
            for dependency in file.dependency where byName[dependency] == nil {
                throw DescriptorError(
                    "file '\(file.name)' imports '\(dependency)', which the descriptor set does not hold (protoc adds imports with --include_imports)")
            }
        }
        for (index, file) in files.enumerated() {
            let syntax: Syntax
            let features: Features
            switch file.syntax {
            case "", "proto2": syntax = .proto2; features = .proto2
            case "proto3": syntax = .proto3; features = .proto3
            case "editions":
                syntax = .editions
                guard file.edition.rawValue >= Google_Protobuf_Edition.edition2023.rawValue, file.edition != .unstable, file.edition != .max else {
                    throw DescriptorError("file '\(file.name)' has edition \(file.edition.rawValue), which is not supported (2023 and later are)")
                }
                features = Features.editions.merged(file.options.hasFeatures ? file.options.features : nil)
            default: throw DescriptorError("file '\(file.name)' has syntax '\(file.syntax)', which is not proto2, proto3 or editions")
            }
            syntaxes.append(syntax)
            summaries.append(FileSummary(name: file.name, package: file.package, dependencies: file.dependency, syntax: syntax == .editions ? "editions" : syntax == .proto3 ? "proto3" : "proto2"))
            let scope = file.package
            for message in file.messageType {
                try register(message, scope: scope, file: index, features: features)
            }
            for enumeration in file.enumType {
                try register(enumeration, scope: scope, file: index, features: features)
            }
            for service in file.service {
                otherSymbols.insert(try unclaimed(service.name, scope: scope, file: index, kind: "a service"))
            }
        }
    }

    static func join(_ scope: String, _ name: String) -> String { scope.isEmpty ? name : "\(scope).\(name)" }

    /// The full name of `name` in `scope`, checked to be the only thing of that name.
    func unclaimed(_ name: String, scope: String, file: Int, kind: String) throws(DescriptorError) -> String {
        guard !name.isEmpty else { throw DescriptorError("\(kind) in file '\(files[file].name)' has no name") }
        let fullName = Self.join(scope, name)
        guard messageIDs[fullName] == nil, enumIDs[fullName] == nil, !otherSymbols.contains(fullName) else {
            throw DescriptorError("'\(fullName)' is declared twice (again in file '\(files[file].name)')")
        }
        return fullName
    }

    mutating func register(_ message: Google_Protobuf_DescriptorProto, scope: String, file: Int, features: Features) throws(DescriptorError) {
        let fullName = try unclaimed(message.name, scope: scope, file: file, kind: "a message type")
        let merged = features.merged(message.options.hasFeatures ? message.options.features : nil)
        messageIDs[fullName] = MessageID(index: pendingMessages.count)
        pendingMessages.append(PendingMessage(proto: message, fullName: fullName, file: file, features: merged))
        for nested in message.nestedType {
            try register(nested, scope: fullName, file: file, features: merged)
        }
        for enumeration in message.enumType {
            try register(enumeration, scope: fullName, file: file, features: merged)
        }
    }

    mutating func register(_ enumeration: Google_Protobuf_EnumDescriptorProto, scope: String, file: Int, features: Features) throws(DescriptorError) {
        let fullName = try unclaimed(enumeration.name, scope: scope, file: file, kind: "an enum type")
        let merged = features.merged(enumeration.options.hasFeatures ? enumeration.options.features : nil)
        enumIDs[fullName] = EnumID(index: pendingEnums.count)
        pendingEnums.append((enumeration, fullName, file, merged))
    }

    mutating func resolve() throws(DescriptorError) {
        for pending in pendingEnums {
            enums.append(try makeEnum(pending.proto, fullName: pending.fullName, file: pending.file, features: pending.features))
        }
        var fieldLists: [[FieldDescriptor]] = []
        var oneofLists: [[OneofDescriptor]] = []
        for pending in pendingMessages {
            let (fields, oneofs) = try makeFields(of: pending)
            fieldLists.append(fields)
            oneofLists.append(oneofs)
        }
        for (index, pending) in pendingMessages.enumerated() {
            let fields = fieldLists[index]
            let isMapEntry = pending.proto.options.mapEntry
            if isMapEntry { try checkMapEntry(pending, fields: fields) }
            let wellKnown = try wellKnownType(pending.fullName, fields: fields, oneofs: oneofLists[index], fieldLists: fieldLists)
            var nameIndex: [String: Int] = [:]
            for (position, field) in fields.enumerated() where nameIndex[field.jsonName] == nil { nameIndex[field.jsonName] = position }
            for (position, field) in fields.enumerated() where nameIndex[field.name] == nil { nameIndex[field.name] = position }
            messages.append(
                MessageDescriptor(
                    fullName: pending.fullName, name: pending.proto.name, file: files[pending.file].name, fields: fields, oneofs: oneofLists[index],
                    isMapEntry: isMapEntry, wellKnown: wellKnown,
                    fieldsByNumber: fields.indices.sorted { fields[$0].number < fields[$1].number },
                    numberIndex: FieldNumberIndex(fields), nameIndex: nameIndex))
        }
        for (index, file) in files.enumerated() {
            for service in file.service {
                services.append(try makeService(service, file: index))
            }
        }
    }

    func makeEnum(_ proto: Google_Protobuf_EnumDescriptorProto, fullName: String, file: Int, features: Features) throws(DescriptorError) -> EnumDescriptor {
        guard !proto.value.isEmpty else { throw DescriptorError("enum '\(fullName)' has no values") }
        var numbersByName: [String: Int32] = [:]
        var namesByNumber: [Int32: String] = [:]
        for value in proto.value {
            guard numbersByName[value.name] == nil else { throw DescriptorError("enum '\(fullName)' declares the value '\(value.name)' twice") }
            numbersByName[value.name] = value.number
            if namesByNumber[value.number] == nil { namesByNumber[value.number] = value.name }
        }
        return EnumDescriptor(
            fullName: fullName, name: proto.name, file: files[file].name, values: proto.value.map { ($0.name, $0.number) },
            isClosed: features.closedEnums, numbersByName: numbersByName, namesByNumber: namesByNumber)
    }

    /// A type name as a field or method writes it: fully qualified with a leading dot (what protoc
    /// writes), or relative to `scope`, looked up from the innermost scope outwards.
    func lookUp(_ typeName: String, scope: String) -> (message: MessageID?, enumeration: EnumID?) {
        if typeName.hasPrefix(".") {
            let name = String(typeName.dropFirst())
            return (messageIDs[name], enumIDs[name])
        }
        var scope = Substring(scope)
        while true {
            let candidate = scope.isEmpty ? typeName : "\(scope).\(typeName)"
            if messageIDs[candidate] != nil || enumIDs[candidate] != nil { return (messageIDs[candidate], enumIDs[candidate]) }
            guard !scope.isEmpty else { return (nil, nil) }
            scope = scope.lastIndex(of: ".").map { scope[..<$0] } ?? ""
        }
    }

    func makeFields(of pending: PendingMessage) throws(DescriptorError) -> ([FieldDescriptor], [OneofDescriptor]) {
        let message = pending.proto
        let syntax = syntaxes[pending.file]
        let place = "message '\(pending.fullName)'"
        // A oneof of proto3 `optional` fields alone is synthetic: those fields are plain fields with presence.
        var synthetic = Array(repeating: true, count: message.oneofDecl.count)
        for field in message.field where field.hasOneofIndex {
            let index = Int(field.oneofIndex)
            guard synthetic.indices.contains(index) else {
                throw DescriptorError("field '\(field.name)' of \(place) names oneof \(index), which the message does not declare")
            }
            if !field.proto3Optional { synthetic[index] = false }
        }
        var realOneofPosition: [Int: Int] = [:]
        for (index, isSynthetic) in synthetic.enumerated() where !isSynthetic {
            realOneofPosition[index] = realOneofPosition.count
        }
        var numbers: Set<Int32> = []
        var names: Set<String> = []
        var fields: [FieldDescriptor] = []
        var oneofMembers = Array(repeating: [Int](), count: realOneofPosition.count)
        for proto in message.field {
            let fieldPlace = "field '\(proto.name)' of \(place)"
            guard !proto.name.isEmpty else { throw DescriptorError("a field of \(place) has no name") }
            guard (1...536_870_911).contains(proto.number) else { throw DescriptorError("\(fieldPlace) has the number \(proto.number), outside 1…536870911") }
            guard numbers.insert(proto.number).inserted else { throw DescriptorError("\(place) has two fields numbered \(proto.number)") }
            guard names.insert(proto.name).inserted else { throw DescriptorError("\(place) has two fields named '\(proto.name)'") }
            let features = pending.features.merged(proto.options.hasFeatures ? proto.options.features : nil)
            let isRepeated = proto.label == .repeated
            var isGroup = false
            let type: ProtoFieldType
            switch proto.hasType ? proto.type : nil {
            case .double?: type = .double
            case .float?: type = .float
            case .int64?: type = .int64
            case .uint64?: type = .uint64
            case .int32?: type = .int32
            case .fixed64?: type = .fixed64
            case .fixed32?: type = .fixed32
            case .bool?: type = .bool
            case .string?: type = .string
            case .bytes?: type = .bytes
            case .uint32?: type = .uint32
            case .sfixed32?: type = .sfixed32
            case .sfixed64?: type = .sfixed64
            case .sint32?: type = .sint32
            case .sint64?: type = .sint64
            case .group?, .message?, .`enum`?, nil:
                let found = lookUp(proto.typeName, scope: pending.fullName)
                let wanted = proto.hasType ? proto.type : nil
                if let id = found.message, wanted != .`enum` {
                    type = .message(id)
                    isGroup = wanted == .group
                } else if let id = found.enumeration, wanted != .message, wanted != .group {
                    type = .enumeration(id)
                } else if proto.typeName.isEmpty {
                    throw DescriptorError("\(fieldPlace) has no type")
                } else {
                    throw DescriptorError("\(fieldPlace) has the type '\(proto.typeName)', which the descriptor set does not define\(found == (nil, nil) ? " (is a file missing?)" : " as \(wanted == .`enum` ? "an enum" : "a message")")")
                }
            }
            var mapEntry: MessageID?
            if isRepeated, case .message(let id) = type, pendingMessages[id.index].proto.options.mapEntry, !isGroup {
                mapEntry = id
            }
            var oneof: Int?
            if proto.hasOneofIndex, let position = realOneofPosition[Int(proto.oneofIndex)] {
                oneof = position
                oneofMembers[position].append(fields.count)
            }
            let hasPresence: Bool
            let isRequired: Bool
            let isPacked: Bool
            switch syntax {
            case .proto2:
                hasPresence = !isRepeated
                isRequired = proto.label == .required
                isPacked = isRepeated && type.isPackable && proto.options.packed
            case .proto3:
                if case .message = type { hasPresence = !isRepeated } else { hasPresence = !isRepeated && (oneof != nil || proto.proto3Optional) }
                isRequired = false
                isPacked = isRepeated && type.isPackable && (!proto.options.hasPacked || proto.options.packed)
            case .editions:
                if isRepeated {
                    hasPresence = false
                } else if case .message = type {
                    hasPresence = true
                } else {
                    hasPresence = oneof != nil || features.explicitPresence
                }
                isRequired = !isRepeated && features.legacyRequired
                isPacked = isRepeated && type.isPackable && (proto.options.hasPacked ? proto.options.packed : features.packed)
            }
            var isDelimited = isGroup
            if syntax == .editions, case .message = type, mapEntry == nil, features.delimited { isDelimited = true }
            let validatesUTF8: Bool
            switch syntax {
            case .proto2: validatesUTF8 = false
            case .proto3: validatesUTF8 = true
            case .editions: validatesUTF8 = features.validatesUTF8
            }
            fields.append(
                FieldDescriptor(
                    name: proto.name, jsonName: proto.hasJsonName ? proto.jsonName : Self.jsonName(of: proto.name), number: proto.number, type: type,
                    isRepeated: isRepeated, mapEntry: mapEntry, hasPresence: hasPresence, isRequired: isRequired, isPacked: isPacked,
                    isDelimited: isDelimited, validatesUTF8: validatesUTF8, oneof: oneof, defaultText: proto.hasDefaultValue ? proto.defaultValue : nil))
        }
        let oneofs = realOneofPosition.sorted { $0.value < $1.value }.map { original, position in
            OneofDescriptor(name: message.oneofDecl[original].name, fields: oneofMembers[position])
        }
        return (fields, oneofs)
    }

    /// protoc's JSON name: underscores dropped, the letter after each one upper-cased.
    static func jsonName(of name: String) -> String {
        var result = ""
        var upperNext = false
        for character in name {
            if character == "_" {
                upperNext = true
            } else {
                result += upperNext ? character.uppercased() : String(character)
                upperNext = false
            }
        }
        return result
    }

    func checkMapEntry(_ pending: PendingMessage, fields: [FieldDescriptor]) throws(DescriptorError) {
        let key = fields.first { $0.number == 1 }
        let value = fields.first { $0.number == 2 }
        guard fields.count == 2, let key, let value, !key.isRepeated, !value.isRepeated, key.type.isMapKeyType else {
            throw DescriptorError("map entry '\(pending.fullName)' is not a key (field 1, an integer, bool or string) and a value (field 2)")
        }
    }

    /// What a field of a well-known type must be.
    enum ExpectedType {
        case scalar(ProtoFieldType)
        case message(String)
        case enumeration(String)
    }

    /// The well-known type `fullName` names, after checking that it has the shape the JSON
    /// mapping expects (a set that redefines one differently is refused, not misread).
    func wellKnownType(_ fullName: String, fields: [FieldDescriptor], oneofs: [OneofDescriptor], fieldLists: [[FieldDescriptor]]) throws(DescriptorError) -> WellKnownType? {
        guard fullName.hasPrefix("google.protobuf.") else { return nil }
        let kind: WellKnownType
        let expected: [(number: Int32, type: ExpectedType, repeated: Bool)]
        switch fullName {
        case "google.protobuf.Any":
            kind = .any
            expected = [(1, .scalar(.string), false), (2, .scalar(.bytes), false)]
        case "google.protobuf.Timestamp", "google.protobuf.Duration":
            kind = fullName.hasSuffix("Timestamp") ? .timestamp : .duration
            expected = [(1, .scalar(.int64), false), (2, .scalar(.int32), false)]
        case "google.protobuf.FieldMask":
            kind = .fieldMask
            expected = [(1, .scalar(.string), true)]
        case "google.protobuf.Empty":
            kind = .empty
            expected = []
        case "google.protobuf.ListValue":
            kind = .listValue
            expected = [(1, .message("google.protobuf.Value"), true)]
        case "google.protobuf.Struct":
            kind = .struct
            expected = [(1, .message("google.protobuf.Struct.FieldsEntry"), true)]
        case "google.protobuf.Value":
            kind = .value
            expected = [
                (1, .enumeration("google.protobuf.NullValue"), false), (2, .scalar(.double), false), (3, .scalar(.string), false),
                (4, .scalar(.bool), false), (5, .message("google.protobuf.Struct"), false), (6, .message("google.protobuf.ListValue"), false),
            ]
        case "google.protobuf.Struct.FieldsEntry":
            return nil
        default:
            let wrapped: [String: ProtoFieldType] = [
                "DoubleValue": .double, "FloatValue": .float, "Int64Value": .int64, "UInt64Value": .uint64, "Int32Value": .int32,
                "UInt32Value": .uint32, "BoolValue": .bool, "StringValue": .string, "BytesValue": .bytes,
            ]
            guard let type = wrapped[String(fullName.dropFirst("google.protobuf.".count))] else { return nil }
            kind = .wrapper
            expected = [(1, .scalar(type), false)]
        }
        var fits = fields.count == expected.count
        for (field, want) in zip(fields.sorted { $0.number < $1.number }, expected) where fits {
            guard field.number == want.number, field.isRepeated == want.repeated else {
                fits = false
                break
            }
            switch (field.type, want.type) {
            case (let type, .scalar(let wanted)): fits = type == wanted
            case (.message(let id), .message(let name)): fits = pendingMessages[id.index].fullName == name
            case (.enumeration(let id), .enumeration(let name)): fits = pendingEnums[id.index].fullName == name
            default: fits = false
            }
        }
        if kind == .struct, fits, let entry = fields.first?.mapEntry {
            // The map's values must be google.protobuf.Value.
            fits = fieldLists[entry.index].contains { field in
                if case .message(let id) = field.type { field.number == 2 && pendingMessages[id.index].fullName == "google.protobuf.Value" } else { false }
            }
        } else if kind == .struct {
            fits = false
        }
        if kind == .value, oneofs.count != 1 || oneofs.first?.fields.count != 6 { fits = false }
        guard fits else {
            throw DescriptorError("'\(fullName)' is a well-known type, but this descriptor set declares it with other fields than google/protobuf's")
        }
        return kind
    }

    func makeService(_ proto: Google_Protobuf_ServiceDescriptorProto, file: Int) throws(DescriptorError) -> ServiceDescriptor {
        let fullName = Self.join(files[file].package, proto.name)
        var methods: [MethodDescriptor] = []
        var names: Set<String> = []
        for method in proto.method {
            guard names.insert(method.name).inserted, !method.name.isEmpty else {
                throw DescriptorError("service '\(fullName)' has two methods named '\(method.name)' or one without a name")
            }
            func type(_ name: String, _ role: String) throws(DescriptorError) -> MessageID {
                guard let id = lookUp(name, scope: fullName).message else {
                    throw DescriptorError("method '\(fullName).\(method.name)' has the \(role) type '\(name)', which is no message type of the descriptor set")
                }
                return id
            }
            methods.append(
                MethodDescriptor(
                    name: method.name, fullName: "\(fullName).\(method.name)", path: "/\(fullName)/\(method.name)",
                    input: try type(method.inputType, "input"), output: try type(method.outputType, "output"),
                    clientStreaming: method.clientStreaming, serverStreaming: method.serverStreaming))
        }
        return ServiceDescriptor(fullName: fullName, name: proto.name, file: files[file].name, methods: methods)
    }
}
