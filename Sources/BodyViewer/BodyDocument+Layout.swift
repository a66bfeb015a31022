extension BodyDocument {
    /// The pieces of a line; `folded` shows a container as one summary line.
    func layout(ofLine line: Int, folded: Bool, bytes: UnsafeRawBufferPointer) -> BodyLineLayout {
        switch storage {
        case .json(let index):
            return JSONLineLayout(index: index, bytes: bytes).layout(ofLine: line, folded: folded)
        case .text(let index):
            return BodyLineLayout(pieces: [.text(index.range(ofLine: line, in: bytes), .plain)],
                rawRange: index.rawRange(ofLine: line))
        case .binary:
            return HexRowLayout.layout(row: line, bytes: bytes)
        }
    }

    /// The line that shows byte `offset`.
    func line(containingOffset offset: Int) -> Int {
        switch storage {
        case .json(let index): index.line(containingOffset: offset)
        case .text(let index): index.line(containingOffset: offset)
        case .binary: min(max(0, offset / 16), lineCount - 1)
        }
    }

    /// The first body byte a line stands for (where a search from that line starts).
    func startOffset(ofLine line: Int) -> Int {
        switch storage {
        case .json(let index): index.offset(ofLine: line)
        case .text(let index): Int(index.starts[line])
        case .binary: line * 16
        }
    }
}

/// Lays out JSON lines: indentation, key, value or bracket, comma, or a fold summary.
struct JSONLineLayout {
    let index: JSONLineIndex
    let bytes: UnsafeRawBufferPointer

    func layout(ofLine line: Int, folded: Bool) -> BodyLineLayout {
        let depth = index.depth(ofLine: line)
        let start = index.offset(ofLine: line)
        let nextStart = line + 1 < index.lines.count ? index.offset(ofLine: line + 1) : bytes.count
        var pieces: [BodyPiece] = []
        pieces.reserveCapacity(8)
        if depth > 0 { pieces.append(.spaces(depth * 2)) }
        var valueStart = start
        if index.isMember(line) {
            let keyEnd = Self.endOfString(bytes, from: start)
            pieces.append(.text(start..<keyEnd, .key))
            pieces.append(.literal(": ", .punctuation))
            valueStart = Self.skipSeparator(bytes, from: keyEnd)
        }
        var commaAfter = line
        switch index.kind(ofLine: line) {
        case .scalar:
            let valueEnd = Self.scalarEnd(bytes, before: nextStart, after: valueStart)
            pieces.append(.text(valueStart..<valueEnd, Self.role(ofScalarAt: valueStart, bytes)))
        case .empty:
            pieces.append(.text(valueStart..<valueStart + 1, .punctuation))
            pieces.append(.literal(bytes[valueStart] == Byte.openBrace ? "}" : "]", .punctuation))
        case .close:
            pieces.append(.text(start..<start + 1, .punctuation))
        case .open:
            pieces.append(.text(valueStart..<valueStart + 1, .punctuation))
            if folded, let container = index.container(openedAt: line), let close = index.closeLine(of: container) {
                let isObject = bytes[valueStart] == Byte.openBrace
                pieces.append(.literal(" … ", .foldSummary))
                pieces.append(.literal(isObject ? "}" : "]", .punctuation))
                if index.hasComma(afterLine: close) { pieces.append(.literal(",", .punctuation)) }
                let count = Int(index.containerCounts[container])
                let noun = isObject ? (count == 1 ? "key" : "keys") : (count == 1 ? "item" : "items")
                pieces.append(.literal(" \(BodyNumberFormat.grouped(count)) \(noun)", .foldSummary))
                return BodyLineLayout(pieces: pieces, rawRange: start..<valueStart + 1)
            }
            commaAfter = -1
        }
        if commaAfter >= 0, index.hasComma(afterLine: commaAfter) { pieces.append(.literal(",", .punctuation)) }
        return BodyLineLayout(pieces: pieces, rawRange: start..<nextStart)
    }

    /// The role of the scalar whose first byte is at `offset`.
    static func role(ofScalarAt offset: Int, _ bytes: UnsafeRawBufferPointer) -> BodyTextRole {
        switch bytes[offset] {
        case Byte.quote: .string
        case Byte.lowerT, Byte.lowerF: .bool
        case Byte.lowerN: .null
        default: .number
        }
    }

    /// The offset after the closing quote of the (already validated) string opening at `start`.
    static func endOfString(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        var cursor = start + 1
        while true {
            cursor = ByteScanning.skipPlainStringBytes(bytes, from: cursor)
            guard cursor < bytes.count else { return bytes.count }
            switch bytes[cursor] {
            case Byte.quote: return cursor + 1
            case Byte.backslash: cursor += 2
            default: cursor += 1
            }
        }
    }

    /// Skips whitespace, `:` and whitespace after a key.
    static func skipSeparator(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        var cursor = start
        while cursor < bytes.count, Byte.isWhitespace(bytes[cursor]) || bytes[cursor] == Byte.colon { cursor += 1 }
        return cursor
    }

    /// Where a scalar ends, found backwards from the next line's first token over whitespace and one comma:
    /// no need to re-read a 50 MB string to find its end.
    static func scalarEnd(_ bytes: UnsafeRawBufferPointer, before nextStart: Int, after valueStart: Int) -> Int {
        var end = nextStart
        while end > valueStart + 1, Byte.isWhitespace(bytes[end - 1]) { end -= 1 }
        if end > valueStart + 1, bytes[end - 1] == Byte.comma {
            end -= 1
            while end > valueStart + 1, Byte.isWhitespace(bytes[end - 1]) { end -= 1 }
        }
        return end
    }
}

/// Hex dump rows, `hexdump -C` style: `00000010  7b 22 61 22 3a 31 7d 0a  0a 0a 0a 0a 0a 0a 0a 0a  |{"a":1}.........|`.
enum HexRowLayout {
    static func layout(row: Int, bytes: UnsafeRawBufferPointer) -> BodyLineLayout {
        let start = row * 16
        let end = min(bytes.count, start + 16)
        var pieces: [BodyPiece] = [.literal(offsetText(start, total: bytes.count), .hexOffset), .spaces(2)]
        pieces.reserveCapacity(40)
        for column in 0..<16 {
            let offset = start + column
            if offset < end {
                pieces.append(.hexByte(offset))
                if column < 15 { pieces.append(.hexGap(offset)) }
                if column == 7 { pieces.append(.hexGap(offset)) }
            } else {
                pieces.append(.spaces(column == 7 ? 4 : column == 15 ? 2 : 3))
            }
        }
        pieces.append(.spaces(2))
        pieces.append(.literal("|", .punctuation))
        pieces.append(.ascii(start..<max(start, end)))
        pieces.append(.literal("|", .punctuation))
        return BodyLineLayout(pieces: pieces, rawRange: start..<max(start, end))
    }

    /// The offset in hex, at least 8 digits (more for bodies beyond 4 GiB).
    static func offsetText(_ offset: Int, total: Int) -> String {
        let digits = max(8, String(max(0, total - 1), radix: 16).count)
        let hex = String(offset, radix: 16)
        return String(repeating: "0", count: max(0, digits - hex.count)) + hex
    }
}
