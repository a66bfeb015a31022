/// The shape of JSON values: which types were seen, the members of objects (and whether each
/// was always there), and the merged shape of array elements. Several values merge into one
/// shape, so an array's elements are compared as one element shape.
package struct JSONShape: Sendable, Hashable {
    /// A JSON type.
    package enum Kind: String, Sendable, Hashable, Codable, Comparable {
        case null, boolean, number, string, array, object

        package static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// A member of an object shape.
    package struct Member: Sendable, Hashable {
        /// The merged shape of its values.
        package var shape: JSONShape
        /// Whether some merged object lacked it.
        package var optional: Bool
    }

    /// Every type seen.
    package var kinds: Set<Kind> = []
    /// Object members in first-seen order (when objects were seen).
    package var members: [(key: String, member: Member)] = []
    /// The merged shape of array elements (nil when no element was seen).
    package var element: Box?

    /// An indirect holder, so shapes can nest.
    package final class Box: Sendable, Hashable {
        /// The shape.
        package let shape: JSONShape
        init(_ shape: JSONShape) { self.shape = shape }
        package static func == (lhs: Box, rhs: Box) -> Bool { lhs.shape == rhs.shape }
        package func hash(into hasher: inout Hasher) { hasher.combine(shape) }
    }

    /// Makes an empty shape (no value seen).
    package init() {}

    /// The shape of one value.
    package init(_ value: JSONValue) {
        self.init()
        merge(value)
    }

    /// Adds a value to the shape.
    package mutating func merge(_ value: JSONValue) {
        switch value {
        case .null: kinds.insert(.null)
        case .bool: kinds.insert(.boolean)
        case .number: kinds.insert(.number)
        case .string: kinds.insert(.string)
        case .array(let elements):
            kinds.insert(.array)
            var merged = element?.shape
            for item in elements {
                if var current = merged {
                    current.merge(item)
                    merged = current
                } else {
                    merged = JSONShape(item)
                }
            }
            if let merged { element = Box(merged) }
        case .object(let object):
            let firstObject = !kinds.contains(.object)
            kinds.insert(.object)
            var incoming = JSONShape()
            incoming.kinds = [.object]
            incoming.members = object.map { ($0.key, Member(shape: JSONShape($0.value), optional: false)) }
            if firstObject {
                members = incoming.members
            } else {
                mergeMembers(incoming.members)
            }
        }
    }

    /// Merges another shape into this one.
    package mutating func merge(_ other: JSONShape) {
        let hadObject = kinds.contains(.object)
        kinds.formUnion(other.kinds)
        if other.kinds.contains(.object) {
            if hadObject { mergeMembers(other.members) } else { members = other.members }
        }
        if let otherElement = other.element {
            if var mine = element?.shape {
                mine.merge(otherElement.shape)
                element = Box(mine)
            } else {
                element = otherElement
            }
        }
    }

    private mutating func mergeMembers(_ incoming: [(key: String, member: Member)]) {
        var result: [(key: String, member: Member)] = []
        for (key, member) in members {
            if let other = incoming.first(where: { $0.key == key })?.member {
                var shape = member.shape
                shape.merge(other.shape)
                result.append((key, Member(shape: shape, optional: member.optional || other.optional)))
            } else {
                result.append((key, Member(shape: member.shape, optional: true)))
            }
        }
        for (key, member) in incoming where !members.contains(where: { $0.key == key }) {
            result.append((key, Member(shape: member.shape, optional: true)))
        }
        members = result
    }

    /// The member named `key`.
    package func member(_ key: String) -> Member? {
        members.first { $0.key == key }?.member
    }

    /// `string`, `number or null` …
    package var kindText: String {
        kinds.isEmpty ? "nothing" : kinds.sorted().map(\.rawValue).joined(separator: " or ")
    }

    package static func == (lhs: JSONShape, rhs: JSONShape) -> Bool {
        lhs.kinds == rhs.kinds && lhs.element == rhs.element && lhs.members.count == rhs.members.count
            && zip(lhs.members, rhs.members).allSatisfy { $0.key == $1.key && $0.member == $1.member }
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(kinds)
        hasher.combine(members.count)
        for (key, member) in members {
            hasher.combine(key)
            hasher.combine(member)
        }
        hasher.combine(element)
    }
}
