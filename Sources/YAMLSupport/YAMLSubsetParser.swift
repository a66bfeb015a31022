/// Reads the plain subset of YAML that catalog files are written in, several times faster than
/// libyaml (whose reader, token queue and per-token allocations were half of loading a large
/// catalog folder). It feeds the same `YAMLTreeBuilder` with the same positions libyaml gives.
///
/// The subset: block mappings and sequences (indentless ones too) and compact mappings in
/// sequences; plain scalars on one line; quoted scalars on one line with the common escapes;
/// literal and folded block scalars; flow mappings and sequences on one line; comments.
/// Anything else — anchors, aliases, tags, multi-line plain or quoted scalars, multi-line flow
/// collections, tabs, CR, document markers — and every error leaves the subset: `compose` then
/// returns nil and the caller lets libyaml read the whole text, so errors keep libyaml's
/// messages. Whenever this parser accepts a text, libyaml makes the same tree of it
/// (`YAMLSubsetParserTests` and the FuzzYAML target compare them).
struct YAMLSubsetParser {
    /// The text leaves the subset.
    struct OutsideSubset: Error {}

    /// The composition of `text`, or nil when the text is outside the subset (or wrong).
    static func compose(_ text: UnsafeBufferPointer<UInt8>, marker: UInt8?) -> YAMLComposer.Composition? {
        guard let isASCII = printableText(text) else { return nil }
        var parser = YAMLSubsetParser(text: text, isASCII: isASCII, builder: YAMLTreeBuilder(marker: marker, length: text.count))
        do {
            try parser.parseDocument()
        } catch {
            return nil
        }
        return parser.builder.finished()
    }

    /// Nesting deeper than this leaves the subset (the parser recurses).
    static let maximumDepth = 100
    /// A key longer than this leaves the subset (libyaml limits a simple key to 1024 characters).
    static let maximumKeyLength = 1000

    private let text: UnsafeBufferPointer<UInt8>
    /// Whether every character is one byte, so a column is an offset.
    private let isASCII: Bool
    private var builder: YAMLTreeBuilder
    private var position = 0
    /// 1-based line of `position`.
    private var line: Int32 = 1
    /// Where the line of `position` starts.
    private var lineStart = 0
    /// The last column computed on this line, so columns cost the characters since then.
    private var columnPosition = 0
    private var columnValue: Int32 = 1
    private var depth = 0
    /// Text of scalars that need unescaping or joining.
    private var scratch: [UInt8] = []

    private init(text: UnsafeBufferPointer<UInt8>, isASCII: Bool, builder: YAMLTreeBuilder) {
        self.text = text
        self.isASCII = isASCII
        self.builder = builder
    }

    // MARK: Characters

    private static let newline = UInt8(ascii: "\n")
    private static let space = UInt8(ascii: " ")

    /// The byte at `offset`, or 0 past the end (the text holds no NUL: `printableText`).
    @inline(__always) private func byte(_ offset: Int) -> UInt8 {
        offset < text.count ? text[offset] : 0
    }

    /// Whether `offset` holds a space, a line break or the end.
    @inline(__always) private func isBlankOrEnd(_ offset: Int) -> Bool {
        let value = byte(offset)
        return value == YAMLSubsetParser.space || value == YAMLSubsetParser.newline || value == 0
    }

