import CYAML

/// Builds `YAMLNode` trees, keeping every node's line and column. A text written in the plain
/// subset of YAML that catalogs use is read by `YAMLSubsetParser` (several times faster);
/// anything else, and every error, by libyaml (the parser Yams wraps), through its events. Done
/// here rather than with `Yams.compose` because Yams allocates a tag object per node and hashes
/// every mapping's keys through its tag resolver, which made loading large catalog folders
/// several times slower; this also reports duplicate keys where the duplicate is, not where the
/// first one was.
package enum YAMLComposer {
    /// What composing a text gives.
    package struct Composition: Sendable {
        /// The document (nil when the text has none).
        package var root: YAMLNode?
        /// Keys written twice in a mapping, where the second one is.
        package var duplicates: [YAMLSyntaxError]
        /// The values (not keys) whose text holds the marker byte, in document order, each written
        /// once (an alias adds none). Lets a check that cares about a few values skip a walk.
        package var markedScalars: [YAMLNode]

        /// Everything the decoder and the editor can read of the composition, a line per node
        /// (position, kind, style, tag, text), then the duplicates and marks: what the tests and
        /// the FuzzYAML target compare to know two parsers agree.
        var outline: String {
            var lines: [String] = []
            func visit(_ node: YAMLNode, _ depth: Int) {
                let place = "\(String(repeating: "  ", count: depth))\(node.line):\(node.column)-\(node.lastLine)"
                switch node.content {
                case .scalar(let scalar):
                    lines.append("\(place) scalar \(scalar.style) \(scalar.tag ?? "-") \(String(reflecting: scalar.text))")
                case .mapping(let pairs):
                    lines.append("\(place) mapping\(node.isFlow ? " flow" : "") \(pairs.count)")
                    for pair in pairs {
                        visit(pair.key, depth + 1)
                        visit(pair.value, depth + 1)
                    }
                case .sequence(let items):
                    lines.append("\(place) sequence\(node.isFlow ? " flow" : "") \(items.count)")
                    for item in items { visit(item, depth + 1) }
                }
            }
            if let root { visit(root, 0) } else { lines.append("no document") }
            lines += duplicates.map { "duplicate \($0)" }
            lines += markedScalars.map { "marked \($0.line):\($0.column) \(String(reflecting: $0.scalar?.text ?? ""))" }
            return lines.joined(separator: "\n")
        }
    }

    /// The document of `text`, its duplicate keys, and its scalars holding `marker` (none when nil).
    package static func compose(_ text: String, markingScalarsContaining marker: UInt8? = nil) throws(YAMLSyntaxError) -> Composition {
        try compose(text, markingScalarsContaining: marker, parser: .automatic)
    }

    /// `compose(_:markingScalarsContaining:)` with a choice of parser (tests compare the two).
    static func compose(_ text: String, markingScalarsContaining marker: UInt8? = nil, parser: Parser) throws(YAMLSyntaxError) -> Composition {
        var text = text
        let result = text.withUTF8 { buffer -> Result<Composition, YAMLSyntaxError> in
            do throws(YAMLSyntaxError) {
                return .success(try compose(buffer, marker: marker, parser: parser))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Which parser composes a text.
    enum Parser {
        /// The subset parser when the text is in its subset, libyaml otherwise (and for every
        /// error, so messages are libyaml's).
        case automatic
        /// libyaml only.
        case libyaml
    }

    static func compose(_ buffer: UnsafeBufferPointer<UInt8>, marker: UInt8?, parser: Parser) throws(YAMLSyntaxError) -> Composition {
        if parser == .automatic, let composition = YAMLSubsetParser.compose(buffer, marker: marker) {
            return composition
        }
        return try composeWithLibYAML(buffer, marker: marker)
    }

    private static func composeWithLibYAML(_ buffer: UnsafeBufferPointer<UInt8>, marker: UInt8?) throws(YAMLSyntaxError) -> Composition {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else {
            throw YAMLSyntaxError(line: 1, column: 1, message: "out of memory")
        }
        defer { yaml_parser_delete(&parser) }
        yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
        yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
        var builder = YAMLTreeBuilder(marker: marker, length: buffer.count)
        var event = yaml_event_t()
        while true {
            guard yaml_parser_parse(&parser, &event) == 1 else {
                throw YAMLSyntaxError(parser: parser, text: buffer)
            }
            defer { yaml_event_delete(&event) }
            if event.type == YAML_STREAM_END_EVENT { break }
            try handle(event, into: &builder)
        }
        return builder.finished()
    }

    /// The deepest nesting of collections a document may have: readers of the tree (the catalog
    /// decoder, JSON conversion) recurse, so a document of a million `[` must stop here.
    static let maximumDepth = 1000

    /// The most text a document may hold once its aliases are expanded: a file of 1 MB can repeat
    /// a 1 MiB string thousands of times, and every reader of the tree (the catalog decoder, JSON
    /// conversion) would spend that much memory. Counted as the document is read.
    package static let maximumExpandedBytes = 64 << 20
    /// The most values (scalars and collections) a document may hold once its aliases are expanded.
    package static let maximumExpandedNodes = 5_000_000

    /// Passes one of libyaml's events to the builder.
    private static func handle(_ event: yaml_event_t, into builder: inout YAMLTreeBuilder) throws(YAMLSyntaxError) {
        let line = Int32(truncatingIfNeeded: Int(event.start_mark.line) + 1)
        let column = Int32(truncatingIfNeeded: Int(event.start_mark.column) + 1)
        switch event.type {
        case YAML_DOCUMENT_START_EVENT:
            try builder.startDocument(line: line, column: column)
        case YAML_SCALAR_EVENT:
            let data = event.data.scalar
            try builder.addScalar(
                UnsafeBufferPointer(start: data.value, count: data.value == nil ? 0 : data.length),
                isPlain: data.style == YAML_PLAIN_SCALAR_STYLE, tag: string(data.tag), anchor: string(data.anchor),
                line: line, column: column, lastLine: lastLine(event))
        case YAML_ALIAS_EVENT:
            try builder.addAlias(string(event.data.alias.anchor) ?? "", line: line, column: column, lastLine: lastLine(event))
        case YAML_MAPPING_START_EVENT:
            let start = event.data.mapping_start
            try builder.startCollection(
                isMapping: true, isFlow: start.style == YAML_FLOW_MAPPING_STYLE, anchor: string(start.anchor), line: line, column: column)
        case YAML_SEQUENCE_START_EVENT:
            let start = event.data.sequence_start
            try builder.startCollection(
                isMapping: false, isFlow: start.style == YAML_FLOW_SEQUENCE_STYLE, anchor: string(start.anchor), line: line, column: column)
        case YAML_MAPPING_END_EVENT, YAML_SEQUENCE_END_EVENT:
            try builder.endCollection(lastLine: lastLine(event))
        default:
            break
        }
    }

    /// The 1-based line of an event's last character: an end mark at column 0 is the start of
    /// the next line (block scalars end there).
    private static func lastLine(_ event: yaml_event_t) -> Int32 {
        let mark = event.end_mark
        return Int32(truncatingIfNeeded: mark.column == 0 && mark.line > 0 ? Int(mark.line) : Int(mark.line) + 1)
    }

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: $0) }
    }
}

