extension StringProtocol {
    /// The text without leading and trailing whitespace (spaces, tabs and line breaks).
    package var trimmed: String { String(trimming(where: \.isWhitespace)) }

    /// The text without leading and trailing spaces and tabs (line breaks kept).
    package var trimmedSpaces: String { String(trimming { $0 == " " || $0 == "\t" }) }

    /// The text without leading and trailing characters that satisfy `predicate`.
    package func trimming(where predicate: (Character) -> Bool) -> SubSequence {
        guard let first = firstIndex(where: { !predicate($0) }) else { return self[endIndex...] }
        let last = lastIndex(where: { !predicate($0) }) ?? first
        return self[first...last]
    }

    /// The text without the trailing characters that satisfy `predicate`.
    package func trimmingSuffix(where predicate: (Character) -> Bool) -> SubSequence {
        guard let last = lastIndex(where: { !predicate($0) }) else { return self[startIndex..<startIndex] }
        return self[...last]
    }
}
