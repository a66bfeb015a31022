import FoundationEssentials
import JSONSupport
import YAMLSupport

extension CatalogFileDecoder {
    /// A YAML value as JSON: mappings become objects (order kept), lists arrays, scalars by the
    /// core schema. nil after an error (a non-text key, infinity or NaN).
    func json(_ node: YAMLNode, _ what: @autoclosure () -> String) -> JSONValue? {
        guard spend(node) else { return nil }
        switch node.content {
        case .scalar(let scalar):
            return jsonScalar(scalar, at: node, what())
        case .sequence(let sequence):
            var elements: [JSONValue] = []
            elements.reserveCapacity(sequence.count)
            for element in sequence {
                guard let value = json(element, what()) else { return nil }
                elements.append(value)
            }
            return .array(elements)
        case .mapping(let mapping):
            guard isJSONObject(mapping, at: node, what()) else { return nil }
            var members: [(key: String, value: JSONValue)] = []
            members.reserveCapacity(mapping.count)
            for pair in mapping {
                guard let name = memberName(pair.key, what()), let member = json(pair.value, what()) else { return nil }
                members.append((name, member))
            }
            return .object(JSONObject(members))
        }
    }

    /// `json(node, what)?.compactText`, written straight from the nodes: a stub's or example's
    /// body is only ever sent as text, and building the `JSONValue` first was a fifth of
    /// decoding a large catalog. Same checks, same errors, same text.
    func compactJSON(_ node: YAMLNode, _ what: @autoclosure () -> String) -> String? {
        compactJSONBytes(node, what()).map { String(decoding: $0, as: UTF8.self) }
    }

    /// `compactJSON` as a body's bytes.
    func compactJSONData(_ node: YAMLNode, _ what: @autoclosure () -> String) -> Data? {
        compactJSONBytes(node, what()).map { bytes in bytes.withUnsafeBufferPointer { Data(buffer: $0) } }
    }

    private func compactJSONBytes(_ node: YAMLNode, _ what: @autoclosure () -> String) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(64)
        return writeCompactJSON(node, what(), to: &output) ? output : nil
    }

    /// Appends the node as compact JSON; false (after an error) when it cannot be JSON. Written
    /// as bytes: appending to a `String` piece by piece cost more than the checks.
    private func writeCompactJSON(_ node: YAMLNode, _ what: @autoclosure () -> String, to output: inout [UInt8]) -> Bool {
        if let pairs = node.mappingPairs, Self.repeatsMergeKey(pairs) {
            // `<<` is the one key the composer lets repeat: JSONObject keeps the later value in
            // the first place, so that mapping is written through it.
            guard let value = json(node, what()) else { return false }
            output.append(contentsOf: value.compactText.utf8)
            return true
        }
        guard spend(node) else { return false }
        switch node.content {
        case .scalar(let scalar):
            guard let value = jsonScalar(scalar, at: node, what()) else { return false }
            switch value {
            case .string(let text): JSONValue.writeQuoted(text, to: &output)
            case .number(let literal): output.append(contentsOf: literal.utf8)
            default: output.append(contentsOf: value.compactText.utf8)
            }
        case .sequence(let sequence):
            output.append(UInt8(ascii: "["))
            for position in sequence.indices {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                guard writeCompactJSON(sequence[position], what(), to: &output) else { return false }
            }
            output.append(UInt8(ascii: "]"))
        case .mapping(let mapping):
            guard isJSONObject(mapping, at: node, what()) else { return false }
            output.append(UInt8(ascii: "{"))
            for position in mapping.indices {
                let pair = mapping[position]
                guard let name = memberName(pair.key, what()) else { return false }
                if position > 0 { output.append(UInt8(ascii: ",")) }
                JSONValue.writeQuoted(name, to: &output)
                output.append(UInt8(ascii: ":"))
                guard writeCompactJSON(pair.value, what(), to: &output) else { return false }
            }
            output.append(UInt8(ascii: "}"))
        }
        return true
    }

    /// Whether a mapping has more than one `<<` key.
    private static func repeatsMergeKey(_ pairs: YAMLNode.Pairs) -> Bool {
        var seen = false
        for position in pairs.indices where pairs.keyText(at: position) == "<<" {
            if seen { return true }
            seen = true
        }
        return false
    }

    /// A scalar as JSON by the core schema; infinity and NaN are reported.
    private func jsonScalar(_ scalar: YAMLNode.Scalar, at node: YAMLNode, _ what: @autoclosure () -> String) -> JSONValue? {
        guard let value = YAMLScalar(scalar).json(literal: scalar.text) else {
            error("\(what()) holds \(scalar.text), which JSON cannot represent", at: node)
            return nil
        }
        return value
    }

    /// Whether a mapping can be a JSON object; an unquoted `{{…}}` (which YAML reads as a
    /// mapping) is reported.
    private func isJSONObject(_ mapping: YAMLNode.Pairs, at node: YAMLNode, _ what: @autoclosure () -> String) -> Bool {
        guard looksLikeUnquotedPlaceholder(mapping) else { return true }
        error("\(what()) holds an unquoted {{…}}, which YAML reads as a mapping: write it in quotes, \"{{name}}\"", at: node)
        return false
    }

    /// A member's name: its key's text; a key that is not a scalar is reported.
    private func memberName(_ key: YAMLNode, _ what: @autoclosure () -> String) -> String? {
        guard case .scalar(let scalar) = key.content else {
            error("the names in \(what()) must be plain text, not \(describe(key))", at: key)
            return nil
        }
        return scalar.text
    }
}
