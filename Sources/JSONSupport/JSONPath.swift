/// A query that selects parts of a JSON document, in the documented subset of JSONPath:
///
/// | syntax | selects |
/// |---|---|
/// | `$` | the root |
/// | `.name`, `['name']`, `["name"]` | a member of an object |
/// | `[2]`, `[-1]` | an array element (negative counts from the end) |
/// | `.*`, `[*]` | every member or element |
/// | `..name`, `..*`, `..[0]` | the same, at any depth below |
/// | `[1:3]`, `[:2]`, `[::2]` | a slice of an array |
/// | `[0,2]`, `['a','b']` | a union |
/// | `[?(@.price < 10)]`, `[?(@.tag)]` | the elements for which a comparison (`==` `!=` `<` `<=` `>` `>=`) or existence test holds |
///
/// A leading `$` may be left out (`errors[*].message` means `$.errors[*].message`).
public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    /// One step of the path.
    package enum Segment: Sendable, Hashable {
        /// Applies the selectors to the current nodes' children.
        case child([Selector])
        /// Applies the selectors to every descendant of the current nodes (and the nodes themselves' children).
        case descendant([Selector])
    }

    /// What a step picks among a node's children.
    package enum Selector: Sendable, Hashable {
        case name(String)
        case index(Int)
        case wildcard
        case slice(start: Int?, end: Int?, step: Int?)
        case filter(Filter)
    }

    /// A filter test on each child: `@.path` exists, or `@.path OP literal`.
    package struct Filter: Sendable, Hashable {
        /// Relative path from the child (`@`), as segments.
        package var path: [Segment]
        /// The comparison, or nil for an existence test.
        package var comparison: (op: Comparison, literal: JSONValue)?

        package static func == (lhs: Filter, rhs: Filter) -> Bool {
            lhs.path == rhs.path && lhs.comparison?.op == rhs.comparison?.op
                && lhs.comparison?.literal == rhs.comparison?.literal
        }

        package func hash(into hasher: inout Hasher) {
            hasher.combine(path)
            hasher.combine(comparison?.op)
            hasher.combine(comparison?.literal)
        }
    }

    /// A comparison operator in a filter.
    package enum Comparison: String, Sendable, Hashable {
        case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    }

    /// The steps of the path after `$`.
    package let segments: [Segment]
    /// The text the path was parsed from.
    public let expression: String

    /// Parses an expression.
    public init(_ expression: String) throws(JSONPathError) {
        var parser = JSONPathParser(text: Array(expression.unicodeScalars))
        self.segments = try parser.parsePath()
        self.expression = expression
    }

    public var description: String { expression }

    /// Whether the path can select at most one node (no wildcards, slices, filters, unions or descent).
    package var isSingular: Bool {
        segments.allSatisfy { segment in
            guard case .child(let selectors) = segment, selectors.count == 1 else { return false }
            switch selectors[0] {
            case .name, .index: return true
            default: return false
            }
        }
    }

    /// The nodes the path selects in `root`, in document order.
    public func evaluate(_ root: JSONValue) -> [JSONValue] {
        // `$.name`, the usual error rule, without the node lists of the general walk.
        if segments.count == 1, case .child(let selectors) = segments[0], selectors.count == 1,
            case .name(let name) = selectors[0]
        {
            guard case .object(let object) = root, let value = object[name] else { return [] }
            return [value]
        }
        return JSONPath.apply(segments, to: [root])
    }

    /// The first node the path selects, if any.
    public func first(in root: JSONValue) -> JSONValue? {
        evaluate(root).first
    }

    static func apply(_ segments: [Segment], to nodes: [JSONValue]) -> [JSONValue] {
        var current = nodes
        for segment in segments {
            var next: [JSONValue] = []
            switch segment {
            case .child(let selectors):
                for node in current { select(selectors, in: node, into: &next) }
            case .descendant(let selectors):
                for node in current { descend(node, selectors: selectors, into: &next) }
            }
            current = next
        }
        return current
    }

    private static func descend(_ node: JSONValue, selectors: [Selector], into output: inout [JSONValue]) {
        select(selectors, in: node, into: &output)
        switch node {
        case .array(let elements): for element in elements { descend(element, selectors: selectors, into: &output) }
        case .object(let object): for member in object { descend(member.value, selectors: selectors, into: &output) }
        default: break
        }
    }

    private static func select(_ selectors: [Selector], in node: JSONValue, into output: inout [JSONValue]) {
        for selector in selectors {
            switch (selector, node) {
            case (.name(let name), .object(let object)):
                if let value = object[name] { output.append(value) }
            case (.index(let index), .array(let elements)):
                let resolved = index < 0 ? elements.count + index : index
                if elements.indices.contains(resolved) { output.append(elements[resolved]) }
            case (.wildcard, .array(let elements)):
                output.append(contentsOf: elements)
            case (.wildcard, .object(let object)):
                output.append(contentsOf: object.map(\.value))
            case (.slice(let start, let end, let step), .array(let elements)):
                for index in sliceIndices(count: elements.count, start: start, end: end, step: step) {
                    output.append(elements[index])
                }
            case (.filter(let filter), .array(let elements)):
                output.append(contentsOf: elements.filter { filter.matches($0) })
            case (.filter(let filter), .object(let object)):
                output.append(contentsOf: object.map(\.value).filter { filter.matches($0) })
            default:
                break
            }
        }
    }

    /// The indices a slice selects in an array of `count` elements (Python semantics).
    package static func sliceIndices(count: Int, start: Int?, end: Int?, step: Int?) -> [Int] {
        let step = step ?? 1
        guard step != 0, count > 0 else { return [] }
        func clamp(_ value: Int, low: Int, high: Int) -> Int { Swift.min(Swift.max(value, low), high) }
        func normalize(_ value: Int) -> Int { value < 0 ? value + count : value }
        if step > 0 {
            let from = clamp(normalize(start ?? 0), low: 0, high: count)
            let to = clamp(normalize(end ?? count), low: 0, high: count)
            return from < to ? Array(stride(from: from, to: to, by: step)) : []
        }
        let from = clamp(normalize(start ?? count - 1), low: -1, high: count - 1)
        let to = clamp(end.map(normalize) ?? -1, low: -1, high: count - 1)
        return from > to ? Array(stride(from: from, to: to, by: step)) : []
    }
}

