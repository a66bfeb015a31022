/// Walks the glyphs of one line left to right, tracking display columns, so a row can be cut out of any
/// line without formatting what comes before it. Printable ASCII is skipped eight bytes at a time, which
/// keeps horizontal scrolling and wrapping of a 50 MB line fast.
struct BodyLineCursor {
    /// How `advance` treats a wide glyph that does not fit in the room left.
    enum Mode {
        /// Skipping to a horizontal offset: the glyph is passed and its rest shows as blanks.
        case skip
        /// Filling a wrapped row: the glyph moves to the next row (unless the row is empty).
        case wrapRow
        /// Filling the last columns of an unwrapped row: blanks fill the room and the glyph stays.
        case clip
    }

    /// Columns between tab stops.
    static let tabWidth = 8

    private let pieces: [BodyPiece]
    private let bytes: UnsafeRawBufferPointer
    private var pieceIndex = 0
    /// Position inside the current piece: a byte offset for text and ASCII pieces, a digit for hex bytes.
    private var inPiece = 0
    private var literalIndex: String.Index?
    /// Display column (from the line's start) of the next glyph.
    private(set) var column = 0
    /// Blanks still to show from a glyph that was split (a tab or a wide character cut by an edge).
    private var pendingBlanks = 0
    private var pendingRole = BodyTextRole.plain
    private var pendingSource = -1

    init(pieces: [BodyPiece], bytes: UnsafeRawBufferPointer) {
        self.pieces = pieces
        self.bytes = bytes
        enterPiece()
    }

    /// Whether nothing is left to show.
    var isAtEnd: Bool { pendingBlanks == 0 && pieceIndex >= pieces.count }

    /// The next body byte this cursor will show, if any.
    var sourcePosition: Int? {
        var index = pieceIndex
        while index < pieces.count {
            switch pieces[index] {
            case .text(let range, _), .ascii(let range):
                return index == pieceIndex ? inPiece : range.lowerBound
            case .hexByte(let offset):
                return offset
            case .spaces, .literal, .hexGap:
                index += 1
            }
        }
        return nil
    }

    /// Moves over at most `room` columns, sending the glyphs to `sink` when there is one; returns the
    /// columns used.
    @discardableResult
    mutating func advance(_ room: Int, mode: Mode, into sink: inout BodyRunBuilder?) -> Int {
        var room = room
        let start = room
        while room > 0 {
            if pendingBlanks > 0 {
                let take = min(pendingBlanks, room)
                sink?.appendBlanks(take, role: pendingRole, source: pendingSource)
                pendingBlanks -= take
                room -= take
                continue
            }
            guard pieceIndex < pieces.count else { break }
            if sink == nil, room >= 8, case .text(let range, _) = pieces[pieceIndex] {
                let stop = ByteScanning.skipPrintableASCII(bytes, from: inPiece, limit: min(range.upperBound, inPiece + room))
                if stop > inPiece {
                    let count = stop - inPiece
                    inPiece = stop
                    column += count
                    room -= count
                    if inPiece >= range.upperBound { nextPiece() }
                    continue
                }
            }
            let (glyph, length) = peek()
            if glyph.isBlankRun {
                let take = min(glyph.width, room)
                sink?.appendBlanks(take, role: glyph.role, source: glyph.source)
                consume(length, width: glyph.width)
                pendingBlanks = glyph.width - take
                pendingRole = glyph.role
                pendingSource = glyph.source
                room -= take
            } else if glyph.width <= room {
                sink?.append(glyph)
                consume(length, width: glyph.width)
                room -= glyph.width
            } else {
                switch mode {
                case .wrapRow where room < start:
                    return start - room
                case .clip:
                    sink?.appendBlanks(room, role: .plain, source: -1)
                    return start
                case .skip, .wrapRow:
                    sink?.appendBlanks(room, role: .plain, source: -1)
                    consume(length, width: glyph.width)
                    pendingBlanks = glyph.width - room
                    pendingRole = .plain
                    pendingSource = -1
                    room = 0
                }
            }
        }
        return start - room
    }

    /// Moves over at most `room` columns without drawing.
    @discardableResult
    mutating func skip(_ room: Int, mode: Mode) -> Int {
        var none: BodyRunBuilder? = nil
        return advance(room, mode: mode, into: &none)
    }

    /// Passes whole glyphs until the next one shows byte `offset` or a later one.
    mutating func skip(toSource offset: Int) {
        while !isAtEnd {
            if pendingBlanks > 0 {
                pendingBlanks = 0
                continue
            }
            if case .text(let range, _) = pieces[pieceIndex], inPiece < offset {
                let stop = ByteScanning.skipPrintableASCII(bytes, from: inPiece, limit: min(range.upperBound, offset))
                if stop > inPiece {
                    column += stop - inPiece
                    inPiece = stop
                    if inPiece >= range.upperBound { nextPiece() }
                    continue
                }
            }
            let (glyph, length) = peek()
            if glyph.source >= offset { return }
            consume(length, width: glyph.width)
        }
    }

    // MARK: Glyphs

