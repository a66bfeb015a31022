/// ASCII byte constants and classes used by the scanners.
enum Byte {
    static let tab: UInt8 = 0x09
    static let newline: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let space: UInt8 = 0x20
    static let quote = UInt8(ascii: "\"")
    static let plus = UInt8(ascii: "+")
    static let comma = UInt8(ascii: ",")
    static let minus = UInt8(ascii: "-")
    static let dot = UInt8(ascii: ".")
    static let slash = UInt8(ascii: "/")
    static let zero = UInt8(ascii: "0")
    static let nine = UInt8(ascii: "9")
    static let colon = UInt8(ascii: ":")
    static let openBracket = UInt8(ascii: "[")
    static let backslash = UInt8(ascii: "\\")
    static let closeBracket = UInt8(ascii: "]")
    static let lowerB = UInt8(ascii: "b")
    static let lowerE = UInt8(ascii: "e")
    static let lowerF = UInt8(ascii: "f")
    static let lowerN = UInt8(ascii: "n")
    static let lowerR = UInt8(ascii: "r")
    static let lowerT = UInt8(ascii: "t")
    static let lowerU = UInt8(ascii: "u")
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")

    @inline(__always) static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == space || byte == newline || byte == carriageReturn || byte == tab
    }

    @inline(__always) static func isDigit(_ byte: UInt8) -> Bool { byte &- zero < 10 }

    @inline(__always) static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20) &- UInt8(ascii: "a") < 6
    }

    /// `'x'` for a printable byte, `0xNN` otherwise, for error messages.
    static func describe(_ byte: UInt8) -> String {
        if (0x21..<0x7F).contains(byte) { return "'\(Character(Unicode.Scalar(byte)))'" }
        let hex = String(byte, radix: 16, uppercase: true)
        return "0x" + (hex.count == 1 ? "0" + hex : hex)
    }
}

/// Word-at-a-time scanning helpers (eight bytes per step) for the hot loops.
enum ByteScanning {
    static let ones: UInt64 = 0x0101_0101_0101_0101
    static let highs: UInt64 = 0x8080_8080_8080_8080

    /// Non-zero when some byte of `word` is zero.
    @inline(__always) static func hasZeroByte(_ word: UInt64) -> UInt64 {
        (word &- ones) & ~word & highs
    }

    /// Non-zero when some byte of `word` equals `byte`.
    @inline(__always) static func hasByte(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        hasZeroByte(word ^ (ones &* UInt64(byte)))
    }

    /// Non-zero when some byte of `word` is below `limit` (`limit` ≤ 128; exact when no byte has its high bit).
    @inline(__always) static func hasByteBelow(_ word: UInt64, _ limit: UInt8) -> UInt64 {
        (word &- ones &* UInt64(limit)) & ~word & highs
    }

