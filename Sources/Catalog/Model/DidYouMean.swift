/// Suggests the known word a misspelt one was probably meant to be.
package enum DidYouMean {
    /// The closest candidate within a small edit distance (case differences count little), or nil.
    /// Lengths and distances are counted in Unicode scalars.
    package static func suggestion(for word: String, among candidates: some Sequence<String>) -> String? {
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
                distance = editDistance(lowerBytes, candidateLower, limit: allowed)
            } else {
                let candidateLower = Array(candidate.lowercased().unicodeScalars)
                if candidateLower == lower { return candidate }
                distance = editDistance(lower, candidateLower, limit: allowed)
            }
            guard distance <= allowed else { continue }
            if let current = best, current.distance <= distance { continue }
            best = (candidate, distance)
        }
        return best?.candidate
    }

    /// `; did you mean 'x'?` or nothing.
    package static func hint(for word: String, among candidates: some Sequence<String>) -> String {
        suggestion(for: word, among: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }

    /// Damerau–Levenshtein distance (optimal string alignment) over Unicode scalars.
    static func editDistance(_ a: String, _ b: String) -> Int {
        editDistance(Array(a.unicodeScalars), Array(b.unicodeScalars))
    }

    /// The distance when it is at most `limit`, else some value above `limit`. Only the band of
    /// cells within `limit` of the diagonal is computed (no cheaper alignment leaves it), and the
    /// work stops once a whole row is past the limit: a catalog load asks this of every custom
    /// error kind against the ~20 built-in names, nearly all of them far apart.
    static func editDistance<Element: Equatable>(_ a: [Element], _ b: [Element], limit: Int) -> Int {
        guard abs(a.count - b.count) <= limit else { return limit + 1 }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        let outside = limit + 1
        var previousPrevious = [Int](repeating: outside, count: b.count + 1)
        var previous = [Int](repeating: outside, count: b.count + 1)
        var current = [Int](repeating: outside, count: b.count + 1)
        for j in 0...min(b.count, limit) { previous[j] = j }
        for i in 1...a.count {
            let low = max(1, i - limit), high = min(b.count, i + limit)
            // Cells left of the band count as past the limit; column 0 is i deletions.
            current[low - 1] = low == 1 ? min(i, outside) : outside
            var rowMinimum = current[low - 1]
            if low <= high {
                for j in low...high {
                    let cost = a[i - 1] == b[j - 1] ? 0 : 1
                    var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                    if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                        value = min(value, previousPrevious[j - 2] + 1)
                    }
                    value = min(value, outside)
                    current[j] = value
                    rowMinimum = min(rowMinimum, value)
                }
            }
            if high < b.count { current[high + 1] = outside }
            if rowMinimum > limit { return outside }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[b.count]
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