    /// Whether the text holds only what libyaml reads as printable (line feed and no other
    /// control character; no tab or CR, which the subset leaves out) and no character libyaml
    /// takes for a line break (NEL, U+2028, U+2029) or a byte-order mark: nil when not, else
    /// whether it is all ASCII.
    static func printableText(_ text: UnsafeBufferPointer<UInt8>) -> Bool? {
        var isASCII = true
        var index = 0
        let count = text.count
        while index < count {
            let value = text[index]
            if value >= 0x20 && value < 0x7F || value == newline {
                index += 1
                continue
            }
            isASCII = false
            if value < 0xC2 { return nil }
            if value < 0xE0 {
                // U+0080 … U+07FF: U+0080 … U+009F are C1 controls (NEL among them).
                guard index + 1 < count else { return nil }
                if value == 0xC2 && text[index + 1] < 0xA0 { return nil }
                index += 2
            } else if value < 0xF0 {
                guard index + 2 < count else { return nil }
                let scalar = UInt32(value & 0x0F) << 12 | UInt32(text[index + 1] & 0x3F) << 6 | UInt32(text[index + 2] & 0x3F)
                if scalar == 0x2028 || scalar == 0x2029 || scalar == 0xFEFF || scalar >= 0xFFFE || (0xD800...0xDFFF).contains(scalar) {
                    return nil
                }
                index += 3
            } else {
                guard index + 3 < count, value < 0xF5 else { return nil }
                index += 4
            }
        }
        return isASCII
    }

    /// The 1-based column of `offset` on the current line, counted in characters.
    private mutating func column(at offset: Int) -> Int32 {
        if isASCII { return Int32(truncatingIfNeeded: offset - lineStart + 1) }
        if columnPosition < lineStart || columnPosition > offset {
            columnPosition = lineStart
            columnValue = 1
        }
        var value = columnValue
        var index = columnPosition
        while index < offset {
            if text[index] & 0xC0 != 0x80 { value += 1 }
            index += 1
        }
        columnPosition = offset
        columnValue = value
        return value
    }

    /// Moves past the line break at `position`.
    private mutating func newLine() {
        position += 1
        line += 1
        lineStart = position
    }

    private mutating func skipSpaces() {
        while byte(position) == YAMLSubsetParser.space { position += 1 }
    }

    /// From within a line's indentation: skips empty and comment lines, and returns the
    /// indentation of the next line with content (`position` at its first character), or nil
    /// at the end of the text.
    private mutating func nextContentLine() throws(OutsideSubset) -> Int? {
        while true {
            skipSpaces()
            switch byte(position) {
            case 0:
                return nil
            case YAMLSubsetParser.newline:
                newLine()
            case UInt8(ascii: "#"):
                while byte(position) != YAMLSubsetParser.newline && byte(position) != 0 { position += 1 }
            default:
                let indentation = position - lineStart
                if indentation == 0 && isDocumentMarker(position) { throw OutsideSubset() }
                return indentation
            }
        }
    }

    /// `---` or `...` at the start of a line.
    private func isDocumentMarker(_ offset: Int) -> Bool {
        let first = byte(offset)
        guard first == UInt8(ascii: "-") || first == UInt8(ascii: ".") else { return false }
        return byte(offset + 1) == first && byte(offset + 2) == first && isBlankOrEnd(offset + 3)
    }

    /// After a node: only spaces and a comment may follow on its line. Moves to the next line.
    private mutating func finishLine() throws(OutsideSubset) {
        let start = position
        skipSpaces()
        if byte(position) == UInt8(ascii: "#") {
            guard position > start else { throw OutsideSubset() }
            while byte(position) != YAMLSubsetParser.newline && byte(position) != 0 { position += 1 }
        }
        switch byte(position) {
        case YAMLSubsetParser.newline: newLine()
        case 0: return
        default: throw OutsideSubset()
        }
    }

    /// `- ` (or `-` at the end of a line) at `offset`.
    private func isSequenceEntry(_ offset: Int) -> Bool {
        byte(offset) == UInt8(ascii: "-") && isBlankOrEnd(offset + 1)
    }

    // MARK: Block structure

    private mutating func parseDocument() throws(OutsideSubset) {
        guard let indentation = try nextContentLine() else { return }
        try building { (builder: inout YAMLTreeBuilder, line, column) throws(YAMLSyntaxError) in
            try builder.startDocument(line: line, column: column)
        }
        if try parseBlockCollection(indentation: indentation) != nil { throw OutsideSubset() }
    }

