import CYaml

/// A YAML document's structure with the lines each node spans, read from libyaml's events: what
/// the catalog editor needs to change one entry and leave every other byte of the file as it was.
final class YAMLOutline {
    /// What a node holds.
    enum Content {
        case scalar(String)
        case mapping([(key: String, keyNode: YAMLOutline, value: YAMLOutline)])
        case sequence([YAMLOutline])
        case alias
    }

    private(set) var content: Content
    /// 0-based line where the node starts.
    let startLine: Int
    /// 0-based column (in characters) where the node starts.
    let startColumn: Int
    /// Whether the node is a flow collection (`{ … }` or `[ … ]`).
    let isFlow: Bool
    /// 0-based line of the node's last character.
    fileprivate(set) var lastLine: Int

    init(_ content: Content, startLine: Int, startColumn: Int, isFlow: Bool, lastLine: Int) {
        self.content = content
        self.startLine = startLine
        self.startColumn = startColumn
        self.isFlow = isFlow
        self.lastLine = lastLine
    }

    /// The value for `key` when this is a mapping.
    func value(_ key: String) -> YAMLOutline? {
        entry(key)?.value
    }

    /// The entry for `key` when this is a mapping.
    func entry(_ key: String) -> (key: String, keyNode: YAMLOutline, value: YAMLOutline)? {
        guard case .mapping(let pairs) = content else { return nil }
        return pairs.first { $0.key == key }
    }

    /// The mapping's entries (empty for anything else).
    var entries: [(key: String, keyNode: YAMLOutline, value: YAMLOutline)] {
        if case .mapping(let pairs) = content { return pairs }
        return []
    }

    /// The scalar's text.
    var scalar: String? {
        if case .scalar(let text) = content { return text }
        return nil
    }

    var isMapping: Bool {
        if case .mapping = content { return true }
        return false
    }

    /// Reads the outline of `text`'s document (nil for an empty document).
    static func parse(_ text: String) throws(InteropError) -> YAMLOutline? {
        var text = text
        let result: Result<YAMLOutline?, InteropError> = text.withUTF8 { buffer in
            var parser = yaml_parser_t()
            guard yaml_parser_initialize(&parser) == 1 else { return .failure(.invalidInput("out of memory")) }
            defer { yaml_parser_delete(&parser) }
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var builder = Builder()
            var event = yaml_event_t()
            while true {
                guard yaml_parser_parse(&parser, &event) == 1 else {
                    let problem = parser.problem.map { String(cString: $0) } ?? "unknown error"
                    return .failure(.invalidInput("YAML syntax at line \(parser.problem_mark.line + 1): \(problem)"))
                }
                defer { yaml_event_delete(&event) }
                if event.type == YAML_STREAM_END_EVENT { break }
                builder.handle(event)
            }
            return .success(builder.root)
        }
        return try result.get()
    }

    private struct Builder {
        struct Frame {
            var node: YAMLOutline
            var isMapping: Bool
            var items: [YAMLOutline] = []
        }

        var stack: [Frame] = []
        var root: YAMLOutline?

        /// The line of a node's last character from its end mark: a mark at column 0 is the start
        /// of the next line (block scalars end there).
        static func lastLine(_ mark: yaml_mark_t) -> Int {
            mark.column == 0 && mark.line > 0 ? Int(mark.line) - 1 : Int(mark.line)
        }

        mutating func handle(_ event: yaml_event_t) {
            let line = Int(event.start_mark.line)
            let column = Int(event.start_mark.column)
            switch event.type {
            case YAML_SCALAR_EVENT:
                let data = event.data.scalar
                let text = data.value.map { String(decoding: UnsafeBufferPointer(start: $0, count: data.length), as: UTF8.self) } ?? ""
                add(YAMLOutline(.scalar(text), startLine: line, startColumn: column, isFlow: false, lastLine: Self.lastLine(event.end_mark)))
            case YAML_ALIAS_EVENT:
                add(YAMLOutline(.alias, startLine: line, startColumn: column, isFlow: false, lastLine: Self.lastLine(event.end_mark)))
            case YAML_MAPPING_START_EVENT:
                let flow = event.data.mapping_start.style == YAML_FLOW_MAPPING_STYLE
                stack.append(Frame(node: YAMLOutline(.mapping([]), startLine: line, startColumn: column, isFlow: flow, lastLine: line), isMapping: true))
            case YAML_SEQUENCE_START_EVENT:
                let flow = event.data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE
                stack.append(Frame(node: YAMLOutline(.sequence([]), startLine: line, startColumn: column, isFlow: flow, lastLine: line), isMapping: false))
            case YAML_MAPPING_END_EVENT, YAML_SEQUENCE_END_EVENT:
                guard let frame = stack.popLast() else { return }
                let node = frame.node
                if frame.isMapping {
                    var pairs: [(key: String, keyNode: YAMLOutline, value: YAMLOutline)] = []
                    var index = 0
                    while index + 1 < frame.items.count {
                        let key = frame.items[index]
                        pairs.append((key.scalar ?? "", key, frame.items[index + 1]))
                        index += 2
                    }
                    node.content = .mapping(pairs)
                } else {
                    node.content = .sequence(frame.items)
                }
                // A block collection's end mark is where the next token starts: its last line is its last item's.
                node.lastLine = node.isFlow ? Self.lastLine(event.end_mark) : (frame.items.last?.lastLine ?? node.startLine)
                add(node)
            default:
                break
            }
        }

        mutating func add(_ node: YAMLOutline) {
            if stack.isEmpty {
                if root == nil { root = node }
            } else {
                stack[stack.count - 1].items.append(node)
            }
        }
    }
}
