import JSONSupport

/// Where in a JSON document a difference is: `$`, then members (`.name`, `['odd name']`), array
/// elements by position (`[3]`) or, for arrays matched by a key, by that key (`[id=42]`).
package struct JSONLocation: Sendable, Hashable, CustomStringConvertible {
    /// One step down.
    package enum Step: Sendable, Hashable {
        case member(String)
        case index(Int)
        /// The element whose member `key` is `value` (its text).
        case keyed(key: String, value: String)
    }

    package var steps: [Step]

    package init(_ steps: [Step] = []) {
        self.steps = steps
    }

    package var description: String {
        var text = "$"
        for step in steps {
            switch step {
            case .member(let name): text += Self.isPlainName(name) ? "." + name : "['" + Self.escaped(name) + "']"
            case .index(let index): text += "[\(index)]"
            case .keyed(let key, let value): text += "[\(key)=\(value)]"
            }
        }
        return text
    }

    /// Whether `location` is this one or below it.
    package func contains(_ location: JSONLocation) -> Bool {
        location.steps.count >= steps.count && Array(location.steps.prefix(steps.count)) == steps
    }

    /// A name written after a dot: letters, digits, `_` and `-`, not starting with a digit.
    static func isPlainName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "-" }
    }

    static func escaped(_ name: String) -> String {
        name.replacing("\\", with: "\\\\").replacing("'", with: "\\'")
    }
}

/// The structural difference of two JSON documents: paths added (only on the right), removed
/// (only on the left) and changed (both, with other values, or of another type). Objects are
/// compared by member name whatever their order; arrays by position, or by a key member where
/// `arrayKeys` names one for the array's location (so a reordered list is not a difference).
package struct JSONDiff: Sendable {
    /// What happened at a location.
    package enum Kind: String, Sendable, Hashable {
        case added, removed, changed
    }

    /// One difference.
    package struct Entry: Sendable, Hashable {
        package var kind: Kind
        package var location: JSONLocation
        /// The value on each side (nil: absent there).
        package var left: JSONValue?
        package var right: JSONValue?
    }

    /// Arrays matched by a key member, by the pattern of their location (`$.items`, `$..tags`).
    package var arrayKeys: [(pattern: LocationPattern, key: String)]

    package init(arrayKeys: [(pattern: LocationPattern, key: String)] = []) {
        self.arrayKeys = arrayKeys
    }

    /// The differences from `left` to `right`, in document order.
    package func entries(_ left: JSONValue, _ right: JSONValue) -> [Entry] {
        var entries: [Entry] = []
        var path: [JSONLocation.Step] = []
        compare(left, right, path: &path, into: &entries)
        return entries
    }

    private func compare(_ left: JSONValue, _ right: JSONValue, path: inout [JSONLocation.Step], into entries: inout [Entry]) {
        switch (left, right) {
        case (.object(let a), .object(let b)): compareObjects(a, b, path: &path, into: &entries)
        case (.array(let a), .array(let b)):
            if let key = arrayKeys.first(where: { $0.pattern.matches(JSONLocation(path)) })?.key {
                compareKeyed(a, b, key: key, path: &path, into: &entries)
            } else {
                compareArrays(a, b, path: &path, into: &entries)
            }
        case (.number(let a), .number(let b)):
            // `1.0` and `1` are the same number: literals compared as numbers when they differ.
            if a != b, Double(a) != Double(b) || Double(a) == nil {
                entries.append(Entry(kind: .changed, location: JSONLocation(path), left: left, right: right))
            }
        default:
            if !Self.sameScalar(left, right) {
                entries.append(Entry(kind: .changed, location: JSONLocation(path), left: left, right: right))
            }
        }
    }

    /// Scalars (and containers of other kinds) compared without descending.
    private static func sameScalar(_ left: JSONValue, _ right: JSONValue) -> Bool {
        switch (left, right) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        default: false
        }
    }

    private func compareObjects(_ a: JSONObject, _ b: JSONObject, path: inout [JSONLocation.Step], into entries: inout [Entry]) {
        // Large objects are looked up through a table: `JSONObject` looks keys up in order.
        let index: [String: Int]? = b.count > 16 ? Dictionary(b.members.enumerated().map { ($0.element.key, $0.offset) }, uniquingKeysWith: { $1 }) : nil
        var seen = [Bool](repeating: false, count: b.count)
        for member in a.members {
            path.append(.member(member.key))
            let position = index.map { $0[member.key] } ?? b.members.firstIndex { $0.key == member.key }
            if let position {
                seen[position] = true
                compare(member.value, b.members[position].value, path: &path, into: &entries)
            } else {
                entries.append(Entry(kind: .removed, location: JSONLocation(path), left: member.value, right: nil))
            }
            path.removeLast()
        }
        for (position, member) in b.members.enumerated() where !seen[position] {
            path.append(.member(member.key))
            entries.append(Entry(kind: .added, location: JSONLocation(path), left: nil, right: member.value))
            path.removeLast()
        }
    }

    private func compareArrays(_ a: [JSONValue], _ b: [JSONValue], path: inout [JSONLocation.Step], into entries: inout [Entry]) {
        for position in 0..<max(a.count, b.count) {
            path.append(.index(position))
            if position < a.count, position < b.count {
                compare(a[position], b[position], path: &path, into: &entries)
            } else if position < a.count {
                entries.append(Entry(kind: .removed, location: JSONLocation(path), left: a[position], right: nil))
            } else {
                entries.append(Entry(kind: .added, location: JSONLocation(path), left: nil, right: b[position]))
            }
            path.removeLast()
        }
    }

    /// Elements paired by their `key` member; an element without it (or with a repeated one)
    /// is paired by position among the rest.
    private func compareKeyed(_ a: [JSONValue], _ b: [JSONValue], key: String, path: inout [JSONLocation.Step], into entries: inout [Entry]) {
        func keys(_ elements: [JSONValue]) -> [String?] {
            var seen: Set<String> = []
            return elements.map { element in
                guard let value = element[key], !(value.isArrayOrObject) else { return nil }
                let text = value.displayText
                return seen.insert(text).inserted ? text : nil
            }
        }
        let (keysA, keysB) = (keys(a), keys(b))
        var positionsB: [String: Int] = [:]
        for (position, text) in keysB.enumerated() { if let text { positionsB[text] = position } }
        var pairedB = Set<Int>()
        var unkeyedA: [Int] = []
        for (position, element) in a.enumerated() {
            guard let text = keysA[position] else {
                unkeyedA.append(position)
                continue
            }
            path.append(.keyed(key: key, value: text))
            if let other = positionsB[text] {
                pairedB.insert(other)
                compare(element, b[other], path: &path, into: &entries)
            } else {
                entries.append(Entry(kind: .removed, location: JSONLocation(path), left: element, right: nil))
            }
            path.removeLast()
        }
        for (position, text) in keysB.enumerated() where text != nil && !pairedB.contains(position) {
            path.append(.keyed(key: key, value: text!))
            entries.append(Entry(kind: .added, location: JSONLocation(path), left: nil, right: b[position]))
            path.removeLast()
        }
        let unkeyedB = keysB.indices.filter { keysB[$0] == nil }
        compareArrays(unkeyedA.map { a[$0] }, unkeyedB.map { b[$0] }, path: &path, into: &entries)
    }
}

extension JSONValue {
    var isArrayOrObject: Bool {
        switch self {
        case .array, .object: true
        default: false
        }
    }
}
