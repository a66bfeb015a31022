/// Suggests the known word a misspelt one was probably meant to be.
public enum DidYouMean {
    /// The closest candidate within a small edit distance (case differences count little), or nil.
    /// Lengths and distances are counted in Unicode scalars.
    public static func suggestion(for word: String, among candidates: some Sequence<String>) -> String? {
        let lower = Array(word.lowercased().unicodeScalars)
        // ASCII words (nearly all) are compared byte by byte: a catalog load asks this of every
        // custom error kind's name.
        let lowerBytes = lower.allSatisfy(\.isASCII) ? lower.map { UInt8($0.value) } : nil
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let length = candidate.unicodeScalars.count
            let allowed = max(1, min(3, length / 3))
            // The distance is at least the difference in length: most candidates stop here, before
            // anything is lowercased.
            guard abs(length - lower.count) <= allowed else { continue }
            let distance: Int
            if let lowerBytes, candidate.utf8.allSatisfy({ $0 < 0x80 }) {
                let candidateLower = candidate.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
                if candidateLower == lowerBytes { return candidate }
                distance = editDistance(lowerBytes, candidateLower)
            } else {
                let candidateLower = Array(candidate.lowercased().unicodeScalars)
                if candidateLower == lower { return candidate }
                distance = editDistance(lower, candidateLower)
            }
            guard distance <= allowed else { continue }
            if let current = best, current.distance <= distance { continue }
            best = (candidate, distance)
        }
        return best?.candidate
    }

    /// `; did you mean 'x'?` or nothing.
    public static func hint(for word: String, among candidates: some Sequence<String>) -> String {
        suggestion(for: word, among: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }

    /// Damerau–Levenshtein distance (optimal string alignment) over Unicode scalars.
    static func editDistance(_ a: String, _ b: String) -> Int {
        editDistance(Array(a.unicodeScalars), Array(b.unicodeScalars))
    }

    private static func editDistance<Element: Equatable>(_ a: [Element], _ b: [Element]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previousPrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, previousPrevious[j - 2] + 1)
                }
                current[j] = value
            }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[b.count]
    }
}
