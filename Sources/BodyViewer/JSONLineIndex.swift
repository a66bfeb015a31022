/// How a line of the pretty-printed JSON layout came about.
enum JSONLineKind: UInt8, Sendable {
    /// A string, number, `true`, `false` or `null`.
    case scalar = 0
    /// The opening bracket of a non-empty array or object.
    case open = 1
    /// The closing bracket of a non-empty array or object.
    case close = 2
    /// `[]` or `{}`.
    case empty = 3
}

/// The pretty-printed (2-space) layout of a JSON body as compact line records over the original bytes:
/// nothing of the pretty text is stored, only where each line's first token starts.
///
/// Each line is one `UInt64`: the byte offset of the line's first token (the key for a member) in the
/// high 40 bits, the depth in 21 bits, a member flag and the kind in 3 bits. Offsets grow strictly with the
/// line number, so the raw words are sorted and a byte offset finds its line by binary search.
/// Non-empty containers get 16 bytes more: open line, close line, item count and parent container.
struct JSONLineIndex: Sendable {
    static let offsetShift: UInt64 = 24
    static let depthShift: UInt64 = 3
    static let depthMask: UInt64 = (1 << 21) - 1
    /// Deepest nesting the layout can record.
    static let maximumDepth = Int(depthMask)
    /// Largest body the layout can address.
    static let maximumOffset = (1 << 40) - 1
    /// Marks a container whose closing bracket has not been read yet (in a preview).
    static let unclosed = UInt32.max

    /// One word per line, as described above.
    var lines: [UInt64] = []
    /// Open line of each non-empty container, ascending.
    var containerOpens: [UInt32] = []
    /// Close line of each container, or `unclosed`.
    var containerCloses: [UInt32] = []
    /// Items (array elements or object members) of each container.
    var containerCounts: [UInt32] = []
    /// Index of each container's parent container, or -1 at the top.
    var containerParents: [Int32] = []

    /// Lines at the end kept only for their offsets (a preview's last line, whose end is not known yet).
    var trailingLines = 0

    /// Lines shown.
    var lineCount: Int { lines.count - trailingLines }

    static func pack(offset: Int, depth: Int, member: Bool, kind: JSONLineKind) -> UInt64 {
        UInt64(offset) << offsetShift | UInt64(depth) << depthShift | (member ? 4 : 0) | UInt64(kind.rawValue)
    }

    @inline(__always) func offset(ofLine line: Int) -> Int { Int(lines[line] >> Self.offsetShift) }
    @inline(__always) func depth(ofLine line: Int) -> Int { Int(lines[line] >> Self.depthShift & Self.depthMask) }
    @inline(__always) func isMember(_ line: Int) -> Bool { lines[line] & 4 != 0 }
    @inline(__always) func kind(ofLine line: Int) -> JSONLineKind {
        JSONLineKind(rawValue: UInt8(lines[line] & 3)) ?? .scalar
    }

    /// The line whose first token starts at or before `offset` (the line that shows that byte).
    func line(containingOffset offset: Int) -> Int {
        let key = UInt64(max(0, offset) + 1) << Self.offsetShift
        var low = 0
        var high = lines.count
        while low < high {
            let middle = (low + high) / 2
            if lines[middle] < key { low = middle + 1 } else { high = middle }
        }
        return min(max(0, low - 1), max(0, lineCount - 1))
    }

    /// The container whose open line is `line`, if that line opens one.
    func container(openedAt line: Int) -> Int? {
        guard kind(ofLine: line) == .open else { return nil }
        let found = lastContainer(openingAtOrBefore: line)
        return found >= 0 && containerOpens[found] == UInt32(line) ? found : nil
    }

    /// The last container opened at or before `line`, or -1.
    func lastContainer(openingAtOrBefore line: Int) -> Int {
        var low = 0
        var high = containerOpens.count
        let target = UInt32(clamping: line)
        while low < high {
            let middle = (low + high) / 2
            if containerOpens[middle] <= target { low = middle + 1 } else { high = middle }
        }
        return low - 1
    }

    /// The innermost container that `line` is inside of or closes (not one it opens), or nil at the top.
    /// Walks parents from the nearest earlier container: O(depth), never O(lines).
    func enclosingContainer(ofLine line: Int) -> Int? {
        var candidate = lastContainer(openingAtOrBefore: line - 1)
        while candidate >= 0 {
            let close = containerCloses[Int(candidate)]
            if close == Self.unclosed || Int(close) >= line { return candidate }
            candidate = Int(containerParents[candidate])
        }
        return nil
    }

    /// The container a cursor on `line` acts on: the one it opens, the one it closes, or the one it is in.
    func container(at line: Int) -> Int? {
        container(openedAt: line) ?? enclosingContainer(ofLine: line)
    }

    /// The open line of a container.
    @inline(__always) func openLine(of container: Int) -> Int { Int(containerOpens[container]) }

    /// The close line of a container, nil while unclosed.
    @inline(__always) func closeLine(of container: Int) -> Int? {
        let close = containerCloses[container]
        return close == Self.unclosed ? nil : Int(close)
    }

    /// Whether the document line after `line` (skipping nothing) is a sibling, so `line` ends with a comma.
    func hasComma(afterLine line: Int) -> Bool {
        let depth = depth(ofLine: line)
        guard depth > 0, line + 1 < lines.count else { return false }
        return self.depth(ofLine: line + 1) == depth && kind(ofLine: line + 1) != .close
    }

    /// Approximate heap bytes used, for memory reports.
    var byteCount: Int { lines.capacity * 8 + containerOpens.capacity * 16 }
}
