import JSONSupport

/// Evaluates a `JSONPath` over a `JSONLineIndex`, without building a `JSONValue` tree: nodes are value
/// lines, children are found by jumping over nested containers with their close lines. It follows
/// `JSONPath.evaluate` step for step (same order, same filter semantics) so both agree; the one difference
/// is an object with a duplicated key, where a wildcard here yields every copy.
struct JSONIndexEvaluator {
    let index: JSONLineIndex
    let bytes: UnsafeRawBufferPointer
    let shouldCancel: () -> Bool
    private var steps = 0

    init(index: JSONLineIndex, bytes: UnsafeRawBufferPointer, shouldCancel: @escaping () -> Bool) {
        self.index = index
        self.bytes = bytes
        self.shouldCancel = shouldCancel
    }

    /// The top-level value lines (one, or several for a sequence).
    func roots() -> [Int] {
        var roots: [Int] = []
        var line = 0
        while line < index.lineCount {
            roots.append(line)
            line = end(of: line) + 1
        }
        return roots
    }

    mutating func evaluate(_ segments: [JSONPath.Segment], from nodes: [Int]) throws(CancellationError) -> [Int] {
        var current = nodes
        for segment in segments {
            var next: [Int] = []
            switch segment {
            case .child(let selectors):
                for node in current { try select(selectors, in: node, into: &next) }
            case .descendant(let selectors):
                for node in current { try descend(node, selectors: selectors, into: &next) }
            }
            current = next
        }
        return current
    }

    // MARK: Structure

    /// The last line of the value on `line` (its close line for a non-empty container).
    func end(of line: Int) -> Int { Self.end(of: line, in: index) }

    static func end(of line: Int, in index: JSONLineIndex) -> Int {
        guard index.kind(ofLine: line) == .open, let container = index.container(openedAt: line),
            let close = index.closeLine(of: container)
        else { return line }
        return close
    }

    private var layout: JSONLineLayout { JSONLineLayout(index: index, bytes: bytes) }

    /// Where the value on `line` starts (after the key for a member).
    func valueStart(ofLine line: Int) -> Int { layout.valueStart(ofLine: line) }

    /// The bytes of the value on `line`, as written in the body.
    func valueRange(ofLine line: Int) -> Range<Int> {
        let start = valueStart(ofLine: line)
        switch index.kind(ofLine: line) {
        case .open:
            return start..<index.offset(ofLine: end(of: line)) + 1
        case .empty:
            var cursor = start + 1
            while cursor < bytes.count, Byte.isWhitespace(bytes[cursor]) { cursor += 1 }
            return start..<min(bytes.count, cursor + 1)
        case .scalar, .close:
            return start..<JSONLineLayout.scalarEnd(bytes, before: layout.nextStart(after: line), after: start)
        }
    }

    private func opening(_ line: Int) -> UInt8? {
        let kind = index.kind(ofLine: line)
        guard kind == .open || kind == .empty else { return nil }
        return bytes[valueStart(ofLine: line)]
    }

    /// Calls `body` with each child value line of a container line, in order, without collecting them.
    private static func forEachChild<Failure: Error>(of line: Int, in index: JSONLineIndex,
        _ body: (Int) throws(Failure) -> Void) throws(Failure)
    {
        guard index.kind(ofLine: line) == .open else { return }
        let close = end(of: line, in: index)
        var child = line + 1
        while child < close {
            try body(child)
            child = end(of: child, in: index) + 1
        }
    }

    /// The child value lines of a container line.
    private func children(of line: Int) -> [Int] {
        var children: [Int] = []
        Self.forEachChild(of: line, in: index) { children.append($0) }
        return children
    }

    /// The child at `position` of an array line, walking siblings.
    private func child(of line: Int, at position: Int) -> Int? {
        guard position >= 0, index.kind(ofLine: line) == .open else { return nil }
        let close = end(of: line)
        var child = line + 1
        var remaining = position
        while child < close {
            if remaining == 0 { return child }
            remaining -= 1
            child = end(of: child) + 1
        }
        return nil
    }

    private func count(of line: Int) -> Int {
        guard let container = index.container(openedAt: line) else { return 0 }
        return index.itemCount(of: container)
    }

    /// Whether the member on `line` has key `name` (comparing bytes unless the key has escapes).
    private func key(ofLine line: Int, equals name: [UInt8], _ nameText: String) -> Bool {
        let start = index.offset(ofLine: line)
        let end = JSONLineLayout.endOfString(bytes, from: start)
        let raw = UnsafeRawBufferPointer(rebasing: bytes[start + 1..<end - 1])
        if !raw.contains(Byte.backslash) { return raw.elementsEqual(name) }
        let decoded = try? JSONValue.parse(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self))
        return decoded?.stringValue == nameText
    }

    // MARK: Selection

    private mutating func tick() throws(CancellationError) {
        steps += 1
        if steps & 0xFFF == 0, shouldCancel() { throw CancellationError() }
    }

    private mutating func descend(_ node: Int, selectors: [JSONPath.Selector], into output: inout [Int])
        throws(CancellationError)
    {
        var stack = [node]
        while let current = stack.popLast() {
            try select(selectors, in: current, into: &output)
            stack.append(contentsOf: children(of: current).reversed())
        }
    }

    private mutating func select(_ selectors: [JSONPath.Selector], in node: Int, into output: inout [Int])
        throws(CancellationError)
    {
        try tick()
        guard let bracket = opening(node) else { return }
        let isObject = bracket == Byte.openBrace
        for selector in selectors {
            switch selector {
            case .name(let name) where isObject:
                let nameBytes = Array(name.utf8)
                // A duplicated key: the last one wins, as in `JSONObject`.
                var found: Int?
                Self.forEachChild(of: node, in: index) { child in
                    if key(ofLine: child, equals: nameBytes, name) { found = child }
                }
                if let found { output.append(found) }
            case .index(let position) where !isObject:
                let resolved = position < 0 ? count(of: node) + position : position
                if let found = child(of: node, at: resolved) { output.append(found) }
            case .wildcard:
                output.append(contentsOf: children(of: node))
            case .slice(let start, let end, let step) where !isObject:
                let children = children(of: node)
                for position in JSONPath.sliceIndices(count: children.count, start: start, end: end, step: step) {
                    output.append(children[position])
                }
            case .filter(let filter):
                try Self.forEachChild(of: node, in: index) { child throws(CancellationError) in
                    if try matches(filter, child) { output.append(child) }
                }
            default:
                break
            }
        }
    }

    private mutating func matches(_ filter: JSONPath.Filter, _ node: Int) throws(CancellationError) -> Bool {
        let found = filter.path.isEmpty ? [node] : try evaluate(filter.path, from: [node])
        guard let comparison = filter.comparison else { return !found.isEmpty }
        guard let first = found.first else { return comparison.op == .notEqual }
        guard let value = materialize(first) else { return false }
        // Reuse the filter's own comparison on the one value found.
        var direct = filter
        direct.path = []
        return direct.matches(value)
    }

    /// The value on `line` as a `JSONValue` (for filter comparisons).
    func materialize(_ line: Int) -> JSONValue? {
        let range = valueRange(ofLine: line)
        return try? JSONValue.parse(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self))
    }
}
