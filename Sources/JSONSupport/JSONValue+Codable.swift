extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        if let container = try? decoder.singleValueContainer() {
            if container.decodeNil() { self = .null; return }
            if let bool = try? container.decode(Bool.self) { self = .bool(bool); return }
            if let int = try? container.decode(Int.self) { self = .integer(int); return }
            if let double = try? container.decode(Double.self) { self = .double(double); return }
            if let string = try? container.decode(String.self) { self = .string(string); return }
            if let array = try? container.decode([JSONValue].self) { self = .array(array); return }
        }
        let keyed = try decoder.container(keyedBy: AnyCodingKey.self)
        // Keyed containers do not promise order; sort for a stable result.
        let keys = keyed.allKeys.sorted { $0.stringValue < $1.stringValue }
        self = .object(JSONObject(try keys.map { (key: $0.stringValue, value: try keyed.decode(JSONValue.self, forKey: $0)) }))
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let bool):
            var container = encoder.singleValueContainer()
            try container.encode(bool)
        case .number(let literal):
            var container = encoder.singleValueContainer()
            if let int = Int(literal) { try container.encode(int) } else { try container.encode(Double(literal) ?? 0) }
        case .string(let string):
            var container = encoder.singleValueContainer()
            try container.encode(string)
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(element) }
        case .object(let object):
            var container = encoder.container(keyedBy: AnyCodingKey.self)
            for member in object { try container.encode(member.value, forKey: AnyCodingKey(member.key)) }
        }
    }
}

private struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { stringValue = String(intValue) }
}
