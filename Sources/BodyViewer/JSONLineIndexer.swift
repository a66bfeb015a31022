/// Why a body is not valid JSON: the reason and the byte offset where reading stopped.
struct JSONIndexError: Error, Sendable, Hashable {
    var reason: String
    var offset: Int
}

/// Builds a `JSONLineIndex` in one pass over the bytes, iteratively (an explicit stack, no recursion, so
/// any depth is safe) and resumably: `scan(upTo:)` stops at the first token boundary past a limit, so the
/// builder can check cancellation, report progress and publish a preview between chunks.
struct JSONLineIndexer {
    private enum Expectation {
        case value, key, colon, commaOrClose, end
    }

    private let bytes: UnsafeRawBufferPointer
    private let allowsSequence: Bool
    private(set) var position: Int
    private var expectation = Expectation.value
    /// Open lines of the containers not yet closed, innermost last.
    private var openContainers: [Int] = []
    /// Whether each open container is an object, parallel to `openContainers`.
    private var openIsObject: [Bool] = []
    /// Items read so far in each open container, parallel to `openContainers`.
    private var openCounts: [Int] = []
    /// Offset of the key whose value comes next, or -1.
    private var pendingKey = -1
    private(set) var index = JSONLineIndex()
    /// First byte of a string that is not valid UTF-8, if any.
    private(set) var firstInvalidUTF8: Int?
    /// How many top-level values were read.
    private(set) var rootCount = 0