    /// Runs a builder step at `position`; a builder error (too deep, too many values) leaves the
    /// subset, so libyaml's reading reports it.
    private mutating func building(_ step: (inout YAMLTreeBuilder, Int32, Int32) throws(YAMLSyntaxError) -> Void) throws(OutsideSubset) {
        let column = column(at: position)
        do {
            try step(&builder, line, column)
        } catch {
            throw OutsideSubset()
        }
    }

    /// A block mapping or sequence whose first line has `indentation`; returns the indentation of
    /// the line after it (nil at the end).
    private mutating func parseBlockCollection(indentation: Int) throws(OutsideSubset) -> Int? {
        if isSequenceEntry(position) {
            return try parseBlockSequence(indentation: indentation, isIndentless: false)
        }
        return try parseBlockMapping(indentation: indentation)
    }

    private mutating func enter() throws(OutsideSubset) {
        depth += 1
        if depth > YAMLSubsetParser.maximumDepth { throw OutsideSubset() }
    }

    /// A block mapping whose keys are at `indentation` (`position` at its first key).
    private mutating func parseBlockMapping(indentation: Int) throws(OutsideSubset) -> Int? {
        try enter()
        defer { depth -= 1 }
        try building { (builder: inout YAMLTreeBuilder, line, column) throws(YAMLSyntaxError) in
            try builder.startCollection(isMapping: true, isFlow: false, anchor: nil, line: line, column: column)
        }
        var next: Int?
        while true {
            if isSequenceEntry(position) { throw OutsideSubset() }
            try parseKey()
            let afterIndicator = position
            skipSpaces()
            let value = byte(position)
            if value == YAMLSubsetParser.newline || value == 0 || value == UInt8(ascii: "#") {
                let indicatorLine = line
                let indicatorColumn = column(at: afterIndicator)
                position = afterIndicator
                try finishLine()
                let following = try nextContentLine()
                if let following, following > indentation {
                    next = try parseBlockCollection(indentation: following)
                } else if let following, following == indentation, isSequenceEntry(position) {
                    next = try parseBlockSequence(indentation: indentation, isIndentless: true)
                } else {
                    // No value: libyaml gives an empty plain scalar where the indicator ends.
                    try addEmptyScalar(line: indicatorLine, column: indicatorColumn)
                    next = following
                }
            } else {
                try parseInlineValue(blockIndentation: indentation)
                next = try nextContentLine()
            }
            guard let following = next, following >= indentation else { break }
            if following > indentation { throw OutsideSubset() }
        }
        try building { (builder: inout YAMLTreeBuilder, line, _) throws(YAMLSyntaxError) in try builder.endCollection(lastLine: line) }
        return next
    }

    /// A block sequence whose `-` are at `indentation`; an indentless one (a mapping's value,
    /// its `-` under the key) ends at the next key.
    private mutating func parseBlockSequence(indentation: Int, isIndentless: Bool) throws(OutsideSubset) -> Int? {
        try enter()
        defer { depth -= 1 }
        try building { (builder: inout YAMLTreeBuilder, line, column) throws(YAMLSyntaxError) in
            try builder.startCollection(isMapping: false, isFlow: false, anchor: nil, line: line, column: column)
        }
        var next: Int?
        while true {
            position += 1
            let afterIndicator = position
            skipSpaces()
            let value = byte(position)
            if value == YAMLSubsetParser.newline || value == 0 || value == UInt8(ascii: "#") {
                position = afterIndicator
                try finishLine()
                guard let following = try nextContentLine(), following > indentation else { throw OutsideSubset() }
                next = try parseBlockCollection(indentation: following)
            } else if isSequenceEntry(position) {
                throw OutsideSubset()
            } else if try isCompactKey() {
                next = try parseBlockMapping(indentation: position - lineStart)
            } else {
                try parseInlineValue(blockIndentation: indentation)
                next = try nextContentLine()
            }
            guard let following = next, following >= indentation else { break }
            if following > indentation { throw OutsideSubset() }
            if !isSequenceEntry(position) {
                guard isIndentless else { throw OutsideSubset() }
                break
            }
        }
        try building { (builder: inout YAMLTreeBuilder, line, _) throws(YAMLSyntaxError) in try builder.endCollection(lastLine: line) }
        return next
    }