/// A YAML problem at a position.
package struct YAMLSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// 1-based line.
    package var line: Int
    /// 1-based column.
    package var column: Int
    /// What is wrong.
    package var message: String

    /// `line:column: message`.
    package var description: String { "\(line):\(column): \(message)" }

    init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    /// The parser's error: its problem, where, and what it was doing.
    init(parser: yaml_parser_t, text: UnsafeBufferPointer<UInt8>) {
        let problem = parser.problem.map { String(cString: $0) } ?? "unknown error"
        switch parser.error {
        case YAML_READER_ERROR:
            var line = 1
            var column = 1
            let end = min(Int(parser.problem_offset), text.count)
            var index = 0
            while index < end {
                let byte = text[index]
                if byte == UInt8(ascii: "\n") {
                    line += 1
                    column = 1
                } else if byte & 0xC0 != 0x80 {
                    column += 1
                }
                index += 1
            }
            self.init(line: line, column: column, message: "the file cannot be read as YAML: \(problem)")
        case YAML_MEMORY_ERROR:
            self.init(line: 1, column: 1, message: "out of memory")
        default:
            var message = "YAML syntax: \(problem)"
            if let context = parser.context.map({ String(cString: $0) }) {
                message += " (\(context) at line \(parser.context_mark.line + 1), column \(parser.context_mark.column + 1))"
            }
            self.init(line: Int(parser.problem_mark.line) + 1, column: Int(parser.problem_mark.column) + 1, message: message)
        }
    }
}
