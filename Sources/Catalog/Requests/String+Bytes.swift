extension StringProtocol {
    /// Whether `needle` occurs, compared byte by byte (Foundation's `contains` goes through
    /// NSString on Linux, which dominated catalog loading).
    func containsBytes(_ needle: String) -> Bool {
        // Native text (and its slices) is read in place; only text without contiguous UTF-8 is copied first.
        if let found = utf8.withContiguousStorageIfAvailable({ haystack in
            needle.utf8.withContiguousStorageIfAvailable { pattern in Self.search(haystack, for: pattern) }
        }), let found {
            return found
        }
        return Self.search(Array(utf8)[...], for: Array(needle.utf8)[...])
    }

    /// Whether `pattern` occurs in `haystack`.
    private static func search<Haystack: RandomAccessCollection<UInt8>, Pattern: RandomAccessCollection<UInt8>>(
        _ haystack: Haystack, for pattern: Pattern
    ) -> Bool where Haystack.Index == Int, Pattern.Index == Int {
        guard let first = pattern.first else { return true }
        guard haystack.count >= pattern.count else { return false }
        let lastStart = haystack.endIndex - pattern.count
        var index = haystack.startIndex
        while index <= lastStart {
            if haystack[index] == first {
                var matched = 1
                while matched < pattern.count, haystack[index + matched] == pattern[pattern.startIndex + matched] { matched += 1 }
                if matched == pattern.count { return true }
            }
            index += 1
        }
        return false
    }

    /// Whether the text holds `{{`, the start of a placeholder.
    var hasPlaceholderOpening: Bool { containsBytes("{{") }

    /// Whether the text is empty or only spaces and tabs.
    var isBlank: Bool { utf8.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") } }
}
