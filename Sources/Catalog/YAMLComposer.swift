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
        var builder = TreeBuilder(marker: marker)
        var event = yaml_event_t()
        while true {
            guard yaml_parser_parse(&parser, &event) == 1 else {
                throw YAMLSyntaxError(parser: parser, text: buffer)
            }
            defer { yaml_event_delete(&event) }
            if event.type == YAML_STREAM_END_EVENT { break }
            try builder.handle(event)
        }
        return Composition(root: builder.root, duplicates: builder.duplicates, markedScalars: builder.markedScalars)
    }

    /// The deepest nesting of collections a document may have: readers of the tree (the catalog
    /// decoder, JSON conversion) recurse, so a document of a million `[` must stop here.
    static let maximumDepth = 1000

    /// Turns events into nodes with an explicit stack, so nesting depth costs no recursion. The
    /// children of every open collection wait on one shared stack and are copied into an array of
    /// exactly their count when the collection ends: one allocation per collection, not one per
    /// doubling of its array.
    private struct TreeBuilder {
        struct Frame {
            var isMapping: Bool
            var isFlow: Bool
            var line: Int
            var column: Int
            var anchor: String?
            /// The last line of the last item added (an alias counts where it is written).
            var lastItemLine: Int
            /// Where this collection's children start on `children`.
            var start: Int
            /// Key lines by name, built once a mapping is large (small ones are searched).
            var keys: [String: Int] = [:]
            /// Whether the next node is the value of a duplicate key, left out with its key.
            var dropsValue = false
        }

        var stack: [Frame] = []
        /// The children of the open collections, innermost last (a mapping's as key, value, key …).
        var children: [YAMLNode] = []
        var anchors: [String: YAMLNode] = [:]
        var root: YAMLNode?
        var documents = 0
        var duplicates: [YAMLSyntaxError] = []
        let marker: UInt8?
        var markedScalars: [YAMLNode] = []

        init(marker: UInt8?) { self.marker = marker }

        /// The 1-based line of an event's last character: an end mark at column 0 is the start of
        /// the next line (block scalars end there).
        static func lastLine(_ event: yaml_event_t) -> Int {
            let mark = event.end_mark
            return mark.column == 0 && mark.line > 0 ? Int(mark.line) : Int(mark.line) + 1
        }

        mutating func handle(_ event: yaml_event_t) throws(YAMLSyntaxError) {
            let line = Int(event.start_mark.line) + 1
            let column = Int(event.start_mark.column) + 1
            switch event.type {
            case YAML_DOCUMENT_START_EVENT:
                documents += 1
                if documents > 1 {
                    throw YAMLSyntaxError(line: line, column: column, message: "YAML syntax: a second document starts here; a catalog file holds one document")
                }
            case YAML_SCALAR_EVENT:
                let data = event.data.scalar
                let bytes = UnsafeBufferPointer(start: data.value, count: data.value == nil ? 0 : data.length)
                let text = String(decoding: bytes, as: UTF8.self)
                let style: YAMLNode.Style = data.style == YAML_PLAIN_SCALAR_STYLE ? .plain : .quoted
                let scalar = YAMLNode.Scalar(text: text, style: style, tag: TreeBuilder.string(data.tag))
                let node = YAMLNode(.scalar(scalar), line: line, column: column, lastLine: TreeBuilder.lastLine(event))
                if let anchor = TreeBuilder.string(data.anchor) { anchors[anchor] = node }
                if let marker, nextIsValue, bytes.contains(marker) { markedScalars.append(node) }
                add(node)
            case YAML_ALIAS_EVENT:
                let name = TreeBuilder.string(event.data.alias.anchor) ?? ""
                guard let anchored = anchors[name] else {
                    throw YAMLSyntaxError(line: line, column: column, message: "YAML syntax: the alias *\(name) refers to no anchor &\(name) before it")
                }
                add(YAMLNode(anchored.content, line: line, column: column, lastLine: TreeBuilder.lastLine(event), isFlow: anchored.isFlow))
            case YAML_MAPPING_START_EVENT where stack.count >= YAMLComposer.maximumDepth,
                YAML_SEQUENCE_START_EVENT where stack.count >= YAMLComposer.maximumDepth:
                throw YAMLSyntaxError(
                    line: line, column: column,
                    message: "YAML syntax: the nesting is deeper than \(YAMLComposer.maximumDepth) levels; a catalog needs far fewer")
            case YAML_MAPPING_START_EVENT:
                let start = event.data.mapping_start
                stack.append(Frame(
                    isMapping: true, isFlow: start.style == YAML_FLOW_MAPPING_STYLE, line: line, column: column,
                    anchor: TreeBuilder.string(start.anchor), lastItemLine: line, start: children.count))
            case YAML_SEQUENCE_START_EVENT:
                let start = event.data.sequence_start
                stack.append(Frame(
                    isMapping: false, isFlow: start.style == YAML_FLOW_SEQUENCE_STYLE, line: line, column: column,
                    anchor: TreeBuilder.string(start.anchor), lastItemLine: line, start: children.count))
            case YAML_MAPPING_END_EVENT, YAML_SEQUENCE_END_EVENT:
                guard let frame = stack.popLast() else { return }
                let content: YAMLNode.Content
                if frame.isMapping {
                    var pairs: [YAMLNode.Pair] = []
                    pairs.reserveCapacity((children.count - frame.start) / 2)
                    var index = frame.start
                    while index + 1 < children.count {
                        pairs.append(YAMLNode.Pair(key: children[index], value: children[index + 1]))
                        index += 2
                    }
                    content = .mapping(pairs)
                } else {
                    content = .sequence(Array(children[frame.start...]))
                }
                children.removeSubrange(frame.start...)
                // A block collection's end mark is where the next token starts: its last line is its last item's.
                let lastLine = frame.isFlow ? TreeBuilder.lastLine(event) : frame.lastItemLine
                let node = YAMLNode(content, line: frame.line, column: frame.column, lastLine: lastLine, isFlow: frame.isFlow)
                if let anchor = frame.anchor { anchors[anchor] = node }
                add(node)
            default:
                break
            }
        }

        /// Whether the next node will be a value in the tree: not a mapping's key, nor the value
        /// of a duplicate key (left out).
        private var nextIsValue: Bool {
            guard let frame = stack.last else { return true }
            if frame.dropsValue { return false }
            return !frame.isMapping || !(children.count - frame.start).isMultiple(of: 2)
        }

        /// Adds a finished node to the open collection, or makes it the root.
        private mutating func add(_ node: YAMLNode) {
            guard let last = stack.indices.last else {
                root = node
                return
            }
            stack[last].lastItemLine = max(stack[last].lastItemLine, node.lastLine)
            if stack[last].dropsValue {
                stack[last].dropsValue = false
                return
            }
            let count = children.count - stack[last].start
            // A key of a mapping: an earlier key of the same name makes the file ambiguous (the
            // duplicate is reported where it is and left out with its value).
            if stack[last].isMapping, count.isMultiple(of: 2), let earlier = earlierLine(ofKey: node, in: last) {
                duplicates.append(YAMLSyntaxError(
                    line: node.line, column: node.column,
                    message: "duplicate key '\(node.scalar?.text ?? "")' (first defined at line \(earlier)): ids and keys must be unique"))
                stack[last].dropsValue = true
                return
            }
            children.append(node)
        }

        /// The line of an earlier key named like `key` in the mapping of frame `index`, if any.
        private mutating func earlierLine(ofKey key: YAMLNode, in index: Int) -> Int? {
            guard let name = key.scalar?.text, name != "<<" else { return nil }
            let start = stack[index].start
            let keyCount = (children.count - start) / 2
            if keyCount < 16 {
                var position = start
                while position < children.count {
                    if children[position].scalar?.text == name { return children[position].line }
                    position += 2
                }
                return nil
            }
            if stack[index].keys.isEmpty {
                var position = start
                while position < children.count {
                    if let existing = children[position].scalar?.text, stack[index].keys[existing] == nil {
                        stack[index].keys[existing] = children[position].line
                    }
                    position += 2
                }
            }
            if let line = stack[index].keys[name] { return line }
            stack[index].keys[name] = key.line
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
