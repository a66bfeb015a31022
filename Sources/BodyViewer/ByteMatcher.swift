#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds a byte pattern in a buffer, optionally folding ASCII case. The first byte is located with
/// `memchr` (forwards, exact) or 64-byte SIMD steps (folded), then the rest is compared.
struct ByteMatcher: Sendable {
    let pattern: [UInt8]
    /// Pattern bytes with ASCII letters lowered when folding.
    private let folded: [UInt8]
    private let foldsCase: Bool
    /// Whether the first byte is a letter that must be found in both cases.
    private let firstIsFoldedLetter: Bool

    init(_ query: BodySearchQuery) {
        pattern = Array(query.text.utf8)
        foldsCase = !query.isCaseSensitive
        folded = foldsCase ? pattern.map(ByteMatcher.lower) : pattern
        firstIsFoldedLetter = foldsCase && !pattern.isEmpty && ByteMatcher.isLetter(pattern[0])
    }

    var length: Int { pattern.count }

    @inline(__always) static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) &- UInt8(ascii: "a") < 26 }
    @inline(__always) static func lower(_ byte: UInt8) -> UInt8 { isLetter(byte) ? byte | 0x20 : byte }

    /// Whether the pattern occurs at `offset` (the caller checks the bounds).
    @inline(__always) func matches(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Bool {
        if foldsCase {
            for index in 1..<folded.count where ByteMatcher.lower(bytes[offset + index]) != folded[index] { return false }
        } else {
            for index in 1..<pattern.count where bytes[offset + index] != pattern[index] { return false }
        }
        return true
    }

    /// The first match starting in `from..<startLimit` that ends by `endLimit` (default: the buffer's end).
    func first(in bytes: UnsafeRawBufferPointer, from: Int, startLimit: Int, endLimit: Int? = nil) -> Int? {
        guard !pattern.isEmpty else { return nil }
        let endLimit = min(endLimit ?? bytes.count, bytes.count)
        let lastStart = min(startLimit, endLimit - pattern.count + 1)
        var cursor = max(0, from)
        while cursor < lastStart {
            guard let candidate = firstLeadByte(in: bytes, from: cursor, to: lastStart) else { return nil }
            if pattern.count == 1 || matches(bytes, at: candidate) { return candidate }
            cursor = candidate + 1
        }
        return nil
    }

    /// The last match starting in `lowerLimit..<before` that ends by the buffer's end.
    func last(in bytes: UnsafeRawBufferPointer, before: Int, lowerLimit: Int = 0) -> Int? {
        guard !pattern.isEmpty else { return nil }
        var upper = min(before, bytes.count - pattern.count + 1)
        let lower = max(0, lowerLimit)
        while upper > lower {
            guard let candidate = lastLeadByte(in: bytes, from: lower, to: upper) else { return nil }
            if pattern.count == 1 || matches(bytes, at: candidate) { return candidate }
            upper = candidate
        }
        return nil
    }

    private func firstLeadByte(in bytes: UnsafeRawBufferPointer, from: Int, to: Int) -> Int? {
        guard from < to, let base = bytes.baseAddress else { return nil }
        if !firstIsFoldedLetter {
            guard let found = memchr(base + from, Int32(pattern[0]), to - from) else { return nil }
            return base.distance(to: UnsafeRawPointer(found))
        }
        var cursor = from
        while cursor + 64 <= to, !blockHasLead(bytes, at: cursor, foldBit: 0x20) { cursor += 64 }
        while cursor < to {
            if bytes[cursor] | 0x20 == folded[0] { return cursor }
            cursor += 1
        }
        return nil
    }

    /// Whether the 64 bytes at `start` hold the first pattern byte (`foldBit` 0x20 folds case).
    @inline(__always) private func blockHasLead(_ bytes: UnsafeRawBufferPointer, at start: Int, foldBit: UInt8) -> Bool {
        let target = SIMD16<UInt8>(repeating: folded[0])
        let fold = SIMD16<UInt8>(repeating: foldBit)
        let a = bytes.loadUnaligned(fromByteOffset: start, as: SIMD16<UInt8>.self)
        let b = bytes.loadUnaligned(fromByteOffset: start + 16, as: SIMD16<UInt8>.self)
        let c = bytes.loadUnaligned(fromByteOffset: start + 32, as: SIMD16<UInt8>.self)
        let d = bytes.loadUnaligned(fromByteOffset: start + 48, as: SIMD16<UInt8>.self)
        return any(((a | fold) .== target) .| ((b | fold) .== target) .| ((c | fold) .== target) .| ((d | fold) .== target))
    }

    private func lastLeadByte(in bytes: UnsafeRawBufferPointer, from: Int, to: Int) -> Int? {
        guard from < to else { return nil }
        // No memrchr everywhere: 64-byte SIMD steps backwards, folding case only for a letter.
        let foldBit: UInt8 = firstIsFoldedLetter ? 0x20 : 0
        var cursor = to
        while cursor - 64 >= from, !blockHasLead(bytes, at: cursor - 64, foldBit: foldBit) { cursor -= 64 }
        while cursor > from {
            cursor -= 1
            if bytes[cursor] | foldBit == folded[0] { return cursor }
        }
        return nil
    }
}

/// Finds the matches the view shows. In a JSON view a match may not start in formatting whitespace
/// between tokens (the pretty view does not show the body's own indentation); that check only runs for
/// queries that start with whitespace.
struct BodyMatchFinder {
    let matcher: ByteMatcher
    let bytes: UnsafeRawBufferPointer
    private let json: JSONLineLayout?

    init(_ query: BodySearchQuery, document: BodyDocument, bytes: UnsafeRawBufferPointer) {
        matcher = ByteMatcher(query)
        self.bytes = bytes
        if case .json(let index) = document.storage, let first = matcher.pattern.first, Byte.isWhitespace(first) {
            json = JSONLineLayout(index: index, bytes: bytes)
        } else {
            json = nil
        }
    }

    var length: Int { matcher.length }

    /// The first shown match starting in `from..<startLimit` and ending by `endLimit`.
    func first(from: Int, startLimit: Int, endLimit: Int? = nil) -> Int? {
        var from = from
        while let match = matcher.first(in: bytes, from: from, startLimit: startLimit, endLimit: endLimit) {
            if json?.isHiddenWhitespace(match) != true { return match }
            from = match + 1
        }
        return nil
    }

    /// The last shown match starting in `lowerLimit..<before`.
    func last(before: Int, lowerLimit: Int = 0) -> Int? {
        var before = before
        while let match = matcher.last(in: bytes, before: before, lowerLimit: lowerLimit) {
            if json?.isHiddenWhitespace(match) != true { return match }
            before = match
        }
        return nil
    }
}
