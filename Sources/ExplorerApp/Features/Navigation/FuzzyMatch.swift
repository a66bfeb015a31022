/// How well a query matches a text, the way fuzzy finders rank (fzf, VS Code's quick open): the
/// whole text, then its start, then the starts of its words, then any subsequence. Case is ignored.
package struct FuzzyMatch: Sendable, Hashable, Comparable {
    /// The kinds of match, weakest first.
    package enum Kind: Int, Sendable, Hashable, Comparable {
        /// Every character of the query appears in order (`gpt` in `GET /pet`).
        case subsequence
        /// The query starts a word of the text (`chat` in `/v1/chat/completions`), or its
        /// characters start successive words (`gur` in `getUserRepos`).
        case wordStart
        /// The text starts with the query.
        case prefix
        /// The text is the query.
        case exact

        package static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The kind of match.
    package var kind: Kind
    /// Within a kind, higher is better: fewer gaps between matched characters, earlier in the text.
    package var score: Int
    /// The matched characters' offsets in the text's UTF-8 bytes, ascending (for highlighting).
    package var positions: [Int]

    package static func < (lhs: FuzzyMatch, rhs: FuzzyMatch) -> Bool {
        (lhs.kind, lhs.score) < (rhs.kind, rhs.score)
    }

    /// How `query` matches `text`; nil when some character of the query is not in it in order.
    /// Spaces in the query are ignored here (`FuzzyQuery` splits terms).
    package static func match(_ query: String, in text: String) -> FuzzyMatch? {
        match(Array(lowered(query).filter { $0 != 32 }), in: text)
    }

    /// `query`: ASCII-lowercased UTF-8 without spaces. The text's bytes are read in place (no copy:
    /// the finder matches 10,000 endpoints' parts a key).
    package static func match(_ query: [UInt8], in text: String) -> FuzzyMatch? {
        var text = text
        return text.withUTF8 { match(query, in: $0) }
    }

    /// As `match(_:in:)` on a text's UTF-8.
    package static func match(_ query: [UInt8], in text: [UInt8]) -> FuzzyMatch? {
        text.withUnsafeBufferPointer { match(query, in: $0) }
    }

    /// Whether every character of `query` appears in `text` in order.
    package static func matches(_ query: String, in text: String) -> Bool {
        match(query, in: text) != nil
    }

    /// `query`: ASCII-lowercased UTF-8 without spaces; `text`: the text's UTF-8, as is.
    static func match(_ query: [UInt8], in text: UnsafeBufferPointer<UInt8>) -> FuzzyMatch? {
        guard !query.isEmpty else { return FuzzyMatch(kind: .subsequence, score: 0, positions: []) }
        guard query.count <= text.count else { return nil }
        // Most texts do not hold the query at all: one pass says so before the better kinds are tried.
        var textIndex = 0
        var firstPosition = -1
        var lastPosition = 0
        for character in query {
            while textIndex < text.count, lower(text[textIndex]) != character { textIndex += 1 }
            guard textIndex < text.count else { return nil }
            if firstPosition < 0 { firstPosition = textIndex }
            lastPosition = textIndex
            textIndex += 1
        }
        // Case-blind equality, start and word starts next: they decide most ranks.
        var prefix = true
        for index in query.indices where lower(text[index]) != query[index] {
            prefix = false
            break
        }
        if prefix {
            let positions = Array(0..<query.count)
            if query.count == text.count { return FuzzyMatch(kind: .exact, score: 0, positions: positions) }
            return FuzzyMatch(kind: .prefix, score: -text.count, positions: positions)
        }
        var start = 1
        while start + query.count <= text.count {
            if lower(text[start]) == query[0], isWordStart(text, start) {
                var same = true
                for offset in 1..<query.count where lower(text[start + offset]) != query[offset] {
                    same = false
                    break
                }
                if same { return FuzzyMatch(kind: .wordStart, score: 1000 - start, positions: Array(start..<start + query.count)) }
            }
            start += 1
        }
        // Successive word starts (an acronym).
        var acronym: [Int] = []
        var next = 0
        for index in text.indices where next < query.count && lower(text[index]) == query[next] && isWordStart(text, index) {
            acronym.append(index)
            next += 1
        }
        if next == query.count { return FuzzyMatch(kind: .wordStart, score: -acronym.last!, positions: acronym) }
        // A subsequence: the first occurrence of its first character, then greedy (the pass above);
        // a contiguous run scores best.
        var positions: [Int] = []
        positions.reserveCapacity(query.count)
        textIndex = firstPosition
        for character in query {
            while lower(text[textIndex]) != character { textIndex += 1 }
            positions.append(textIndex)
            textIndex += 1
        }
        let gaps = lastPosition - firstPosition + 1 - query.count
        return FuzzyMatch(kind: .subsequence, score: -gaps * 10 - firstPosition, positions: positions)
    }

    /// ASCII-lowercased UTF-8.
    package static func lowered(_ text: String) -> [UInt8] { text.utf8.map(lower) }

    @inline(__always) static func lower(_ byte: UInt8) -> UInt8 {
        byte >= 65 && byte <= 90 ? byte + 32 : byte
    }

    /// Whether a word starts at `index`: after a character that is not a letter or digit, at a
    /// lower-to-upper case change (`getUser`), or where letters and digits meet.
    @inline(__always) static func isWordStart(_ text: UnsafeBufferPointer<UInt8>, _ index: Int) -> Bool {
        guard index > 0 else { return true }
        let previous = text[index - 1]
        let current = text[index]
        let previousIsLetter = isLetter(previous)
        let previousIsDigit = previous >= 48 && previous <= 57
        let currentIsDigit = current >= 48 && current <= 57
        if !previousIsLetter && !previousIsDigit { return isLetter(current) || currentIsDigit }
        if previous >= 97 && previous <= 122 && current >= 65 && current <= 90 { return true }
        return previousIsDigit != currentIsDigit && (isLetter(current) || currentIsDigit)
    }

    @inline(__always) static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || byte >= 128
    }
}
