import CYAML

/// Builds `YAMLNode` trees from libyaml's events (the parser Yams wraps), keeping every node's
/// line and column. Done here rather than with `Yams.compose` because Yams allocates a tag
/// object per node and hashes every mapping's keys through its tag resolver, which made loading
/// large catalog folders several times slower; this also reports duplicate keys where the
/// duplicate is, not where the first one was.
public enum YAMLComposer {
    /// What composing a text gives.
    public struct Composition: Sendable {
        /// The document (nil when the text has none).
        public var root: YAMLNode?
        /// Keys written twice in a mapping, where the second one is.
        public var duplicates: [YAMLSyntaxError]
        /// The values (not keys) whose text holds the marker byte, in document order, each written
        /// once (an alias adds none). Lets a check that cares about a few values skip a walk.
        public var markedScalars: [YAMLNode]
    }

    /// The document of `text`, its duplicate keys, and its scalars holding `marker` (none when nil).
    public static func compose(_ text: String, markingScalarsContaining marker: UInt8? = nil) throws(YAMLSyntaxError) -> Composition {
        var text = text
        let result = text.withUTF8 { buffer -> Result<Composition, YAMLSyntaxError> in
            do throws(YAMLSyntaxError) {
                return .success(try compose(buffer, marker: marker))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private static func compose(_ buffer: UnsafeBufferPointer<UInt8>, marker: UInt8?) throws(YAMLSyntaxError) -> Composition {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else {
            throw YAMLSyntaxError(line: 1, column: 1, message: "out of memory")
        }
        defer { yaml_parser_delete(&parser) }
        yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
        yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
        var builder = TreeBuilder(marker: marker, length: buffer.count)
        var event = yaml_event_t()
        while true {
            guard yaml_parser_parse(&parser, &event) == 1 else {
                throw YAMLSyntaxError(parser: parser, text: buffer)
            }
            defer { yaml_event_delete(&event) }
            if event.type == YAML_STREAM_END_EVENT { break }
            try builder.handle(event)
        }
        let (root, markedScalars) = builder.finished()
        return Composition(root: root, duplicates: builder.duplicates, markedScalars: markedScalars)
    }

    /// The deepest nesting of collections a document may have: readers of the tree (the catalog
    /// decoder, JSON conversion) recurse, so a document of a million `[` must stop here.
    static let maximumDepth = 1000

    /// Turns events into node records with an explicit stack, so nesting depth costs no recursion.
    /// The children of every open collection wait on one shared stack and are moved to the
    /// document's children when the collection ends, so each collection's are contiguous.
    private struct TreeBuilder {
        typealias Record = YAMLDocumentStorage.Record

        struct Frame {
            var isMapping: Bool
            var isFlow: Bool
            var line: Int32
            var column: Int32
            var anchor: String?
            /// The last line of the last item added (an alias counts where it is written).
            var lastItemLine: Int32
            /// Where this collection's children start on `open`.
            var start: Int
            /// Key lines by name, built once a mapping is large (small ones are searched).
            var keys: [String: Int] = [:]
            /// Whether the next node is the value of a duplicate key, left out with its key.
            var dropsValue = false
        }

        var stack: [Frame] = []
        /// The children of the open collections, innermost last (a mapping's as key, value, key …).
        var open: [Int32] = []
        var records: [Record] = []
        var children: [Int32] = []
        var scalars: [YAMLNode.Scalar] = []
        var anchors: [String: Int32] = [:]
        var root: Int32?
        var documents = 0
        var duplicates: [YAMLSyntaxError] = []
        let marker: UInt8?
        var marked: [Int32] = []

        /// `length`: the text's size in bytes, from which the node count is guessed so the arrays
        /// grow once at most for a catalog file (a node takes ~13 bytes of YAML); the guess is
        /// capped, so a large document grows as usual instead of reserving too much.
        init(marker: UInt8?, length: Int) {
            self.marker = marker
            let expected = min(length / 12, 1 << 16)
            records.reserveCapacity(expected)
            scalars.reserveCapacity(expected)
            children.reserveCapacity(expected)
        }

        /// The nodes built, as a document.
        func finished() -> (root: YAMLNode?, markedScalars: [YAMLNode]) {
            let document = YAMLDocumentStorage(records: records, children: children, scalars: scalars)
            return (root.map { YAMLNode(document, $0) }, marked.map { YAMLNode(document, $0) })
        }

        /// The 1-based line of an event's last character: an end mark at column 0 is the start of
        /// the next line (block scalars end there).
        static func lastLine(_ event: yaml_event_t) -> Int32 {
            let mark = event.end_mark
            return Int32(truncatingIfNeeded: mark.column == 0 && mark.line > 0 ? Int(mark.line) : Int(mark.line) + 1)
        }

        mutating func handle(_ event: yaml_event_t) throws(YAMLSyntaxError) {
            let line = Int32(truncatingIfNeeded: Int(event.start_mark.line) + 1)
            let column = Int32(truncatingIfNeeded: Int(event.start_mark.column) + 1)
            switch event.type {
            case YAML_DOCUMENT_START_EVENT:
                documents += 1
                if documents > 1 {
                    throw YAMLSyntaxError(line: Int(line), column: Int(column), message: "YAML syntax: a second document starts here; a catalog file holds one document")
                }
            case YAML_SCALAR_EVENT:
                let data = event.data.scalar
                let bytes = UnsafeBufferPointer(start: data.value, count: data.value == nil ? 0 : data.length)
                let style: YAMLNode.Style = data.style == YAML_PLAIN_SCALAR_STYLE ? .plain : .quoted
                var isMarked = false
                if let marker { isMarked = nextIsValue && bytes.contains(marker) }
                scalars.append(YAMLNode.Scalar(text: String(decoding: bytes, as: UTF8.self), style: style, tag: TreeBuilder.string(data.tag)))
                let node = try append(Record(
                    kind: .scalar, isFlow: false, line: line, column: column, lastLine: TreeBuilder.lastLine(event),
                    first: Int32(truncatingIfNeeded: scalars.count - 1), count: 0))
                if let anchor = TreeBuilder.string(data.anchor) { anchors[anchor] = node }
                if isMarked { marked.append(node) }
                add(node)
            case YAML_ALIAS_EVENT:
                let name = TreeBuilder.string(event.data.alias.anchor) ?? ""
                guard let anchored = anchors[name] else {
                    throw YAMLSyntaxError(line: Int(line), column: Int(column), message: "YAML syntax: the alias *\(name) refers to no anchor &\(name) before it")
                }
                var alias = records[Int(anchored)]
                alias.line = line
                alias.column = column
                alias.lastLine = TreeBuilder.lastLine(event)
                add(try append(alias))
            case YAML_MAPPING_START_EVENT where stack.count >= YAMLComposer.maximumDepth,
                YAML_SEQUENCE_START_EVENT where stack.count >= YAMLComposer.maximumDepth:
                throw YAMLSyntaxError(
                    line: Int(line), column: Int(column),
                    message: "YAML syntax: the nesting is deeper than \(YAMLComposer.maximumDepth) levels; a catalog needs far fewer")
            case YAML_MAPPING_START_EVENT:
                let start = event.data.mapping_start
                stack.append(Frame(
                    isMapping: true, isFlow: start.style == YAML_FLOW_MAPPING_STYLE, line: line, column: column,
                    anchor: TreeBuilder.string(start.anchor), lastItemLine: line, start: open.count))
            case YAML_SEQUENCE_START_EVENT:
                let start = event.data.sequence_start
                stack.append(Frame(
                    isMapping: false, isFlow: start.style == YAML_FLOW_SEQUENCE_STYLE, line: line, column: column,
                    anchor: TreeBuilder.string(start.anchor), lastItemLine: line, start: open.count))
            case YAML_MAPPING_END_EVENT, YAML_SEQUENCE_END_EVENT:
                guard let frame = stack.popLast() else { return }
                var count = open.count - frame.start
                // A mapping holds whole pairs.
                if frame.isMapping, !count.isMultiple(of: 2) { count -= 1 }
                let first = children.count
                children.append(contentsOf: open[frame.start..<(frame.start + count)])
                open.removeLast(open.count - frame.start)
                // A block collection's end mark is where the next token starts: its last line is its last item's.
                let lastLine = frame.isFlow ? TreeBuilder.lastLine(event) : frame.lastItemLine
                let node = try append(Record(
                    kind: frame.isMapping ? .mapping : .sequence, isFlow: frame.isFlow, line: frame.line, column: frame.column,
                    lastLine: lastLine, first: Int32(truncatingIfNeeded: first), count: Int32(truncatingIfNeeded: count)))
                if let anchor = frame.anchor { anchors[anchor] = node }
                add(node)
            default:
                break
            }
        }

        /// Keeps a record; its index names the node.
        private mutating func append(_ record: Record) throws(YAMLSyntaxError) -> Int32 {
            guard records.count < Int32.max, children.count + open.count < Int32.max, scalars.count < Int32.max else {
                throw YAMLSyntaxError(line: Int(record.line), column: Int(record.column), message: "the document holds too many values")
            }
            records.append(record)
            return Int32(records.count - 1)
        }

        /// Whether the next node will be a value in the tree: not a mapping's key, nor the value
        /// of a duplicate key (left out).
        private var nextIsValue: Bool {
            guard let frame = stack.last else { return true }
            if frame.dropsValue { return false }
            return !frame.isMapping || !(open.count - frame.start).isMultiple(of: 2)
        }

        /// The text of a node when it is a scalar. Static, reading only the two arrays: a method
        /// called from a mutating one copied the whole builder on each call.
        private static func scalarText(_ node: Int32, _ records: [Record], _ scalars: [YAMLNode.Scalar]) -> String? {
            let record = records[Int(node)]
            return record.kind == .scalar ? scalars[Int(record.first)].text : nil
        }

        /// Adds a finished node to the open collection, or makes it the root.
        private mutating func add(_ node: Int32) {
            guard let last = stack.indices.last else {
                root = node
                return
            }
            let record = records[Int(node)]
            stack[last].lastItemLine = max(stack[last].lastItemLine, record.lastLine)
            if stack[last].dropsValue {
                stack[last].dropsValue = false
                return
            }
            let count = open.count - stack[last].start
            // A key of a mapping: an earlier key of the same name makes the file ambiguous (the
            // duplicate is reported where it is and left out with its value).
            if stack[last].isMapping, count.isMultiple(of: 2), let name = TreeBuilder.scalarText(node, records, scalars), let earlier = earlierLine(ofKey: name, at: Int(record.line), in: last) {
                duplicates.append(YAMLSyntaxError(
                    line: Int(record.line), column: Int(record.column),
                    message: "duplicate key '\(name)' (first defined at line \(earlier)): ids and keys must be unique"))
                stack[last].dropsValue = true
                return
            }
            open.append(node)
        }

        /// The line of an earlier key named `name` in the mapping of frame `index`, if any; a key
        /// at `line` is remembered.
        private mutating func earlierLine(ofKey name: String, at line: Int, in index: Int) -> Int? {
            guard name != "<<" else { return nil }
            let start = stack[index].start
            let keyCount = (open.count - start) / 2
            if keyCount < 16 {
                var position = start
                while position < open.count {
                    if TreeBuilder.scalarText(open[position], records, scalars) == name { return Int(records[Int(open[position])].line) }
                    position += 2
                }
                return nil
            }
            if stack[index].keys.isEmpty {
                var position = start
                while position < open.count {
                    if let existing = TreeBuilder.scalarText(open[position], records, scalars), stack[index].keys[existing] == nil {
                        stack[index].keys[existing] = Int(records[Int(open[position])].line)
                    }
                    position += 2
                }
            }
            if let earlier = stack[index].keys[name] { return earlier }
            stack[index].keys[name] = line
            return nil
        }

        static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
            pointer.map { String(cString: $0) }
        }
    }
}

/// A YAML problem at a position.
public struct YAMLSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// 1-based line.
    public var line: Int
    /// 1-based column.
    public var column: Int
    /// What is wrong.
    public var message: String

    /// `line:column: message`.
    public var description: String { "\(line):\(column): \(message)" }

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
