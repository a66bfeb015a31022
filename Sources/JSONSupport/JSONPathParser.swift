/// Reads the JSONPath subset documented on `JSONPath`.
struct JSONPathParser {
    let text: [Unicode.Scalar]
    var index = 0

    init(text: [Unicode.Scalar]) { self.text = text }

    mutating func parsePath() throws(JSONPathError) -> [JSONPath.Segment] {
        skipSpaces()
        if peek() == "$" {
            index += 1
        } else if let first = peek(), isNameStart(first) {
            // `errors[*].message` is read as `$.errors[*].message`.
            let name = readName()
            var segments: [JSONPath.Segment] = [.child([.name(name)])]
            segments += try parseSegments(stopAt: nil)
            return segments
        } else if index >= text.count {
            throw fail("the path is empty")
        } else {
            throw fail("a path starts with '$'")
        }
        return try parseSegments(stopAt: nil)
    }

    /// Parses segments until the end or until a character in `stopAt` (used inside filters).
    mutating func parseSegments(stopAt: Set<Unicode.Scalar>?) throws(JSONPathError) -> [JSONPath.Segment] {
        var segments: [JSONPath.Segment] = []
        while true {
            skipSpaces()
            guard let scalar = peek() else { return segments }
            if let stopAt, stopAt.contains(scalar) { return segments }
            switch scalar {
            case ".":
                index += 1
                if peek() == "." {
                    index += 1
                    if peek() == "[" {
                        segments.append(.descendant(try parseBracket()))
                    } else {
                        segments.append(.descendant([try parseDotSelector()]))
                    }
                } else {
                    segments.append(.child([try parseDotSelector()]))
                }
            case "[":
                segments.append(.child(try parseBracket()))
            default:
                if stopAt != nil { return segments }
                throw fail("unexpected '\(scalar)'")
            }
        }
    }

    mutating func parseDotSelector() throws(JSONPathError) -> JSONPath.Selector {
        if peek() == "*" {
            index += 1
            return .wildcard
        }
        guard let scalar = peek(), isNameStart(scalar) else { throw fail("expected a name after '.'") }
        return .name(readName())
    }

    mutating func parseBracket() throws(JSONPathError) -> [JSONPath.Selector] {
        index += 1  // [
        var selectors: [JSONPath.Selector] = []
        while true {
            skipSpaces()
            guard let scalar = peek() else { throw fail("missing ']'") }
            switch scalar {
            case "*":
                index += 1
                selectors.append(.wildcard)
            case "'", "\"":
                selectors.append(.name(try readQuoted()))
            case "?":
                index += 1
                selectors.append(.filter(try parseFilter()))
            default:
                selectors.append(try parseIndexOrSlice())
            }
            skipSpaces()
            switch peek() {
            case ",": index += 1
            case "]":
                index += 1
                return selectors
            default: throw fail("expected ',' or ']'")
            }
        }
    }

    mutating func parseIndexOrSlice() throws(JSONPathError) -> JSONPath.Selector {
        var parts: [Int?] = [readInteger()]
        skipSpaces()
        while peek() == ":" {
            index += 1
            skipSpaces()
            parts.append(readInteger())
            skipSpaces()
        }
        if parts.count == 1 {
            guard let value = parts[0] else { throw fail("expected an index, a name in quotes, '*' or '?'") }
            return .index(value)
        }
        guard parts.count <= 3 else { throw fail("a slice has at most start:end:step") }
        return .slice(start: parts[0], end: parts[1], step: parts.count == 3 ? parts[2] : nil)
    }

    mutating func parseFilter() throws(JSONPathError) -> JSONPath.Filter {
        skipSpaces()
        let parenthesised = peek() == "("
        if parenthesised { index += 1 }
        skipSpaces()
        guard peek() == "@" else { throw fail("a filter starts with '@'") }
        index += 1
        let path = try parseSegments(stopAt: ["=", "!", "<", ">", ")", "]", " "])
        skipSpaces()
        var comparison: (op: JSONPath.Comparison, literal: JSONValue)?
        if let op = readComparison() {
            skipSpaces()
            comparison = (op, try readLiteral())
            skipSpaces()
        }
        if parenthesised {
            guard peek() == ")" else { throw fail("missing ')' in the filter") }
            index += 1
        }
        return JSONPath.Filter(path: path, comparison: comparison)
    }

    mutating func readComparison() -> JSONPath.Comparison? {
        for op in [JSONPath.Comparison.equal, .notEqual, .lessOrEqual, .greaterOrEqual, .less, .greater] {
            let symbol = Array(op.rawValue.unicodeScalars)
            if index + symbol.count <= text.count, Array(text[index..<index + symbol.count]) == symbol {
                index += symbol.count
                return op
            }
        }
        return nil
    }

    mutating func readLiteral() throws(JSONPathError) -> JSONValue {
        guard let scalar = peek() else { throw fail("expected a value to compare with") }
        if scalar == "'" || scalar == "\"" { return .string(try readQuoted()) }
        let start = index
        while let next = peek(), !" )]".unicodeScalars.contains(next) { index += 1 }
        let word = string(start..<index)
        switch word {
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "null": return .null
        default:
            guard Double(word) != nil else {
                index = start
                throw fail("expected a number, a string in quotes, true, false or null")
            }
            return .number(word)
        }
    }

    mutating func readQuoted() throws(JSONPathError) -> String {
        let quote = text[index]
        index += 1
        var result = String.UnicodeScalarView()
        while let scalar = peek() {
            index += 1
            if scalar == quote { return String(result) }
            if scalar == "\\", let escaped = peek() {
                index += 1
                result.append(escaped)
            } else {
                result.append(scalar)
            }
        }
        throw fail("unterminated string")
    }

    mutating func readInteger() -> Int? {
        let start = index
        if peek() == "-" { index += 1 }
        while let scalar = peek(), ("0"..."9").contains(scalar) { index += 1 }
        guard index > start else { return nil }
        guard let value = Int(string(start..<index)) else {
            index = start
            return nil
        }
        return value
    }

    mutating func readName() -> String {
        let start = index
        while let scalar = peek(), isNamePart(scalar) { index += 1 }
        return string(start..<index)
    }

    /// The text of `range`, scalar by scalar: `String.UnicodeScalarView(slice)` is generic code
    /// whose first call is paid at every launch (error rules name paths; docs/performance.md).
    func string(_ range: Range<Int>) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text[range] { scalars.append(scalar) }
        return String(scalars)
    }

    func isNameStart(_ scalar: Unicode.Scalar) -> Bool {
        // Every non-ASCII scalar may start a name, so of the Unicode properties only ASCII's
        // letters matter (asking the properties costs more than the rest of reading a name).
        scalar == "_" || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar.value > 0x7F
    }

    func isNamePart(_ scalar: Unicode.Scalar) -> Bool {
        isNameStart(scalar) || ("0"..."9").contains(scalar) || scalar == "-"
    }

    func peek() -> Unicode.Scalar? { index < text.count ? text[index] : nil }

    mutating func skipSpaces() {
        while peek() == " " { index += 1 }
    }

    func fail(_ reason: String) -> JSONPathError {
        JSONPathError(reason: reason, column: index + 1)
    }
}
