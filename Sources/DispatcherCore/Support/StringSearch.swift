/// Substring search on UTF-8 bytes. Foundation's `contains`/`range(of:)` go through NSString on
/// Linux and cost microseconds per call; these run on the hot path of every request.
extension StringProtocol {
    /// Whether `needle` occurs in the text (exact bytes).
    package func utf8Contains(_ needle: some StringProtocol) -> Bool {
        utf8FirstOffset(of: needle) != nil
    }

    /// The UTF-8 offset of the first occurrence of `needle`, if any.
    package func utf8FirstOffset(of needle: some StringProtocol, from start: Int = 0) -> Int? {
        var found: Int??
        _ = utf8.withContiguousStorageIfAvailable { haystack in
            needle.utf8.withContiguousStorageIfAvailable { pattern in
                found = .some(UTF8Search.firstOffset(of: pattern, in: haystack, from: start))
            }
        }
        if let found { return found }
        return UTF8Search.firstOffset(of: Array(needle.utf8)[...], in: Array(utf8)[...], from: start)
    }

    /// Whether `lowercaseNeedle` (already lowercase) occurs in the text, ignoring ASCII case.
    func utf8ContainsIgnoringASCIICase(_ lowercaseNeedle: String) -> Bool {
        // Both sides are read in place (native strings are contiguous): no array per call, as this
        // runs for every fragment against every logged header name.
        var haystackText = String(self)
        var needleText = lowercaseNeedle
        haystackText.makeContiguousUTF8()
        needleText.makeContiguousUTF8()
        return haystackText.utf8.withContiguousStorageIfAvailable { haystack in
            needleText.utf8.withContiguousStorageIfAvailable { needle in
                UTF8Search.containsIgnoringASCIICase(haystack, lowercaseNeedle: needle)
            } ?? false
        } ?? false
    }

    /// The text with ASCII letters lowercased (header and query names are ASCII).
    var asciiLowercased: String {
        if !utf8.contains(where: { $0 >= 65 && $0 <= 90 }) { return String(self) }
        return String(decoding: utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }, as: UTF8.self)
    }
}

extension String {
    /// Replaces every occurrence of `target` (exact bytes) with `replacement`.
    func utf8Replacing(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty, utf8Contains(target) else { return self }
        let bytes = Array(utf8)
        let pattern = Array(target.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if index + pattern.count <= bytes.count, bytes[index] == pattern[0],
                bytes[index..<index + pattern.count].elementsEqual(pattern)
            {
                output.append(contentsOf: replacement.utf8)
                index += pattern.count
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}

/// Naive byte search: needles here are short header names and placeholders.
package enum UTF8Search {
    @inline(__always) static func lower(_ byte: UInt8) -> UInt8 { byte >= 65 && byte <= 90 ? byte + 32 : byte }

    package static func firstOffset<Haystack: RandomAccessCollection<UInt8>, Pattern: RandomAccessCollection<UInt8>>(
        of pattern: Pattern, in haystack: Haystack, from start: Int
    ) -> Int? where Haystack.Index == Int, Pattern.Index == Int {
        guard let first = pattern.first else { return start }
        let count = pattern.count
        guard haystack.count >= count else { return nil }
        let base = haystack.startIndex
        let patternBase = pattern.startIndex
        var index = start
        let last = haystack.count - count
        while index <= last {
            if haystack[base + index] == first {
                var offset = 1
                while offset < count, haystack[base + index + offset] == pattern[patternBase + offset] { offset += 1 }
                if offset == count { return index }
            }
            index += 1
        }
        return nil
    }
}

extension UTF8Search {
    /// Whether `haystack` contains `needle` (already lowercase), ASCII letters compared without case.
    static func containsIgnoringASCIICase(_ haystack: UnsafeBufferPointer<UInt8>, lowercaseNeedle needle: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = needle.first else { return true }
        guard haystack.count >= needle.count else { return false }
        for start in 0...(haystack.count - needle.count) where lower(haystack[start]) == first {
            var offset = 1
            while offset < needle.count, lower(haystack[start + offset]) == needle[offset] { offset += 1 }
            if offset == needle.count { return true }
        }
        return false
    }
}
