extension StringProtocol {
    /// Whether `needle` occurs, compared byte by byte (Foundation's `contains` goes through
    /// NSString on Linux, which dominated catalog loading).
    func containsBytes(_ needle: String) -> Bool {
        let haystack = utf8
        let pattern = Array(needle.utf8)
        guard let first = pattern.first else { return true }
        guard haystack.count >= pattern.count else { return false }
        var index = haystack.startIndex
        while let start = haystack[index...].firstIndex(of: first) {
            var candidate = start
            var matched = 0
            while matched < pattern.count, candidate != haystack.endIndex, haystack[candidate] == pattern[matched] {
                matched += 1
                candidate = haystack.index(after: candidate)
            }
            if matched == pattern.count { return true }
            index = haystack.index(after: start)
        }
        return false
    }

    /// Whether the text holds `{{`, the start of a placeholder.
    var hasPlaceholderOpening: Bool { containsBytes("{{") }

    /// Whether the text is empty or only spaces and tabs.
    var isBlank: Bool { utf8.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") } }
}