    /// Reads `bytes`; with `allowsSequence`, several top-level values may follow each other (NDJSON, jq output).
    init(bytes: UnsafeRawBufferPointer, allowsSequence: Bool) {
        self.bytes = bytes
        self.allowsSequence = allowsSequence
        var start = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start = 3 }
        self.position = start
        index.reserve(lines: min(bytes.count / 24 + 16, 1 << 20))
    }

    var isFinished: Bool { position >= bytes.count }

    /// Reserves room for the whole body from the density seen so far (plus 10%), so the arrays grow
    /// once instead of doubling: no 2× transient copies and little slack on a 100 MB body.
    mutating func reserveFromDensity() {
        guard position > 0, position < bytes.count else { return }
        let scale = Double(bytes.count) / Double(position) * 1.1
        index.reserve(lines: Int(Double(index.recordedLineCount) * scale) + 16)
    }

    /// Reads tokens until `position` reaches `limit` (or the end).
    mutating func scan(upTo limit: Int) throws(JSONIndexError) {
        let end = bytes.count
        let limit = min(limit, end)
        while position < limit {
            skipWhitespace()
            guard position < end else { break }
            let byte = bytes[position]
            switch expectation {
            case .value:
                try readValue(byte)
            case .key:
                guard byte == Byte.quote else { throw fail("expected a string key") }
                pendingKey = position
                position = try skipString(from: position)
                expectation = .colon
            case .colon:
                guard byte == Byte.colon else { throw fail("expected ':' after the key") }
                position += 1
                expectation = .value
            case .commaOrClose:
                try readCommaOrClose(byte)
            case .end:
                guard allowsSequence else { throw fail("unexpected text after the JSON value") }
                expectation = .value
            }
        }
    }

    /// Checks that the document ended where a value may end, and returns the index.
    mutating func finish() throws(JSONIndexError) -> JSONLineIndex {
        skipWhitespace()
        if position < bytes.count { try scan(upTo: bytes.count) }
        if rootCount == 0 && openContainers.isEmpty && expectation == .value {
            throw JSONIndexError(reason: "the document is empty", offset: position)
        }
        guard expectation == .end else { throw JSONIndexError(reason: "unexpected end of input", offset: position) }
        return index
    }

    /// A copy of the lines read so far, for showing the first screen early (containers still open
    /// have no close line yet).
    func snapshot() -> JSONLineIndex {
        var copy = index
        // The last line's end is only known once the next line starts.
        copy.trailingLines = copy.recordedLineCount == 0 ? 0 : 1
        return copy
    }

    // MARK: Values

    private mutating func readValue(_ byte: UInt8) throws(JSONIndexError) {
        let member = pendingKey >= 0
        let lineStart = member ? pendingKey : position
        pendingKey = -1
        let depth = openContainers.count
        guard depth <= JSONLineIndex.maximumDepth else {
            throw fail("nesting deeper than \(JSONLineIndex.maximumDepth) levels")
        }
        guard lineStart <= JSONLineIndex.maximumOffset, index.recordedLineCount < Int(UInt32.max - 1) else {
            throw fail("the body is too large to lay out")
        }
        if !openCounts.isEmpty { openCounts[openCounts.count - 1] += 1 }
        switch byte {
        case Byte.openBrace, Byte.openBracket:
            let closing = byte == Byte.openBrace ? Byte.closeBrace : Byte.closeBracket
            var next = position + 1
            while next < bytes.count, Byte.isWhitespace(bytes[next]) { next += 1 }
            if next < bytes.count, bytes[next] == closing {
                appendLine(lineStart, depth, member, .empty)
                position = next + 1
                valueEnded()
                return
            }
            openContainers.append(index.recordedLineCount)
            appendLine(lineStart, depth, member, .open)
            openIsObject.append(byte == Byte.openBrace)
            openCounts.append(0)
            position += 1
            expectation = byte == Byte.openBrace ? .key : .value
        case Byte.quote:
            appendLine(lineStart, depth, member, .scalar)
            position = try skipString(from: position)
            valueEnded()
        case Byte.minus, Byte.zero...Byte.nine:
            appendLine(lineStart, depth, member, .scalar)
            try skipNumber()
            valueEnded()
        case Byte.lowerT:
            appendLine(lineStart, depth, member, .scalar)
            try skipLiteral("true")
            valueEnded()
        case Byte.lowerF:
            appendLine(lineStart, depth, member, .scalar)
            try skipLiteral("false")
            valueEnded()
        case Byte.lowerN:
            appendLine(lineStart, depth, member, .scalar)
            try skipLiteral("null")
            valueEnded()
        default:
            if byte == Byte.closeBracket || byte == Byte.closeBrace, !openContainers.isEmpty {
                throw fail("expected a value, not '\(Character(Unicode.Scalar(byte)))' (a trailing comma?)")
            }
            throw fail("unexpected character \(Byte.describe(byte))")
        }
    }

    private mutating func readCommaOrClose(_ byte: UInt8) throws(JSONIndexError) {
        guard let container = openContainers.last, let isObject = openIsObject.last else {
            throw fail("unexpected character \(Byte.describe(byte))")
        }
        if byte == Byte.comma {
            position += 1
            expectation = isObject ? .key : .value
            return
        }
        guard byte == (isObject ? Byte.closeBrace : Byte.closeBracket) else {
            throw fail(isObject ? "expected ',' or '}' in the object" : "expected ',' or ']' in the array")
        }
        openContainers.removeLast()
        openIsObject.removeLast()
        let count = openCounts.removeLast()
        // Large containers keep their count: counting them when asked would scan all their lines.
        if index.recordedLineCount - container > JSONLineIndex.countedSpan { index.largeCounts[container] = count }
        appendLine(position, openContainers.count, false, .close)
        position += 1
        valueEnded()
    }

    @inline(__always) private mutating func appendLine(_ offset: Int, _ depth: Int, _ member: Bool, _ kind: JSONLineKind) {
        index.append(offset: offset, depth: depth, member: member, kind: kind)
    }

    @inline(__always) private mutating func valueEnded() {
        if openContainers.isEmpty {
            rootCount += 1
            expectation = .end
        } else {
            expectation = .commaOrClose
        }
    }

    // MARK: Tokens

    @inline(__always) private mutating func skipWhitespace() {
        while position < bytes.count, Byte.isWhitespace(bytes[position]) { position += 1 }
    }

    /// Skips the string starting at `start` (its opening quote); returns the offset after the closing quote.
    private mutating func skipString(from start: Int) throws(JSONIndexError) -> Int {
        let end = bytes.count
        var cursor = start + 1
        while true {
            cursor = ByteScanning.skipPlainStringBytes(bytes, from: cursor)
            guard cursor < end else { throw JSONIndexError(reason: "unterminated string", offset: start) }
            let byte = bytes[cursor]
            if byte == Byte.quote { return cursor + 1 }
            if byte == Byte.backslash {
                guard cursor + 1 < end else { throw JSONIndexError(reason: "unterminated string", offset: start) }
                let escape = bytes[cursor + 1]
                switch escape {
                case Byte.quote, Byte.backslash, Byte.slash, Byte.lowerB, Byte.lowerF, Byte.lowerN, Byte.lowerR,
                    Byte.lowerT:
                    cursor += 2
                case Byte.lowerU:
                    guard cursor + 6 <= end, (2..<6).allSatisfy({ Byte.isHexDigit(bytes[cursor + $0]) }) else {
                        throw JSONIndexError(reason: "invalid \\u escape", offset: cursor)
                    }
                    cursor += 6
                default:
                    throw JSONIndexError(reason: "invalid escape \(Byte.describe(escape))", offset: cursor)
                }
            } else if byte < 0x20 {
                throw JSONIndexError(reason: "control character in a string", offset: cursor)
            } else {
                let length = UTF8Validation.sequenceLength(bytes, at: cursor)
                if length == 0 {
                    if firstInvalidUTF8 == nil { firstInvalidUTF8 = cursor }
                    cursor += 1
                } else {
                    cursor += length
                }
            }
        }
    }

    private mutating func skipNumber() throws(JSONIndexError) {
        if bytes[position] == Byte.minus { position += 1 }
        guard position < bytes.count, Byte.isDigit(bytes[position]) else { throw fail("expected a digit") }
        if bytes[position] == Byte.zero {
            position += 1
        } else {
            skipDigits()
        }
        if position < bytes.count, bytes[position] == Byte.dot {
            position += 1
            guard position < bytes.count, Byte.isDigit(bytes[position]) else { throw fail("expected a digit after '.'") }
            skipDigits()
        }
        if position < bytes.count, bytes[position] | 0x20 == Byte.lowerE {
            position += 1
            if position < bytes.count, bytes[position] == Byte.plus || bytes[position] == Byte.minus { position += 1 }
            guard position < bytes.count, Byte.isDigit(bytes[position]) else {
                throw fail("expected a digit in the exponent")
            }
            skipDigits()
        }
    }

    @inline(__always) private mutating func skipDigits() {
        while position < bytes.count, Byte.isDigit(bytes[position]) { position += 1 }
    }

    private mutating func skipLiteral(_ literal: StaticString) throws(JSONIndexError) {
        let count = literal.utf8CodeUnitCount
        let matches = literal.withUTF8Buffer { expected in
            position + count <= bytes.count && (0..<count).allSatisfy { bytes[position + $0] == expected[$0] }
        }
        guard matches else { throw fail("unexpected character \(Byte.describe(bytes[position]))") }
        position += count
    }

    private func fail(_ reason: String) -> JSONIndexError {
        JSONIndexError(reason: reason, offset: position)
    }
}
