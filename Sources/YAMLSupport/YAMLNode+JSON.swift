import JSONSupport

extension YAMLNode {
    /// The node as JSON: mappings become objects (order kept, keys must be scalars), sequences
    /// arrays, scalars by the YAML 1.2 core schema. Visits at most `budget` nodes, so an alias
    /// bomb fails instead of exhausting memory. What an importer reads a YAML document with.
    package func jsonValue(budget: Int = 5_000_000) throws(YAMLSyntaxError) -> JSONValue {
        var remaining = budget
        return try json(remaining: &remaining)
    }

    private func json(remaining: inout Int) throws(YAMLSyntaxError) -> JSONValue {
        remaining -= 1
        guard remaining > 0 else {
            throw YAMLSyntaxError(line: line, column: column, message: "the document holds too many values (aliases nested too deeply?)")
        }
        switch content {
        case .scalar(let scalar):
            guard let value = YAMLScalar(scalar).json(literal: scalar.text) else {
                throw YAMLSyntaxError(line: line, column: column, message: "\(scalar.text) cannot be written as JSON")
            }
            return value
        case .sequence(let elements):
            var array: [JSONValue] = []
            array.reserveCapacity(elements.count)
            for element in elements { array.append(try element.json(remaining: &remaining)) }
            return .array(array)
        case .mapping(let pairs):
            var members: [(key: String, value: JSONValue)] = []
            members.reserveCapacity(pairs.count)
            for pair in pairs {
                let (key, value) = (pair.key, pair.value)
                guard let name = key.scalar?.text else {
                    throw YAMLSyntaxError(line: key.line, column: key.column, message: "a mapping key must be plain text")
                }
                if name == "<<", case .mapping = value.content, case .object(let merged) = try value.json(remaining: &remaining) {
                    // A merge key: the merged mapping's members, unless this mapping sets them itself.
                    for member in merged where !pairs.contains(where: { $0.key.scalar?.text == member.key }) {
                        members.append(member)
                    }
                    continue
                }
                members.append((name, try value.json(remaining: &remaining)))
            }
            return .object(JSONObject(members))
        }
    }
}

extension YAMLScalar {
    /// The scalar as a JSON value; `literal` is the text it was written as (kept for numbers that
    /// are already valid JSON). Nil for infinity and NaN, which JSON cannot represent.
    package func json(literal: String) -> JSONValue? {
        switch self {
        case .null: return .null
        case .bool(let value): return .bool(value)
        case .int(let value):
            // Keep the literal when it is already valid JSON (`7`), else write it in decimal (`0x1F`).
            return .number(Int(literal) != nil && !literal.hasPrefix("+") ? literal : String(value))
        case .double(let value):
            guard value.isFinite else { return nil }
            return JSONValue.isJSONNumber(literal) ? .number(literal) : .double(value)
        case .string(let text): return .string(text)
        }
    }
}

extension JSONValue {
    /// Whether `text` is a number exactly as JSON writes it (`-1.5e3`, not `+1`, `.5` or `1.`).
    static func isJSONNumber(_ text: String) -> Bool {
        var bytes = text.utf8[...]
        func isDigit(_ byte: UInt8?) -> Bool { byte.map { $0 >= 0x30 && $0 <= 0x39 } ?? false }
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        guard let first = bytes.first, isDigit(first) else { return false }
        if first == UInt8(ascii: "0") {
            bytes = bytes.dropFirst()
        } else {
            bytes = bytes.drop(while: { isDigit($0) })
        }
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            guard isDigit(bytes.first) else { return false }
            bytes = bytes.drop(while: { isDigit($0) })
        }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            guard isDigit(bytes.first) else { return false }
            bytes = bytes.drop(while: { isDigit($0) })
        }
        return bytes.isEmpty
    }
}
