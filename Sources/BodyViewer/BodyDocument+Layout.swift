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

    /// Pieces a member line spends on its key (key, `:`, space), right after the indentation.
    static let keyPieces = 3

    /// Punctuation the view shows points at the body's own bytes where they exist (`:`, `,`, brackets),
    /// so searching for them finds and highlights what is on screen.
    func layout(ofLine line: Int, folded: Bool) -> BodyLineLayout {
        let depth = index.depth(ofLine: line)
        let start = index.offset(ofLine: line)
        let nextStart = self.nextStart(after: line)
        var pieces: [BodyPiece] = []
        pieces.reserveCapacity(8)
        if depth > 0 { pieces.append(.spaces(depth * 2)) }
        var valueStart = start
        if index.isMember(line) {
            let keyEnd = Self.endOfString(bytes, from: start)
            let colon = Self.skipWhitespace(bytes, from: keyEnd)
            pieces.append(.text(start..<keyEnd, .key))
            pieces.append(.text(colon..<colon + 1, .punctuation))
            pieces.append(.literal(" ", .punctuation))
            valueStart = Self.skipWhitespace(bytes, from: colon + 1)
        }
        let tokenEnd: Int
        switch index.kind(ofLine: line) {
        case .scalar:
            tokenEnd = Self.scalarEnd(bytes, before: nextStart, after: valueStart)
            pieces.append(.text(valueStart..<tokenEnd, Self.role(ofScalarAt: valueStart, bytes)))
        case .empty:
            let close = Self.skipWhitespace(bytes, from: valueStart + 1)
            pieces.append(.text(valueStart..<valueStart + 1, .punctuation))
            pieces.append(.text(close..<close + 1, .punctuation))
            tokenEnd = close + 1
        case .close:
            pieces.append(.text(start..<start + 1, .punctuation))
            tokenEnd = start + 1
        case .open:
            pieces.append(.text(valueStart..<valueStart + 1, .punctuation))
            guard folded, let container = index.container(openedAt: line), let close = index.closeLine(of: container)
            else { return BodyLineLayout(pieces: pieces, rawRange: start..<nextStart) }
            let isObject = bytes[valueStart] == Byte.openBrace
            pieces.append(.literal(" … ", .foldSummary))
            pieces.append(.literal(isObject ? "}" : "]", .punctuation))
            if index.hasComma(afterLine: close) {
                pieces.append(comma(after: index.offset(ofLine: close) + 1))
            }
            let count = index.itemCount(of: container)
            let noun = isObject ? (count == 1 ? "key" : "keys") : (count == 1 ? "item" : "items")
            pieces.append(.literal(" \(BodyNumberFormat.grouped(count)) \(noun)", .foldSummary))
            return BodyLineLayout(pieces: pieces, rawRange: start..<valueStart + 1)
        }
        if index.hasComma(afterLine: line) { pieces.append(comma(after: tokenEnd)) }
        return BodyLineLayout(pieces: pieces, rawRange: start..<nextStart)
    }

    /// Whether a piece is a line's trailing comma.
    static func isComma(_ piece: BodyPiece, _ bytes: UnsafeRawBufferPointer) -> Bool {
        switch piece {
        case .literal(let text, _): text == ","
        case .text(let range, .punctuation): range.count == 1 && bytes[range.lowerBound] == Byte.comma
        default: false
        }
    }

    /// The comma that follows `offset` (after whitespace).
    private func comma(after offset: Int) -> BodyPiece {
        let position = Self.skipWhitespace(bytes, from: offset)
        guard position < bytes.count, bytes[position] == Byte.comma else { return .literal(",", .punctuation) }
        return .text(position..<position + 1, .punctuation)
    }

    /// Whether a match starting at `offset` starts in whitespace the view does not show: formatting
    /// between tokens, as opposed to spaces inside a key or a string.
    func isHiddenWhitespace(_ offset: Int) -> Bool {
        guard offset < bytes.count, Byte.isWhitespace(bytes[offset]) else { return false }
        let line = index.line(containingOffset: offset)
        let start = index.offset(ofLine: line)
        guard offset > start else { return true }
        if index.isMember(line), offset < Self.endOfString(bytes, from: start) { return false }
        let valueStart = valueStart(ofLine: line)
        guard index.kind(ofLine: line) == .scalar, valueStart < bytes.count, bytes[valueStart] == Byte.quote,
            offset >= valueStart
        else { return true }
        return offset >= Self.scalarEnd(bytes, before: nextStart(after: line), after: valueStart)
    }

    /// Where the value on `line` starts (after the key and `:` for a member).
    func valueStart(ofLine line: Int) -> Int {
        let start = index.offset(ofLine: line)
        guard index.isMember(line) else { return start }
        return Self.skipSeparator(bytes, from: Self.endOfString(bytes, from: start))
    }

    /// Where the line after `line` starts (the end of the body after the last line).
    func nextStart(after line: Int) -> Int {
        line + 1 < index.recordedLineCount ? index.offset(ofLine: line + 1) : bytes.count
    }

    static func skipWhitespace(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        var cursor = start
        while cursor < bytes.count, Byte.isWhitespace(bytes[cursor]) { cursor += 1 }
        return cursor
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
