/// A JSON document as a value: objects keep their key order and numbers keep their literal text,
/// so a body can be shown, compared and re-exported exactly as the server sent it.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// The number's literal text (`42`, `-1.5e3`): exact even beyond Double's precision.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
}

extension JSONValue {
    /// Makes a number from an integer.
    public static func integer(_ value: Int) -> JSONValue { .number(String(value)) }

    /// Makes a number from a double, written the shortest way that round-trips.
    public static func double(_ value: Double) -> JSONValue {
        if value.rounded() == value, abs(value) < 1e15 { return .number(String(Int(value))) }
        return .number(String(value))
    }

    /// The name of the value's JSON type: `null`, `boolean`, `number`, `string`, `array` or `object`.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// The member for `key` when this is an object.
    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    /// The element at `index` when this is an array and the index is in range.
    public subscript(index: Int) -> JSONValue? {
        if case .array(let array) = self, array.indices.contains(index) { return array[index] }
        return nil
    }

    /// The string when this is a string.
    public var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    /// The number as a Double when this is a number.
    public var doubleValue: Double? {
        if case .number(let literal) = self { return Double(literal) }
        return nil
    }

    /// The number as an Int when this is an integral number that fits.
    public var intValue: Int? {
        if case .number(let literal) = self {
            if let int = Int(literal) { return int }
            if let double = Double(literal), double.rounded() == double, abs(double) < 9e18 { return Int(double) }
        }
        return nil
    }

    /// The Boolean when this is `true` or `false`.
    public var boolValue: Bool? {
        if case .bool(let bool) = self { return bool }
        return nil
    }

    /// Whether this is `null`.
    public var isNull: Bool { self == .null }

    /// A short text for showing a scalar to a person: strings without quotes, others as JSON.
    public var displayText: String {
        switch self {
        case .string(let string): string
        default: compactText
        }
    }
}

/// A JSON object: members in the order they were written; lookups by key are linear, since API
/// objects are small and order matters more than lookup speed.
public struct JSONObject: Sendable, Hashable, RandomAccessCollection, ExpressibleByDictionaryLiteral {
    /// The members in order.
    public private(set) var members: [(key: String, value: JSONValue)]

    /// Makes an object from ordered members; a later duplicate key replaces the earlier value.
    public init(_ members: [(key: String, value: JSONValue)] = []) {
        var kept: [(key: String, value: JSONValue)] = []
        kept.reserveCapacity(members.count)
        if members.count <= 16 {
            for member in members {
                if let index = Self.index(of: member.key, in: kept) { kept[index].value = member.value } else { kept.append(member) }
            }
        } else {
            // Duplicates found by hashing: comparing every key with every earlier one is quadratic.
            var positions: [String: Int] = [:]
            positions.reserveCapacity(members.count)
            for member in members {
                if let index = positions[member.key] {
                    kept[index].value = member.value
                } else {
                    positions[member.key] = kept.count
                    kept.append(member)
                }
            }
        }
        self.members = kept
    }

    /// The position of `key` among `members`, compared in place (a history launch looks up ~6,500 keys).
    private static func index(of key: String, in members: [(key: String, value: JSONValue)]) -> Int? {
        members.withUnsafeBufferPointer { buffer in
            for index in buffer.indices where buffer[index].key == key { return index }
            return nil
        }
    }

    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements.map { (key: $0.0, value: $0.1) })
    }

    public var startIndex: Int { members.startIndex }
    public var endIndex: Int { members.endIndex }
    public subscript(position: Int) -> (key: String, value: JSONValue) { members[position] }

    /// The keys in order.
    public var keys: [String] { members.map(\.key) }

    /// The value for `key`; setting `nil` removes the member.
    public subscript(key: String) -> JSONValue? {
        get { Self.index(of: key, in: members).map { members[$0].value } }
        set {
            if let index = Self.index(of: key, in: members) {
                if let newValue { members[index].value = newValue } else { members.remove(at: index) }
            } else if let newValue {
                members.append((key, newValue))
            }
        }
    }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.count == rhs.members.count
            && zip(lhs.members, rhs.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(members.count)
        for member in members {
            hasher.combine(member.key)
            hasher.combine(member.value)
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral, ExpressibleByFloatLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements.map { (key: $0.0, value: $0.1) }))
    }
    public init(nilLiteral: ()) { self = .null }
}
