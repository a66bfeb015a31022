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
/// nothing of the pretty text is stored, only where each line's first token starts and what it is.
///
/// Each line is two bytes: its kind (2 bits), a member flag, and how far its first token (the key for
/// a member) starts after the previous line's (13 bits; wider steps are kept aside). Blocks of 64
/// lines keep their first line's offset and depth and their smallest depth; superblocks of 4,096
/// lines their smallest depth. Everything else is derived: a line's depth follows from the kinds
/// (one deeper after an open line, one shallower on a close line), a container is named by its open
/// line, and its close line, parent and item count are found by scanning depths, skipping blocks
/// whose smallest depth rules them out. About 2.3 bytes a line: a 1 GB body (92 M lines) takes
/// ~210 MB, where a word per line and 16 bytes per container took 1 GB.
struct JSONLineIndex: Sendable {
    /// Deepest nesting the layout can record.
    static let maximumDepth = (1 << 21) - 1
    /// Largest body the layout can address.
    static let maximumOffset = (1 << 40) - 1

    static let blockShift = 6
    static let blockSize = 1 << blockShift
    static let superShift = 12
    static let blocksPerSuper = 1 << (superShift - blockShift)
    /// The delta that says "look in `wideDeltas`".
    static let wideDelta = (1 << 13) - 1
    /// Containers spanning more lines than this keep their item count (smaller ones are counted when asked).
    static let countedSpan = 4096

    /// Per line: delta << 3 | member << 2 | kind.
    private(set) var entries: [UInt16] = []
    /// Per block: the offset of its first line.
    private(set) var blockOffsets: [Int] = []
    /// Per block: the depth of its first line.
    private(set) var blockDepths: [UInt32] = []
    /// Per block: its smallest depth.
    private(set) var blockMinDepths: [UInt32] = []
    /// Per superblock: its smallest depth.
    private(set) var superMinDepths: [UInt32] = []
    /// Offset steps too wide for an entry, by line.
    private(set) var wideDeltas: [Int: Int] = [:]
    /// Item counts of containers spanning more than `countedSpan` lines, by open line.
    var largeCounts: [Int: Int] = [:]
    private var lastOffset = 0

    /// Lines at the end kept only for their offsets (a preview's last line, whose end is not known yet).
    var trailingLines = 0

    /// Lines shown.
    var lineCount: Int { entries.count - trailingLines }
    /// Lines recorded, the trailing ones included.
    var recordedLineCount: Int { entries.count }

    // MARK: Building

    /// Room for `lines` lines, so the arrays grow once.
    mutating func reserve(lines: Int) {
        entries.reserveCapacity(lines)
        let blocks = lines >> Self.blockShift + 1
        blockOffsets.reserveCapacity(blocks)
        blockDepths.reserveCapacity(blocks)
        blockMinDepths.reserveCapacity(blocks)
        superMinDepths.reserveCapacity(lines >> Self.superShift + 1)
    }

    /// Records the next line.
    mutating func append(offset: Int, depth: Int, member: Bool, kind: JSONLineKind) {
        let line = entries.count
        var delta = 0
        if line & (Self.blockSize - 1) == 0 {
            blockOffsets.append(offset)
            blockDepths.append(UInt32(depth))
            blockMinDepths.append(UInt32(depth))
            if line & ((1 << Self.superShift) - 1) == 0 { superMinDepths.append(UInt32(depth)) }
        } else {
            delta = offset - lastOffset
            let depth = UInt32(depth)
            if depth < blockMinDepths[blockMinDepths.count - 1] { blockMinDepths[blockMinDepths.count - 1] = depth }
            if depth < superMinDepths[superMinDepths.count - 1] { superMinDepths[superMinDepths.count - 1] = depth }
        }
        if delta >= Self.wideDelta {
            wideDeltas[line] = delta
            delta = Self.wideDelta
        }
        entries.append(UInt16(delta) << 3 | (member ? 4 : 0) | UInt16(kind.rawValue))
        lastOffset = offset
    }

    // MARK: Lines

    @inline(__always) func kind(ofLine line: Int) -> JSONLineKind {
        JSONLineKind(rawValue: UInt8(entries[line] & 3)) ?? .scalar
    }

    @inline(__always) func isMember(_ line: Int) -> Bool { entries[line] & 4 != 0 }

    @inline(__always) private func delta(ofLine line: Int) -> Int {
        let delta = Int(entries[line] >> 3)
        return delta == Self.wideDelta ? wideDeltas[line] ?? 0 : delta
    }

    /// The byte offset of the line's first token (the key for a member).
    func offset(ofLine line: Int) -> Int {
        let block = line >> Self.blockShift
        var offset = blockOffsets[block]
        var current = block << Self.blockShift
        while current < line {
            current += 1
            offset += delta(ofLine: current)
        }
        return offset
    }

    /// The line's nesting depth (0 at the top).
    func depth(ofLine line: Int) -> Int {
        let block = line >> Self.blockShift
        var depth = Int(blockDepths[block])
        var current = block << Self.blockShift
        while current < line {
            if kind(ofLine: current) == .open { depth += 1 }
            current += 1
            if kind(ofLine: current) == .close { depth -= 1 }
        }
        return depth
    }

