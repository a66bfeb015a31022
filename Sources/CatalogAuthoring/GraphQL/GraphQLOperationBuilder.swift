import JSONSupport

/// Writes one operation: its text, variables, their placeholder values and a sample answer.
struct GraphQLOperationBuilder {
    let schema: GraphQLSchema

    struct Made {
        var name: String
        var query: String
        var variables: JSONObject
        var parameters: [(String, String)]
        var sample: JSONValue
    }

    func operation(_ operation: String, field: GraphQLSchema.Field) -> Made {
        let camel = Identifier.camelCase([field.name], fallback: operation)
        let name = camel.prefix(1).uppercased() + camel.dropFirst()
        var variables: [(key: String, value: JSONValue)] = []
        var parameters: [(String, String)] = []
        for argument in field.arguments {
            if argument.type.isNonNull && !argument.hasDefault {
                variables.append((argument.name, variableValue(argument.type, name: argument.name, parameters: &parameters, depth: 0)))
            } else {
                variables.append((argument.name, .null))
            }
        }
        let declared = field.arguments.map { "$\($0.name): \($0.type.text)" }
        let passed = field.arguments.map { "\($0.name): $\($0.name)" }
        var lines = ["\(operation) \(name)\(declared.isEmpty ? "" : "(\(declared.joined(separator: ", ")))") {"]
        let call = field.name + (passed.isEmpty ? "" : "(\(passed.joined(separator: ", ")))")
        let (selection, sample) = select(field.type, depth: 0)
        if selection.isEmpty {
            lines.append("  \(call)")
        } else {
            lines.append("  \(call) {")
            lines += selection.map { "    " + $0 }
            lines.append("  }")
        }
        lines.append("}")
        return Made(name: name, query: lines.joined(separator: "\n"), variables: JSONObject(variables), parameters: parameters, sample: sample)
    }

    /// A required variable's value: text-like scalars and enums as `{{name}}` with a sample
    /// parameter, numbers and booleans as literals, lists of one, input objects with their required fields.
    func variableValue(_ type: GraphQLSchema.TypeReference, name: String, parameters: inout [(String, String)], depth: Int) -> JSONValue {
        switch type {
        case .nonNull(let inner): return variableValue(inner, name: name, parameters: &parameters, depth: depth)
        case .list(let inner): return .array([variableValue(inner, name: name, parameters: &parameters, depth: depth)])
        case .named(let typeName):
            switch typeName {
            case "Int": return .number("0")
            case "Float": return .number("0.0")
            case "Boolean": return .bool(false)
            default: break
            }
            guard let named = schema.types[typeName] else { return placeholder(name, sample: typeName == "ID" ? "1" : "value", parameters: &parameters) }
            switch named.kind {
            case .enumeration: return placeholder(name, sample: named.enumValues.first ?? "", parameters: &parameters)
            case .inputObject:
                guard depth < 3 else { return .object([:]) }
                let members = named.inputFields.filter { $0.type.isNonNull && !$0.hasDefault }.map { field in
                    (key: field.name, value: variableValue(field.type, name: "\(name)_\(field.name)", parameters: &parameters, depth: depth + 1))
                }
                return .object(JSONObject(members))
            default: return placeholder(name, sample: typeName == "ID" ? "1" : "value", parameters: &parameters)
            }
        }
    }

    private func placeholder(_ name: String, sample: String, parameters: inout [(String, String)]) -> JSONValue {
        let variable = Identifier.variable(name)
        if !parameters.contains(where: { $0.0 == variable }) { parameters.append((variable, sample)) }
        return .string("{{\(variable)}}")
    }

    /// The selection set of a field of `type` and a sample of what it answers; empty for a leaf.
    func select(_ type: GraphQLSchema.TypeReference, depth: Int) -> (lines: [String], sample: JSONValue) {
        switch type {
        case .nonNull(let inner): return select(inner, depth: depth)
        case .list(let inner):
            let (lines, sample) = select(inner, depth: depth)
            return (lines, .array([sample]))
        case .named(let name):
            guard let named = schema.types[name] else { return ([], scalarSample(name)) }
            switch named.kind {
            case .scalar: return ([], scalarSample(name))
            case .enumeration: return ([], .string(named.enumValues.first ?? ""))
            case .inputObject: return ([], .null)
            case .union:
                var lines = ["__typename"]
                let members = named.possibleTypes.compactMap { schema.types[$0] }
                for member in members {
                    let fields = leafFields(of: member)
                    guard !fields.isEmpty else { continue }
                    lines.append("... on \(member.name) {")
                    lines += fields.map { "  " + $0.name }
                    lines.append("}")
                }
                var sample: [(key: String, value: JSONValue)] = [("__typename", .string(members.first?.name ?? name))]
                if let first = members.first { sample += leafFields(of: first).map { ($0.name, select($0.type, depth: depth + 1).sample) } }
                return (lines, .object(JSONObject(sample)))
            case .object, .interface:
                var lines: [String] = []
                var sample: [(key: String, value: JSONValue)] = []
                if named.kind == .interface {
                    lines.append("__typename")
                    sample.append(("__typename", .string(named.possibleTypes.first ?? name)))
                }
                for field in named.fields.prefix(GraphQLImporter.fieldsPerType)
                where !field.arguments.contains(where: { $0.type.isNonNull && !$0.hasDefault }) {
                    let leaf = isLeaf(field.type)
                    if leaf {
                        lines.append(field.name)
                        sample.append((field.name, select(field.type, depth: depth + 1).sample))
                    } else if depth + 1 < GraphQLImporter.selectionDepth {
                        let (inner, innerSample) = select(field.type, depth: depth + 1)
                        guard !inner.isEmpty, inner != ["__typename"] else { continue }
                        lines.append("\(field.name) {")
                        lines += inner.map { "  " + $0 }
                        lines.append("}")
                        sample.append((field.name, innerSample))
                    }
                }
                if lines.isEmpty {
                    lines = ["__typename"]
                    sample = [("__typename", .string(name))]
                }
                return (lines, .object(JSONObject(sample)))
            }
        }
    }

    private func leafFields(of type: GraphQLSchema.NamedType) -> [GraphQLSchema.Field] {
        type.fields.filter { isLeaf($0.type) && !$0.arguments.contains { $0.type.isNonNull && !$0.hasDefault } }.prefix(GraphQLImporter.fieldsPerType).map { $0 }
    }

    private func isLeaf(_ type: GraphQLSchema.TypeReference) -> Bool {
        guard let named = schema.types[type.namedType] else { return true }
        return named.kind == .scalar || named.kind == .enumeration
    }

    private func scalarSample(_ name: String) -> JSONValue {
        switch name {
        case "Int": .number("0")
        case "Float": .number("0.0")
        case "Boolean": .bool(false)
        case "ID": .string("1")
        default: .string(name == "String" ? "text" : name)
        }
    }
}
