/// Turns a parser's events into node records with an explicit stack, so nesting depth costs no
/// recursion. Both parsers feed it (libyaml's events and `YAMLSubsetParser`), so they make the
/// same tree, duplicates and marks by construction. The children of every open collection wait
/// on one shared stack and are moved to the document's children when the collection ends, so
/// each collection's are contiguous.
struct YAMLTreeBuilder {
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
        /// The expanded size of the document when this collection started.
        var expandedAtStart: ExpandedSize
    }

    /// Bytes of scalar text and nodes a (sub)tree holds once every alias in it is expanded.
    struct ExpandedSize {
        var bytes = 0
        var nodes = 0
    }

    private var stack: [Frame] = []
    /// The children of the open collections, innermost last (a mapping's as key, value, key …).
    private var open: [Int32] = []
    private var records: [Record] = []
    private var children: [Int32] = []
    private var scalars: [YAMLNode.Scalar] = []
    private var anchors: [String: Int32] = [:]
    private var root: Int32?
    private var documents = 0
    private var duplicates: [YAMLSyntaxError] = []
    private let marker: UInt8?
    private var marked: [Int32] = []
    /// The document's size with every alias expanded, counted as nodes are added: an alias adds
    /// its anchor's whole size, so a small file repeating a large string is caught as it is read.
    private var expanded = ExpandedSize()
    /// The expanded size of each anchored node, for the aliases to it.
    private var anchorSizes: [Int32: ExpandedSize] = [:]

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

    /// The nodes built, as a composition.
    func finished() -> YAMLComposer.Composition {
        let document = YAMLDocumentStorage(records: records, children: children, scalars: scalars)
        return YAMLComposer.Composition(
            root: root.map { YAMLNode(document, $0) }, duplicates: duplicates, markedScalars: marked.map { YAMLNode(document, $0) })
    }

    /// A document starts at `line`:`column`; a catalog file holds one.
    mutating func startDocument(line: Int32, column: Int32) throws(YAMLSyntaxError) {
        documents += 1
        if documents > 1 {
            throw YAMLSyntaxError(line: Int(line), column: Int(column), message: "YAML syntax: a second document starts here; a catalog file holds one document")
        }
    }

    /// A scalar whose text (after quoting and folding) is `bytes`, starting at `line`:`column`
    /// and ending on `lastLine`.
    mutating func addScalar(
        _ bytes: UnsafeBufferPointer<UInt8>, isPlain: Bool, tag: String?, anchor: String?, line: Int32, column: Int32, lastLine: Int32
    ) throws(YAMLSyntaxError) {
        var isMarked = false
        if let marker { isMarked = nextIsValue && bytes.contains(marker) }
        let size = ExpandedSize(bytes: bytes.count, nodes: 1)
        try expand(by: size, line: line, column: column, what: "the scalar here")
        scalars.append(YAMLNode.Scalar(text: String(decoding: bytes, as: UTF8.self), style: isPlain ? .plain : .quoted, tag: tag))
        let node = try append(Record(
            kind: .scalar, isFlow: false, line: line, column: column, lastLine: lastLine,
            first: Int32(truncatingIfNeeded: scalars.count - 1), count: 0))
        if let anchor {
            anchors[anchor] = node
            anchorSizes[node] = size
        }
        if isMarked { marked.append(node) }
        add(node)
    }

    /// An alias `*name` at `line`:`column`.
    mutating func addAlias(_ name: String, line: Int32, column: Int32, lastLine: Int32) throws(YAMLSyntaxError) {
        guard let anchored = anchors[name] else {
            throw YAMLSyntaxError(line: Int(line), column: Int(column), message: "YAML syntax: the alias *\(name) refers to no anchor &\(name) before it")
        }
        try expand(by: anchorSizes[anchored] ?? ExpandedSize(bytes: 0, nodes: 1), line: line, column: column, what: "the alias *\(name)")
        var alias = records[Int(anchored)]
        alias.line = line
        alias.column = column
        alias.lastLine = lastLine
        add(try append(alias))
    }

    /// Counts `size` more of the expanded document; past either cap, fails where the node is.
    private mutating func expand(by size: ExpandedSize, line: Int32, column: Int32, what: String) throws(YAMLSyntaxError) {
        expanded.bytes += size.bytes
        expanded.nodes += size.nodes
        if expanded.bytes > YAMLComposer.maximumExpandedBytes {
            throw YAMLSyntaxError(
                line: Int(line), column: Int(column),
                message: "\(what) makes the document larger than \(YAMLComposer.maximumExpandedBytes >> 20) MiB of text once its aliases are "
                    + "expanded (aliases repeating a large part of it); a catalog needs far less")
        }
        if expanded.nodes > YAMLComposer.maximumExpandedNodes {
            throw YAMLSyntaxError(
                line: Int(line), column: Int(column),
                message: "\(what) makes the document hold more than \(YAMLComposer.maximumExpandedNodes) values once its aliases are "
                    + "expanded (aliases repeating parts of it); a catalog needs far fewer")
        }
    }

    /// A mapping or sequence starts at `line`:`column`.
    mutating func startCollection(isMapping: Bool, isFlow: Bool, anchor: String?, line: Int32, column: Int32) throws(YAMLSyntaxError) {
        if stack.count >= YAMLComposer.maximumDepth {
            throw YAMLSyntaxError(
                line: Int(line), column: Int(column),
                message: "YAML syntax: the nesting is deeper than \(YAMLComposer.maximumDepth) levels; a catalog needs far fewer")
        }
        try expand(by: ExpandedSize(bytes: 0, nodes: 1), line: line, column: column, what: "the collection here")
        stack.append(Frame(
            isMapping: isMapping, isFlow: isFlow, line: line, column: column, anchor: anchor, lastItemLine: line, start: open.count,
            expandedAtStart: expanded))
    }

    /// The innermost open collection ends; `lastLine` is where a flow collection's closing
    /// bracket is (a block collection ends on its last item's last line).
    mutating func endCollection(lastLine: Int32) throws(YAMLSyntaxError) {
        guard let frame = stack.popLast() else { return }
        var count = open.count - frame.start
        // A mapping holds whole pairs.
        if frame.isMapping, !count.isMultiple(of: 2) { count -= 1 }
        let first = children.count
        children.append(contentsOf: open[frame.start..<(frame.start + count)])
        open.removeLast(open.count - frame.start)
        let node = try append(Record(
            kind: frame.isMapping ? .mapping : .sequence, isFlow: frame.isFlow, line: frame.line, column: frame.column,
            lastLine: frame.isFlow ? lastLine : frame.lastItemLine, first: Int32(truncatingIfNeeded: first), count: Int32(truncatingIfNeeded: count)))
        if let anchor = frame.anchor {
            anchors[anchor] = node
            // Its own node was counted when it started.
            anchorSizes[node] = ExpandedSize(
                bytes: expanded.bytes - frame.expandedAtStart.bytes, nodes: expanded.nodes - frame.expandedAtStart.nodes + 1)
        }
        add(node)
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
        // Reads the fields in place: copying the frame retained its key index.
        guard let last = stack.indices.last else { return true }
        if stack[last].dropsValue { return false }
        return !stack[last].isMapping || !(open.count - stack[last].start).isMultiple(of: 2)
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
        if stack[last].isMapping, count.isMultiple(of: 2), let name = YAMLTreeBuilder.scalarText(node, records, scalars),
            let earlier = earlierLine(ofKey: name, at: Int(record.line), in: last)
        {
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
                if YAMLTreeBuilder.scalarText(open[position], records, scalars) == name { return Int(records[Int(open[position])].line) }
                position += 2
            }
            return nil
        }
        if stack[index].keys.isEmpty {
            var position = start
            while position < open.count {
                if let existing = YAMLTreeBuilder.scalarText(open[position], records, scalars), stack[index].keys[existing] == nil {
                    stack[index].keys[existing] = Int(records[Int(open[position])].line)
                }
                position += 2
            }
        }
        if let earlier = stack[index].keys[name] { return earlier }
        stack[index].keys[name] = line
        return nil
    }
}
