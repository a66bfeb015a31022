/// A pattern of JSON locations, in the JSONPath forms a catalog writes for what to ignore or how
/// to match arrays: `$.meta.requestId`, `$.items[*].updatedAt`, `$.data.*.etag`, `$..traceId`
/// (at any depth), `$['odd name']`, `$.items[0]`. A leading `$` may be left out.
package struct LocationPattern: Sendable, Hashable, CustomStringConvertible {
    enum Step: Sendable, Hashable {
        case member(String)
        case index(Int)
        /// `.*`: any member; `[*]`: any element.
        case anyMember, anyElement
        /// `..`: any number of steps (none included).
        case anyDepth
    }

    let steps: [Step]
    package let description: String

    /// Why a pattern cannot be read.
    package struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
        package var description: String
    }

    /// Reads `text`.
    package init(_ text: String) throws(Problem) {
        description = text
        var steps: [Step] = []
        var rest = Substring(text.hasPrefix("$") ? String(text.dropFirst()) : text.hasPrefix(".") || text.hasPrefix("[") ? text : "." + text)
        func fail(_ reason: String) -> Problem { Problem(description: "'\(text)' is not a location: \(reason)") }
        while let first = rest.first {
            if rest.hasPrefix("..") {
                steps.append(.anyDepth)
                rest = rest.dropFirst(2)
                if rest.first == "[" { continue }
                let name = rest.prefix { $0 != "." && $0 != "[" }
                guard !name.isEmpty else { throw fail("a name must follow '..'") }
                steps.append(name == "*" ? .anyMember : .member(String(name)))
                rest = rest.dropFirst(name.count)
            } else if first == "." {
                rest = rest.dropFirst()
                let name = rest.prefix { $0 != "." && $0 != "[" }
                guard !name.isEmpty else { throw fail("a name must follow '.'") }
                steps.append(name == "*" ? .anyMember : .member(String(name)))
                rest = rest.dropFirst(name.count)
            } else if first == "[" {
                guard let close = Self.closingBracket(in: rest) else { throw fail("a '[' is not closed") }
                let inside = rest[rest.index(after: rest.startIndex)..<close]
                rest = rest[rest.index(after: close)...]
                if inside == "*" {
                    steps.append(.anyElement)
                } else if let index = Int(inside) {
                    steps.append(.index(index))
                } else if let quote = inside.first, quote == "'" || quote == "\"", inside.count >= 2, inside.last == quote {
                    steps.append(.member(String(inside.dropFirst().dropLast()).replacing("\\\(quote)", with: String(quote))))
                } else {
                    throw fail("'[\(inside)]' is neither [N], [*] nor ['name']")
                }
            } else {
                throw fail("unexpected '\(first)'")
            }
        }
        self.steps = steps
    }

    /// The `]` that closes the `[` at the start of `text`, past any quoted name.
    private static func closingBracket(in text: Substring) -> Substring.Index? {
        var quote: Character?
        var index = text.index(after: text.startIndex)
        while index < text.endIndex {
            let character = text[index]
            if let open = quote {
                if character == "\\" {
                    index = text.index(after: index)
                } else if character == open {
                    quote = nil
                }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "]" {
                return index
            }
            if index < text.endIndex { index = text.index(after: index) }
        }
        return nil
    }

    /// Whether `location` is one the pattern names.
    package func matches(_ location: JSONLocation) -> Bool {
        Self.matches(steps[...], location.steps[...])
    }

    /// Whether `location` is one the pattern names, or lies below one.
    package func covers(_ location: JSONLocation) -> Bool {
        (0...location.steps.count).contains { Self.matches(steps[...], location.steps.prefix($0)) }
    }

    private static func matches(_ pattern: ArraySlice<Step>, _ steps: ArraySlice<JSONLocation.Step>) -> Bool {
        guard let first = pattern.first else { return steps.isEmpty }
        if first == .anyDepth {
            return (0...steps.count).contains { matches(pattern.dropFirst(), steps.dropFirst($0)) }
        }
        guard let step = steps.first, accepts(first, step) else { return false }
        return matches(pattern.dropFirst(), steps.dropFirst())
    }

    private static func accepts(_ pattern: Step, _ step: JSONLocation.Step) -> Bool {
        switch (pattern, step) {
        case (.member(let a), .member(let b)): a == b
        case (.anyMember, .member): true
        case (.index(let a), .index(let b)): a == b
        case (.anyElement, .index), (.anyElement, .keyed): true
        default: false
        }
    }
}