    /// The line whose first token starts at or before `offset` (the line that shows that byte).
    func line(containingOffset offset: Int) -> Int {
        guard !entries.isEmpty else { return 0 }
        var low = 0
        var high = blockOffsets.count
        while low < high {
            let middle = (low + high) / 2
            if blockOffsets[middle] <= offset { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return 0 }
        let block = low - 1
        var line = block << Self.blockShift
        var lineOffset = blockOffsets[block]
        let end = min(entries.count, line + Self.blockSize)
        while line + 1 < end {
            let next = lineOffset + delta(ofLine: line + 1)
            guard next <= offset else { break }
            lineOffset = next
            line += 1
        }
        return min(line, max(0, lineCount - 1))
    }

    /// Whether the document line after `line` (skipping nothing) is a sibling, so `line` ends with a comma.
    func hasComma(afterLine line: Int) -> Bool {
        guard line + 1 < entries.count else { return false }
        let depth = depth(ofLine: line)
        guard depth > 0 else { return false }
        return kind(ofLine: line + 1) != .close && self.depth(ofLine: line + 1) == depth
    }

    // MARK: Containers (named by their open line)

    /// The container whose open line is `line`, if that line opens one.
    func container(openedAt line: Int) -> Int? {
        kind(ofLine: line) == .open ? line : nil
    }

    /// The container a cursor on `line` acts on: the one it opens, the one it closes, or the one it is in.
    func container(at line: Int) -> Int? {
        container(openedAt: line) ?? enclosingContainer(ofLine: line)
    }

    /// The open line of a container.
    @inline(__always) func openLine(of container: Int) -> Int { container }

    /// The close line of a container, nil while unclosed (a preview): the first later line as shallow as its open line.
    func closeLine(of container: Int) -> Int? {
        firstLine(after: container, atMostDepth: depth(ofLine: container))
    }

    /// The innermost container that `line` is inside of or closes (not one it opens), or nil at the top:
    /// the nearest earlier line shallower than the line's contents.
    func enclosingContainer(ofLine line: Int) -> Int? {
        guard line > 0, line < entries.count else { return nil }
        let depth = depth(ofLine: line)
        let target = kind(ofLine: line) == .close ? depth : depth - 1
        guard target >= 0 else { return nil }
        return lastLine(before: line, atMostDepth: target)
    }

    /// The container around a container, or nil at the top.
    func parent(of container: Int) -> Int? { enclosingContainer(ofLine: container) }

    /// Items (array elements or object members) of a container.
    func itemCount(of container: Int) -> Int {
        if let count = largeCounts[container] { return count }
        let childDepth = depth(ofLine: container) + 1
        let end = closeLine(of: container) ?? entries.count
        var count = 0
        var depth = childDepth
        var line = container + 1
        while line < end {
            if depth == childDepth, kind(ofLine: line) != .close { count += 1 }
            if kind(ofLine: line) == .open { depth += 1 }
            line += 1
            if line < entries.count, kind(ofLine: line) == .close { depth -= 1 }
        }
        return count
    }

    // MARK: Depth scans

    /// The first line after `start` whose depth is at most `limit`, skipping blocks and superblocks
    /// that go no shallower; nil when there is none yet.
    private func firstLine(after start: Int, atMostDepth limit: Int) -> Int? {
        let limit = UInt32(clamping: limit)
        var line = start
        var depth = UInt32(depth(ofLine: start))
        // The rest of the start's block, line by line.
        while line + 1 < entries.count, (line + 1) & (Self.blockSize - 1) != 0 {
            if kind(ofLine: line) == .open { depth += 1 }
            line += 1
            if kind(ofLine: line) == .close { depth -= 1 }
            if depth <= limit { return line }
        }
        var block = (line >> Self.blockShift) + 1
        while block < blockOffsets.count {
            if block & (Self.blocksPerSuper - 1) == 0, superMinDepths[block >> (Self.superShift - Self.blockShift)] > limit {
                block += Self.blocksPerSuper
                continue
            }
            if blockMinDepths[block] <= limit {
                var line = block << Self.blockShift
                var depth = blockDepths[block]
                if depth <= limit { return line }
                let end = min(entries.count, line + Self.blockSize)
                while line + 1 < end {
                    if kind(ofLine: line) == .open { depth += 1 }
                    line += 1
                    if kind(ofLine: line) == .close { depth -= 1 }
                    if depth <= limit { return line }
                }
            }
            block += 1
        }
        return nil
    }

    /// The last line before `end` whose depth is at most `limit`, skipping blocks and superblocks
    /// that go no shallower.
    private func lastLine(before end: Int, atMostDepth limit: Int) -> Int? {
        let limit = UInt32(clamping: limit)
        var block = (end - 1) >> Self.blockShift
        var lineLimit = end
        while block >= 0 {
            let firstOfSuper = block & ~(Self.blocksPerSuper - 1)
            if block == firstOfSuper + Self.blocksPerSuper - 1, lineLimit > block << Self.blockShift + Self.blockSize - 1,
                superMinDepths[block >> (Self.superShift - Self.blockShift)] > limit
            {
                block = firstOfSuper - 1
                lineLimit = .max
                continue
            }
            if blockMinDepths[block] <= limit, let found = lastLine(inBlock: block, before: lineLimit, atMostDepth: limit) {
                return found
            }
            block -= 1
            lineLimit = .max
        }
        return nil
    }

    /// The last line of `block` before `end` whose depth is at most `limit`.
    private func lastLine(inBlock block: Int, before end: Int, atMostDepth limit: UInt32) -> Int? {
        var line = block << Self.blockShift
        let last = min(entries.count, line + Self.blockSize, end) - 1
        var depth = blockDepths[block]
        var found: Int? = depth <= limit && line <= last ? line : nil
        while line < last {
            if kind(ofLine: line) == .open { depth += 1 }
            line += 1
            if kind(ofLine: line) == .close { depth -= 1 }
            if depth <= limit { found = line }
        }
        return found
    }

    /// Approximate heap bytes used, for memory reports.
    var byteCount: Int {
        entries.capacity * 2 + blockOffsets.capacity * 8 + (blockDepths.capacity + blockMinDepths.capacity + superMinDepths.capacity) * 4
            + (wideDeltas.count + largeCounts.count) * 48
    }
}