    @inline(__always) static func loadWord(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// Skips bytes that need no attention inside a JSON string: stops at `"`, `\`, a control byte or a
    /// non-ASCII byte (or the end).
    @inline(__always) static func skipPlainStringBytes(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        var cursor = start
        let end = bytes.count
        while cursor + 8 <= end {
            let word = loadWord(bytes, cursor)
            let special = hasByte(word, Byte.quote) | hasByte(word, Byte.backslash) | hasByteBelow(word, 0x20)
                | (word & highs)
            if special != 0 { break }
            cursor += 8
        }
        while cursor < end {
            let byte = bytes[cursor]
            if byte == Byte.quote || byte == Byte.backslash || byte < 0x20 || byte >= 0x80 { return cursor }
            cursor += 1
        }
        return cursor
    }

    /// Skips printable ASCII (0x20...0x7E), eight bytes at a time, up to `limit`; returns where it stopped.
    @inline(__always) static func skipPrintableASCII(_ bytes: UnsafeRawBufferPointer, from start: Int, limit: Int) -> Int {
        var cursor = start
        while cursor + 8 <= limit {
            let word = loadWord(bytes, cursor)
            if (word & highs) | hasByteBelow(word, 0x20) | hasByte(word, 0x7F) != 0 { break }
            cursor += 8
        }
        while cursor < limit {
            let byte = bytes[cursor]
            if byte < 0x20 || byte >= 0x7F { return cursor }
            cursor += 1
        }
        return cursor
    }
}

/// UTF-8 checks without decoding into Swift strings.
enum UTF8Validation {
    /// Length of the well-formed UTF-8 sequence starting at `offset` (1 for ASCII), or 0 when it is not
    /// well-formed (bad lead byte, bad continuation, overlong form, surrogate, beyond U+10FFFF, truncated).
    @inline(__always) static func sequenceLength(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int {
        let lead = bytes[offset]
        if lead < 0x80 { return 1 }
        let remaining = bytes.count - offset
        @inline(__always) func continuation(_ index: Int, _ low: UInt8 = 0x80, _ high: UInt8 = 0xBF) -> Bool {
            index < remaining && (low...high).contains(bytes[offset + index])
        }
        switch lead {
        case 0xC2...0xDF:
            return continuation(1) ? 2 : 0
        case 0xE0:
            return continuation(1, 0xA0) && continuation(2) ? 3 : 0
        case 0xE1...0xEC, 0xEE...0xEF:
            return continuation(1) && continuation(2) ? 3 : 0
        case 0xED:
            return continuation(1, 0x80, 0x9F) && continuation(2) ? 3 : 0
        case 0xF0:
            return continuation(1, 0x90) && continuation(2) && continuation(3) ? 4 : 0
        case 0xF1...0xF3:
            return continuation(1) && continuation(2) && continuation(3) ? 4 : 0
        case 0xF4:
            return continuation(1, 0x80, 0x8F) && continuation(2) && continuation(3) ? 4 : 0
        default:
            return 0
        }
    }

    /// Decodes the scalar at `offset`: the scalar and its byte length, or U+FFFD and 1 when ill-formed.
    @inline(__always) static func decode(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> (scalar: UInt32, length: Int) {
        let lead = bytes[offset]
        if lead < 0x80 { return (UInt32(lead), 1) }
        let length = sequenceLength(bytes, at: offset)
        switch length {
        case 2:
            return (UInt32(lead & 0x1F) << 6 | UInt32(bytes[offset + 1] & 0x3F), 2)
        case 3:
            return (UInt32(lead & 0x0F) << 12 | UInt32(bytes[offset + 1] & 0x3F) << 6 | UInt32(bytes[offset + 2] & 0x3F), 3)
        case 4:
            return (
                UInt32(lead & 0x07) << 18 | UInt32(bytes[offset + 1] & 0x3F) << 12
                    | UInt32(bytes[offset + 2] & 0x3F) << 6 | UInt32(bytes[offset + 3] & 0x3F), 4
            )
        default:
            return (0xFFFD, 1)
        }
    }

    /// Validates a body chunk by chunk; a sequence cut by a chunk boundary is checked whole.
    struct ChunkValidator {
        /// Where validation continues.
        private(set) var position = 0
        /// First ill-formed byte, if any.
        private(set) var firstInvalid: Int?
        /// How many ill-formed places were found.
        private(set) var invalidCount = 0

        mutating func validate(_ bytes: UnsafeRawBufferPointer, upTo limit: Int) {
            var cursor = position
            let limit = min(limit, bytes.count)
            while cursor < limit {
                // ASCII runs eight bytes at a time.
                while cursor + 8 <= limit, ByteScanning.loadWord(bytes, cursor) & ByteScanning.highs == 0 {
                    cursor += 8
                }
                guard cursor < limit else { break }
                let length = sequenceLength(bytes, at: cursor)
                if length == 0 {
                    if firstInvalid == nil { firstInvalid = cursor }
                    invalidCount += 1
                    cursor += 1
                } else {
                    cursor += length
                }
            }
            position = cursor
        }
    }
}