    private func peek() -> (BodyGlyph, Int) {
        switch pieces[pieceIndex] {
        case .spaces(let count):
            return (BodyGlyph(scalar: " ", width: count, isBlankRun: true, role: .plain, source: -1), 0)
        case .literal(let text, let role):
            let scalar = text.unicodeScalars[literalIndex ?? text.unicodeScalars.startIndex]
            let width = BodyCharacterWidth.columns(scalar.value)
            return (BodyGlyph(scalar: scalar, width: width, isBlankRun: false, role: role, source: -1), 1)
        case .text(_, let role):
            let byte = bytes[inPiece]
            if byte < 0x80 {
                if byte == Byte.tab {
                    let width = Self.tabWidth - column % Self.tabWidth
                    return (BodyGlyph(scalar: " ", width: width, isBlankRun: true, role: role, source: inPiece), 1)
                }
                let scalar = byte < 0x20 ? Unicode.Scalar(0x2400 + UInt32(byte)) : byte == 0x7F ? "\u{2421}" : nil
                return (BodyGlyph(scalar: scalar ?? Unicode.Scalar(byte), width: 1, isBlankRun: false, role: role,
                    source: inPiece), 1)
            }
            let (value, length) = UTF8Validation.decode(bytes, at: inPiece)
            let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
            return (BodyGlyph(scalar: scalar, width: BodyCharacterWidth.columns(value), isBlankRun: false, role: role,
                source: inPiece), length)
        case .hexByte(let offset):
            let nibble = inPiece == 0 ? bytes[offset] >> 4 : bytes[offset] & 0xF
            let digit = nibble < 10 ? 0x30 + nibble : 0x57 + nibble
            return (BodyGlyph(scalar: Unicode.Scalar(digit), width: 1, isBlankRun: false, role: .hexByte,
                source: offset), 1)
        case .hexGap(let offset):
            return (BodyGlyph(scalar: " ", width: 1, isBlankRun: false, role: .plain, source: offset, joinsNext: true), 1)
        case .ascii:
            let byte = bytes[inPiece]
            let scalar = (0x20..<0x7F).contains(byte) ? Unicode.Scalar(byte) : "."
            return (BodyGlyph(scalar: scalar, width: 1, isBlankRun: false, role: .hexASCII, source: inPiece), 1)
        }
    }

    private mutating func consume(_ length: Int, width: Int) {
        column += width
        switch pieces[pieceIndex] {
        case .spaces, .hexGap:
            nextPiece()
        case .literal(let text, _):
            let next = text.unicodeScalars.index(after: literalIndex ?? text.unicodeScalars.startIndex)
            if next == text.unicodeScalars.endIndex { nextPiece() } else { literalIndex = next }
        case .text(let range, _), .ascii(let range):
            inPiece += length
            if inPiece >= range.upperBound { nextPiece() }
        case .hexByte:
            inPiece += 1
            if inPiece >= 2 { nextPiece() }
        }
    }

    private mutating func nextPiece() {
        pieceIndex += 1
        enterPiece()
    }

    /// Sets up the current piece, passing over empty ones.
    private mutating func enterPiece() {
        while pieceIndex < pieces.count {
            switch pieces[pieceIndex] {
            case .spaces(let count):
                if count > 0 { return }
            case .literal(let text, _):
                if !text.isEmpty {
                    literalIndex = text.unicodeScalars.startIndex
                    return
                }
            case .text(let range, _), .ascii(let range):
                if !range.isEmpty {
                    inPiece = range.lowerBound
                    return
                }
            case .hexByte:
                inPiece = 0
                return
            case .hexGap:
                return
            }
            pieceIndex += 1
        }
    }
}

/// Collects glyphs into runs, giving matched bytes the match roles.
struct BodyRunBuilder {
    private(set) var runs: [BodyTextRun] = []
    private var text = ""
    private var role = BodyTextRole.plain
    /// Byte ranges of the matches to highlight, ascending.
    var matches: [Range<Int>] = []
    /// The match the cursor is on.
    var currentMatch: Range<Int>?

    init(matches: [Range<Int>] = [], currentMatch: Range<Int>? = nil) {
        self.matches = matches
        self.currentMatch = currentMatch
    }

    mutating func append(_ glyph: BodyGlyph) {
        setRole(glyph.joinsNext ? resolveGap(glyph.role, glyph.source) : resolve(glyph.role, glyph.source))
        text.unicodeScalars.append(glyph.scalar)
    }

    mutating func appendBlanks(_ count: Int, role: BodyTextRole, source: Int) {
        setRole(resolve(role, source))
        text.append(String(repeating: " ", count: count))
    }

    mutating func append(_ literal: String, role: BodyTextRole) {
        setRole(role)
        text += literal
    }

    mutating func finish() -> [BodyTextRun] {
        if !text.isEmpty { runs.append(BodyTextRun(text, role)) }
        text = ""
        return runs
    }

    private mutating func setRole(_ newRole: BodyTextRole) {
        guard newRole != role else { return }
        if !text.isEmpty { runs.append(BodyTextRun(text, role)) }
        text = ""
        role = newRole
    }

    private func resolveGap(_ role: BodyTextRole, _ before: Int) -> BodyTextRole {
        guard !matches.isEmpty else { return role }
        if let currentMatch, currentMatch.contains(before), currentMatch.contains(before + 1) { return .currentMatch }
        for match in matches where match.contains(before) && match.contains(before + 1) { return .match }
        return role
    }

    private func resolve(_ role: BodyTextRole, _ source: Int) -> BodyTextRole {
        guard source >= 0, !matches.isEmpty else { return role }
        if let currentMatch, currentMatch.contains(source) { return .currentMatch }
        for match in matches where match.contains(source) { return .match }
        return role
    }
}