extension JSONPath.Filter {
    /// Whether `node` passes the filter.
    package func matches(_ node: JSONValue) -> Bool {
        let found = path.isEmpty ? [node] : JSONPath.apply(path, to: [node])
        guard let comparison else { return !found.isEmpty }
        guard let value = found.first else { return comparison.op == .notEqual }
        return JSONPath.Filter.compare(value, comparison.op, comparison.literal)
    }

    static func compare(_ lhs: JSONValue, _ op: JSONPath.Comparison, _ rhs: JSONValue) -> Bool {
        if let left = lhs.doubleValue, let right = rhs.doubleValue {
            switch op {
            case .equal: return left == right
            case .notEqual: return left != right
            case .less: return left < right
            case .lessOrEqual: return left <= right
            case .greater: return left > right
            case .greaterOrEqual: return left >= right
            }
        }
        if let left = lhs.stringValue, let right = rhs.stringValue {
            switch op {
            case .equal: return left == right
            case .notEqual: return left != right
            case .less: return left < right
            case .lessOrEqual: return left <= right
            case .greater: return left > right
            case .greaterOrEqual: return left >= right
            }
        }
        switch op {
        case .equal: return lhs == rhs
        case .notEqual: return lhs != rhs
        default: return false
        }
    }
}

/// Why a JSONPath expression could not be parsed, with the 1-based column.
public struct JSONPathError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong.
    public var reason: String
    /// 1-based position in the expression.
    public var column: Int

    public var description: String { "column \(column): \(reason)" }
}
