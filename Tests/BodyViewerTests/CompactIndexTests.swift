import Testing

@testable import BodyViewer
import TestTraits

/// The compact line index derives depths, close lines, parents and item counts by scanning depths
/// with block and superblock skips: checked here against a plain walk with a stack, on documents
/// that cross blocks and superblocks, take wide offset steps and hold containers over the counted span.
@Suite(.offPool) struct CompactIndexTests {
    /// A random JSON document (deterministic per seed).
    static func randomJSON(seed: UInt64, size: Int) -> String {
        var state = seed | 1
        func next(_ bound: Int) -> Int {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Int(state % UInt64(bound))
        }
        var text = ""
        func value(_ depth: Int) {
            switch depth > 6 ? next(3) : next(7) {
            case 0: text += "\(next(1000))"
            case 1: text += next(300) == 0 ? "\"" + String(repeating: "w", count: 9000 + next(4000)) + "\"" : "\"s\(next(99))\""
            case 2: text += ["true", "false", "null"][next(3)]
            case 3, 4:
                text += "["
                let count = next(20) == 0 ? 0 : next(8) + 1
                for index in 0..<count {
                    if index > 0 { text += "," }
                    value(depth + 1)
                }
                text += "]"
            default:
                text += "{"
                let count = next(20) == 0 ? 0 : next(6) + 1
                for index in 0..<count {
                    if index > 0 { text += ", " }
                    text += "\"k\(index)\": "
                    value(depth + 1)
                }
                text += "}"
            }
        }
        // A large top-level array, so its count is kept and scans cross superblocks.
        text += "["
        var index = 0
        while text.utf8.count < size {
            if index > 0 { text += ",\n" }
            value(1)
            index += 1
        }
        text += "]"
        return text
    }

    @Test(arguments: [UInt64(1), 2, 3, 4])
    func derivedStructureMatchesAPlainWalk(seed: UInt64) throws {
        let text = Self.randomJSON(seed: seed, size: seed == 1 ? 1_500_000 : 200_000)
        let index = try Array(text.utf8).withUnsafeBytes { bytes in
            var indexer = JSONLineIndexer(bytes: bytes, allowsSequence: false)
            try indexer.scan(upTo: bytes.count)
            return try indexer.finish()
        }
        let lines = index.lineCount
        #expect(lines > 2 * (1 << JSONLineIndex.superShift) || seed != 1, "\(lines) lines")

        // The plain walk: depth from the kinds, containers with a stack.
        var depths: [Int] = []
        var closes: [Int: Int] = [:]
        var parents: [Int: Int] = [:]
        var counts: [Int: Int] = [:]
        var stack: [Int] = []
        var depth = 0
        for line in 0..<lines {
            let kind = index.kind(ofLine: line)
            if kind == .close { depth -= 1 }
            depths.append(depth)
            if kind != .close, let parent = stack.last { counts[parent, default: 0] += 1 }
            switch kind {
            case .open:
                parents[line] = stack.last
                stack.append(line)
                depth += 1
            case .close:
                closes[stack.removeLast()] = line
            case .scalar, .empty: break
            }
        }
        #expect(stack.isEmpty)

        var offset = -1
        for line in 0..<lines {
            #expect(index.depth(ofLine: line) == depths[line], "depth of \(line)")
            let lineOffset = index.offset(ofLine: line)
            #expect(lineOffset > offset, "offsets grow at \(line)")
            offset = lineOffset
            #expect(index.line(containingOffset: lineOffset) == line, "line at the offset of \(line)")
            if line % 7 == 0 {
                let expectedEnclosing: Int? = index.kind(ofLine: line) == .close
                    ? closes.first { $0.value == line }?.key
                    : parents[line] ?? (index.kind(ofLine: line) == .open ? nil : lastOpen(before: line, depths: depths, index: index))
                #expect(index.enclosingContainer(ofLine: line) == expectedEnclosing, "enclosing \(line)")
            }
        }
        for (open, close) in closes {
            #expect(index.closeLine(of: open) == close, "close of \(open)")
            #expect(index.parent(of: open) == parents[open], "parent of \(open)")
            #expect(index.itemCount(of: open) == counts[open, default: 0], "count of \(open)")
        }
        #expect(!index.largeCounts.isEmpty, "the top-level array keeps its count")
    }

    /// The open line of the container a scalar or empty line sits in (a plain backward walk).
    private func lastOpen(before line: Int, depths: [Int], index: JSONLineIndex) -> Int? {
        var candidate = line - 1
        while candidate >= 0 {
            if depths[candidate] < depths[line] { return candidate }
            candidate -= 1
        }
        return nil
    }

    @Test func aPreviewLeavesOpenContainersUnclosed() throws {
        let text = Self.randomJSON(seed: 9, size: 50_000)
        try Array(text.utf8).withUnsafeBytes { bytes in
            var indexer = JSONLineIndexer(bytes: bytes, allowsSequence: false)
            try indexer.scan(upTo: bytes.count / 2)
            let preview = indexer.snapshot()
            #expect(preview.closeLine(of: 0) == nil, "the top-level array is still open")
            #expect(preview.itemCount(of: 0) > 0)
            #expect(preview.lineCount == preview.recordedLineCount - 1)
        }
    }
}