    /// A block mapping's key and its `:` (`position` after the `:`).
    private mutating func parseKey() throws(OutsideSubset) {
        let start = position
        let first = byte(position)
        if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") {
            try parseQuoted()
            skipSpaces()
        } else {
            try checkPlainStart()
            let (indicator, stop) = blockPlainEnd(from: position)
            guard stop == .indicator else { throw OutsideSubset() }
            _ = try addPlainScalar(endingAt: indicator)
            position = indicator
        }
        guard byte(position) == UInt8(ascii: ":"), isBlankOrEnd(position + 1), position - start <= YAMLSubsetParser.maximumKeyLength else {
            throw OutsideSubset()
        }
        position += 1
    }

    /// Whether a sequence item at `position` is a compact mapping (`- key: value`); reads ahead only.
    private func isCompactKey() throws(OutsideSubset) -> Bool {
        let first = byte(position)
        if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") {
            var offset = try quotedEnd(from: position)
            while byte(offset) == YAMLSubsetParser.space { offset += 1 }
            return byte(offset) == UInt8(ascii: ":") && isBlankOrEnd(offset + 1)
        }
        if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") || first == UInt8(ascii: "|") || first == UInt8(ascii: ">") { return false }
        return blockPlainEnd(from: position).stop == .indicator
    }

    /// What ends a plain scalar in a block.
    private enum PlainStop {
        /// `: ` or `:` at the end of the line: the scalar is a key.
        case indicator
        /// ` #`: a comment follows.
        case comment
        /// The line ends.
        case lineEnd
    }

    /// Where the plain scalar at `offset` in a block ends, and why (trailing spaces included).
    private func blockPlainEnd(from offset: Int) -> (end: Int, stop: PlainStop) {
        var end = offset
        while true {
            let value = byte(end)
            if value == YAMLSubsetParser.newline || value == 0 { return (end, .lineEnd) }
            if value == UInt8(ascii: ":") && isBlankOrEnd(end + 1) { return (end, .indicator) }
            if value == YAMLSubsetParser.space && byte(end + 1) == UInt8(ascii: "#") { return (end, .comment) }
            end += 1
        }
    }

    /// A value on the line of its key or `-`: a scalar, a flow collection or a block scalar. Ends at the start of the next line (or within a block scalar's last indentation).
    private mutating func parseInlineValue(blockIndentation: Int) throws(OutsideSubset) {
        switch byte(position) {
        case UInt8(ascii: "|"), UInt8(ascii: ">"):
            try parseBlockScalar(blockIndentation: blockIndentation)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            try parseFlowCollection()
            try finishLine()
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            try parseQuoted()
            try finishLine()
        default:
            try checkPlainStart()
            let (end, stop) = blockPlainEnd(from: position)
            // A second `key: ` on the line is an error libyaml reports.
            if stop == .indicator { throw OutsideSubset() }
            position = try addPlainScalar(endingAt: end)
            try finishLine()
        }
    }

    /// A plain scalar may not start with an indicator; `-` may start one when a letter, digit or
    /// `.` follows (`-1`, `-x`).
    private func checkPlainStart() throws(OutsideSubset) {
        switch byte(position) {
        case UInt8(ascii: "-"):
            let next = byte(position + 1)
            let isWord = (next >= UInt8(ascii: "0") && next <= UInt8(ascii: "9")) || (next | 0x20 >= UInt8(ascii: "a") && next | 0x20 <= UInt8(ascii: "z"))
                || next == UInt8(ascii: ".")
            if !isWord { throw OutsideSubset() }
        case UInt8(ascii: "?"), UInt8(ascii: ":"), UInt8(ascii: ","), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"),
            UInt8(ascii: "#"), UInt8(ascii: "&"), UInt8(ascii: "*"), UInt8(ascii: "!"), UInt8(ascii: "|"), UInt8(ascii: ">"), UInt8(ascii: "'"),
            UInt8(ascii: "\""), UInt8(ascii: "%"), UInt8(ascii: "@"), UInt8(ascii: "`"), YAMLSubsetParser.space, YAMLSubsetParser.newline, 0:
            throw OutsideSubset()
        default:
            break
        }
    }

    // MARK: Block scalars

    /// A literal or folded block scalar (`|`, `>`, with `-` or `+`), read as libyaml reads one:
    /// its indentation is that of its first non-empty line (at least one more than the block's),
    /// and its end is after the last line break it takes, trailing empty lines included.
    private mutating func parseBlockScalar(blockIndentation: Int) throws(OutsideSubset) {
        let startLine = line
        let startColumn = column(at: position)
        let isLiteral = byte(position) == UInt8(ascii: "|")
        position += 1
        var chomping = 0
        let indicator = byte(position)
        if indicator == UInt8(ascii: "-") || indicator == UInt8(ascii: "+") {
            chomping = indicator == UInt8(ascii: "+") ? 1 : -1
            position += 1
        }
        let afterIndicators = position
        skipSpaces()
        if byte(position) == UInt8(ascii: "#") {
            guard position > afterIndicators else { throw OutsideSubset() }
            while byte(position) != YAMLSubsetParser.newline && byte(position) != 0 { position += 1 }
        }
        guard byte(position) == YAMLSubsetParser.newline else { throw OutsideSubset() }
        newLine()
        var endLine = line
        var endColumn = 0
        var indentation = 0
        var trailingBreaks = 0
        scanBreaks(indentation: &indentation, blockIndentation: blockIndentation, breaks: &trailingBreaks, endLine: &endLine, endColumn: &endColumn)
        scratch.removeAll(keepingCapacity: true)
        var leadingBreak = false
        var leadingBlank = false
        while position - lineStart == indentation && byte(position) != 0 {
            let trailingBlank = byte(position) == YAMLSubsetParser.space
            if !isLiteral && leadingBreak && !leadingBlank && !trailingBlank {
                // Folding: a single break between two text lines becomes a space.
                if trailingBreaks == 0 { scratch.append(YAMLSubsetParser.space) }
            } else if leadingBreak {
                scratch.append(YAMLSubsetParser.newline)
            }
            for _ in 0..<trailingBreaks { scratch.append(YAMLSubsetParser.newline) }
            trailingBreaks = 0
            leadingBreak = false
            leadingBlank = trailingBlank
            let start = position
            while byte(position) != YAMLSubsetParser.newline && byte(position) != 0 { position += 1 }
            scratch.append(contentsOf: UnsafeBufferPointer(rebasing: text[start..<position]))
            if byte(position) == YAMLSubsetParser.newline {
                newLine()
                leadingBreak = true
            }
            scanBreaks(indentation: &indentation, blockIndentation: blockIndentation, breaks: &trailingBreaks, endLine: &endLine, endColumn: &endColumn)
        }
        if chomping != -1 && leadingBreak { scratch.append(YAMLSubsetParser.newline) }
        if chomping == 1 {
            for _ in 0..<trailingBreaks { scratch.append(YAMLSubsetParser.newline) }
        }
        // libyaml's end mark: at a line's start it ends the line before.
        let lastLine = endColumn == 0 && endLine > 1 ? endLine - 1 : endLine
        try addScratchScalar(line: startLine, column: startColumn, lastLine: lastLine)
    }

    /// Eats the indentation and empty lines before a block scalar's next line, counting the
    /// breaks; settles the indentation when it is not yet known (0).
    private mutating func scanBreaks(indentation: inout Int, blockIndentation: Int, breaks: inout Int, endLine: inout Int32, endColumn: inout Int) {
        endLine = line
        endColumn = position - lineStart
        var deepest = 0
        while true {
            while (indentation == 0 || position - lineStart < indentation) && byte(position) == YAMLSubsetParser.space { position += 1 }
            deepest = max(deepest, position - lineStart)
            guard byte(position) == YAMLSubsetParser.newline else { break }
            newLine()
            breaks += 1
            endLine = line
            endColumn = 0
        }
        if indentation == 0 {
            indentation = max(deepest, blockIndentation + 1, 1)
        }
    }

    // MARK: Flow collections and scalars

    /// A flow mapping or sequence on one line.
    private mutating func parseFlowCollection() throws(OutsideSubset) {
        try enter()
        defer { depth -= 1 }
        let isMapping = byte(position) == UInt8(ascii: "{")
        let close = isMapping ? UInt8(ascii: "}") : UInt8(ascii: "]")
        try building { (builder: inout YAMLTreeBuilder, line, column) throws(YAMLSyntaxError) in
            try builder.startCollection(isMapping: isMapping, isFlow: true, anchor: nil, line: line, column: column)
        }
        position += 1
        skipSpaces()
        if byte(position) == close {
            position += 1
        } else {
            while true {
                if isMapping {
                    let first = byte(position)
                    if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") { throw OutsideSubset() }
                    let start = position
                    try parseFlowNode()
                    skipSpaces()
                    guard position - start <= YAMLSubsetParser.maximumKeyLength else { throw OutsideSubset() }
                    let indicator = byte(position)
                    if indicator == UInt8(ascii: ",") || indicator == close {
                        // A key without `:` (`{ a, b: 1 }`): libyaml gives it an empty value where the `,` or `}` is.
                        try addEmptyScalar(line: line, column: column(at: position))
                    } else {
                        guard indicator == UInt8(ascii: ":"), byte(position + 1) == YAMLSubsetParser.space else { throw OutsideSubset() }
                        position += 1
                        skipSpaces()
                        let value = byte(position)
                        if value == UInt8(ascii: ",") || value == close { throw OutsideSubset() }
                        try parseFlowNode()
                    }
                } else {
                    let value = byte(position)
                    if value == UInt8(ascii: ",") || value == close { throw OutsideSubset() }
                    try parseFlowNode()
                    skipSpaces()
                    if byte(position) == UInt8(ascii: ":") { throw OutsideSubset() }
                }
                skipSpaces()
                let separator = byte(position)
                position += 1
                if separator == close { break }
                guard separator == UInt8(ascii: ",") else { throw OutsideSubset() }
                skipSpaces()
                if byte(position) == close { throw OutsideSubset() }
            }
        }
        try building { (builder: inout YAMLTreeBuilder, line, _) throws(YAMLSyntaxError) in try builder.endCollection(lastLine: line) }
    }

    /// A node inside a flow collection.
    private mutating func parseFlowNode() throws(OutsideSubset) {
        switch byte(position) {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            try parseFlowCollection()
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            try parseQuoted()
        default:
            try checkPlainStart()
            var end = position
            scan: while true {
                switch byte(end) {
                case 0, YAMLSubsetParser.newline:
                    throw OutsideSubset()
                case UInt8(ascii: ","), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"):
                    break scan
                case UInt8(ascii: ":"):
                    switch byte(end + 1) {
                    case YAMLSubsetParser.space, YAMLSubsetParser.newline, 0:
                        break scan
                    case UInt8(ascii: ","), UInt8(ascii: "?"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"):
                        throw OutsideSubset()
                    default:
                        end += 1
                    }
                case YAMLSubsetParser.space:
                    if byte(end + 1) == UInt8(ascii: "#") { throw OutsideSubset() }
                    end += 1
                default:
                    end += 1
                }
            }
            position = try addPlainScalar(endingAt: end)
        }
    }

    /// Where the quoted scalar at `offset` ends (after its closing quote), on its line.
    private func quotedEnd(from offset: Int) throws(OutsideSubset) -> Int {
        let quote = byte(offset)
        var index = offset + 1
        while true {
            let value = byte(index)
            if value == YAMLSubsetParser.newline || value == 0 { throw OutsideSubset() }
            if value == quote {
                if quote == UInt8(ascii: "'") && byte(index + 1) == quote {
                    index += 2
                    continue
                }
                return index + 1
            }
            index += quote == UInt8(ascii: "\"") && value == UInt8(ascii: "\\") ? 2 : 1
        }
    }

    /// A single- or double-quoted scalar on one line; double quotes take the escapes JSON has
    /// (but `\u`) and YAML's `\0 \a \v \e \ `.
    private mutating func parseQuoted() throws(OutsideSubset) {
        let startColumn = column(at: position)
        let end = try quotedEnd(from: position)
        let content = UnsafeBufferPointer(rebasing: text[(position + 1)..<(end - 1)])
        let isDouble = byte(position) == UInt8(ascii: "\"")
        let escape = isDouble ? UInt8(ascii: "\\") : UInt8(ascii: "'")
        if !content.contains(escape) {
            try addScalar(bytes: content, isPlain: false, line: line, column: startColumn, lastLine: line)
        } else {
            scratch.removeAll(keepingCapacity: true)
            var index = 0
            while index < content.count {
                let value = content[index]
                index += 1
                guard value == escape else {
                    scratch.append(value)
                    continue
                }
                let escaped = content[index]
                index += 1
                if !isDouble {
                    scratch.append(escaped)
                    continue
                }
                switch escaped {
                case UInt8(ascii: "0"): scratch.append(0)
                case UInt8(ascii: "a"): scratch.append(0x07)
                case UInt8(ascii: "b"): scratch.append(0x08)
                case UInt8(ascii: "t"): scratch.append(0x09)
                case UInt8(ascii: "n"): scratch.append(0x0A)
                case UInt8(ascii: "v"): scratch.append(0x0B)
                case UInt8(ascii: "f"): scratch.append(0x0C)
                case UInt8(ascii: "r"): scratch.append(0x0D)
                case UInt8(ascii: "e"): scratch.append(0x1B)
                case UInt8(ascii: " "), UInt8(ascii: "\""), UInt8(ascii: "/"), UInt8(ascii: "\\"): scratch.append(escaped)
                default: throw OutsideSubset()
                }
            }
            try addScratchScalar(line: line, column: startColumn, lastLine: line)
        }
        position = end
    }

    /// The plain scalar from `position` to `end` (less trailing spaces), on this line; returns
    /// where its text ends.
    private mutating func addPlainScalar(endingAt end: Int) throws(OutsideSubset) -> Int {
        var end = end
        while end > position && text[end - 1] == YAMLSubsetParser.space { end -= 1 }
        try addScalar(bytes: UnsafeBufferPointer(rebasing: text[position..<end]), isPlain: true, line: line, column: column(at: position), lastLine: line)
        return end
    }

    /// The empty plain scalar libyaml gives a key without a value.
    private mutating func addEmptyScalar(line: Int32, column: Int32) throws(OutsideSubset) {
        try addScalar(bytes: UnsafeBufferPointer(start: nil, count: 0), isPlain: true, line: line, column: column, lastLine: line)
    }

    /// A quoted or block scalar whose text was unescaped or joined into `scratch`.
    private mutating func addScratchScalar(line: Int32, column: Int32, lastLine: Int32) throws(OutsideSubset) {
        // A copy shares the buffer: `addScalar` changes `self`, so it cannot read `scratch` in place.
        let bytes = scratch
        try bytes.withUnsafeBufferPointer { (buffer) throws(OutsideSubset) in
            try addScalar(bytes: buffer, isPlain: false, line: line, column: column, lastLine: lastLine)
        }
    }

    private mutating func addScalar(bytes: UnsafeBufferPointer<UInt8>, isPlain: Bool, line: Int32, column: Int32, lastLine: Int32) throws(OutsideSubset) {
        do {
            try builder.addScalar(bytes, isPlain: isPlain, tag: nil, anchor: nil, line: line, column: column, lastLine: lastLine)
        } catch {
            throw OutsideSubset()
        }
    }
}
