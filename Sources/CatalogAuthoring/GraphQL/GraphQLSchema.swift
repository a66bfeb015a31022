import JSONSupport

/// What `import graphql` needs of a GraphQL schema: its named types with their fields,
/// arguments, input fields and enum values, and which types are the query and mutation roots.
/// Read from SDL (`GraphQLSchemaParser`) or from an introspection result (`init(introspection:)`).
struct GraphQLSchema: Sendable {
    /// The kinds of named types (GraphQL's `__TypeKind` without the wrappers).
    enum Kind: String, Sendable {
        case scalar, object, interface, union, enumeration, inputObject
    }

    /// A type as a field or argument names it: named, a list of, or non-null.
    indirect enum TypeReference: Sendable, Hashable {
        case named(String)
        case list(TypeReference)
        case nonNull(TypeReference)

        /// The named type inside the wrappers.
        var namedType: String {
            switch self {
            case .named(let name): name
            case .list(let inner), .nonNull(let inner): inner.namedType
            }
        }

        /// True for `T!`.
        var isNonNull: Bool {
            if case .nonNull = self { true } else { false }
        }

        /// As SDL writes it: `[Pet!]!`.
        var text: String {
            switch self {
            case .named(let name): name
            case .list(let inner): "[\(inner.text)]"
            case .nonNull(let inner): inner.text + "!"
            }
        }
    }

    /// An argument or an input object's field.
    struct InputValue: Sendable {
        var name: String
        var description: String?
        var type: TypeReference
        /// Whether a default value was given (an argument with one may be left out even when non-null).
        var hasDefault = false
    }

    /// A field of an object or interface.
    struct Field: Sendable {
        var name: String
        var description: String?
        var arguments: [InputValue] = []
        var type: TypeReference
    }

    /// A named type.
    struct NamedType: Sendable {
        var name: String
        var kind: Kind
        var description: String?
        var fields: [Field] = []
        var inputFields: [InputValue] = []
        var enumValues: [String] = []
        /// The members of a union, or the types implementing an interface (as far as known).
        var possibleTypes: [String] = []
        var interfaces: [String] = []
    }

    /// Named types by name.
    var types: [String: NamedType] = [:]
    /// Names in the order the document gives them.
    var order: [String] = []
    var queryType: String?
    var mutationType: String?
    var subscriptionType: String?

    /// Adds a type, or merges an extension into the one already read.
    mutating func add(_ type: NamedType) {
        guard var existing = types[type.name] else {
            types[type.name] = type
            order.append(type.name)
            return
        }
        existing.fields += type.fields
        existing.inputFields += type.inputFields
        existing.enumValues += type.enumValues
        existing.possibleTypes += type.possibleTypes
        existing.interfaces += type.interfaces
        existing.description = existing.description ?? type.description
        types[type.name] = existing
    }

    /// The roots SDL names by convention when there is no `schema { … }`; interfaces learn which
    /// object types implement them.
    mutating func finish() {
        if queryType == nil, types["Query"] != nil { queryType = "Query" }
        if mutationType == nil, types["Mutation"] != nil { mutationType = "Mutation" }
        if subscriptionType == nil, types["Subscription"] != nil { subscriptionType = "Subscription" }
        for name in order {
            for interface in types[name]?.interfaces ?? [] where types[interface]?.possibleTypes.contains(name) == false {
                types[interface]?.possibleTypes.append(name)
            }
        }
    }
}

extension GraphQLSchema {
    /// Reads the result of the standard introspection query (`{"data": {"__schema": …}}`, or the
    /// `__schema` object alone, as tools save it).
    init(introspection root: JSONValue) throws(GraphQLSchemaError) {
        guard let schema = root.member("data")?.member("__schema") ?? root.member("__schema") else {
            throw GraphQLSchemaError(message: "this JSON is not an introspection result: it has no data.__schema", line: 1, column: 1)
        }
        queryType = schema.member("queryType")?.member("name")?.text
        mutationType = schema.member("mutationType")?.member("name")?.text
        subscriptionType = schema.member("subscriptionType")?.member("name")?.text
        for value in schema.member("types")?.elements ?? [] {
            guard let name = value.member("name")?.text, !name.hasPrefix("__") else { continue }
            let kinds: [String: Kind] = [
                "SCALAR": .scalar, "OBJECT": .object, "INTERFACE": .interface, "UNION": .union, "ENUM": .enumeration, "INPUT_OBJECT": .inputObject,
            ]
            guard let kind = value.member("kind")?.text.flatMap({ kinds[$0] }) else {
                throw GraphQLSchemaError(message: "type \(name) has no known kind", line: 1, column: 1)
            }
            var type = NamedType(name: name, kind: kind, description: value.member("description")?.text)
            for field in value.member("fields")?.elements ?? [] {
                guard let fieldName = field.member("name")?.text, let fieldType = Self.reference(field.member("type")) else { continue }
                type.fields.append(Field(
                    name: fieldName, description: field.member("description")?.text,
                    arguments: (field.member("args")?.elements ?? []).compactMap(Self.inputValue), type: fieldType))
            }
            type.inputFields = (value.member("inputFields")?.elements ?? []).compactMap(Self.inputValue)
            type.enumValues = (value.member("enumValues")?.elements ?? []).compactMap { $0.member("name")?.text }
            type.possibleTypes = (value.member("possibleTypes")?.elements ?? []).compactMap { $0.member("name")?.text }
            type.interfaces = (value.member("interfaces")?.elements ?? []).compactMap { $0.member("name")?.text }
            add(type)
        }
        guard queryType != nil || !types.isEmpty else {
            throw GraphQLSchemaError(message: "the introspection result lists no types", line: 1, column: 1)
        }
    }

    private static func inputValue(_ value: JSONValue) -> InputValue? {
        guard let name = value.member("name")?.text, let type = reference(value.member("type")) else { return nil }
        let hasDefault = value.member("defaultValue").map { $0 != .null } ?? false
        return InputValue(name: name, description: value.member("description")?.text, type: type, hasDefault: hasDefault)
    }

    /// `{kind: NON_NULL, ofType: {kind: LIST, ofType: {kind: OBJECT, name: Pet}}}` → `[Pet]!`.
    private static func reference(_ value: JSONValue?) -> TypeReference? {
        guard let value else { return nil }
        switch value.member("kind")?.text {
        case "NON_NULL": return reference(value.member("ofType")).map(TypeReference.nonNull)
        case "LIST": return reference(value.member("ofType")).map(TypeReference.list)
        default: return value.member("name")?.text.map(TypeReference.named)
        }
    }
}

/// A schema that could not be read, with where.
struct GraphQLSchemaError: Error, Sendable {
    var message: String
    var line: Int
    var column: Int
}
