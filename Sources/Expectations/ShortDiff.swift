/// A line diff of two short texts (`- expected`, `+ actual`, `  same`), cut to a few lines around
/// the changes: enough to see what differs in a failure message.
enum ShortDiff {
    /// Most lines of either side compared; longer texts are compared by their first lines.
    static let lineLimit = 400
    /// Most lines shown.
    static let shownLimit = 16

    static func lines(expected: String, actual: String) -> [String] {
        let old = Array(expected.split(separator: "\n", omittingEmptySubsequences: false).prefix(lineLimit))
        let new = Array(actual.split(separator: "\n", omittingEmptySubsequences: false).prefix(lineLimit))
        // The longest common subsequence, by dynamic programming (at most 400 × 400 cells).
        var table = Array(repeating: Array(repeating: 0, count: new.count + 1), count: old.count + 1)
        for i in stride(from: old.count - 1, through: 0, by: -1) {
            for j in stride(from: new.count - 1, through: 0, by: -1) {
                table[i][j] = old[i] == new[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        var script: [(mark: Character, line: Substring)] = []
        var i = 0, j = 0
        while i < old.count || j < new.count {
            if i < old.count, j < new.count, old[i] == new[j] {
                script.append((" ", old[i])); i += 1; j += 1
            } else if i < old.count, j == new.count || table[i + 1][j] >= table[i][j + 1] {
                script.append(("-", old[i])); i += 1
            } else {
                script.append(("+", new[j])); j += 1
            }
        }
        // Keep changed lines and one line of context around each.
        let changed = script.indices.filter { script[$0].mark != " " }
        var keep = Set<Int>()
        for index in changed {
            for near in max(0, index - 1)...min(script.count - 1, index + 1) { keep.insert(near) }
        }
        var shown: [String] = []
        var previous = -1
        for index in keep.sorted() {
            if previous >= 0, index > previous + 1 { shown.append("  …") }
            shown.append("\(script[index].mark) \(script[index].line)")
            previous = index
            if shown.count >= shownLimit {
                shown.append("  … (more differences)")
                break
            }
        }
        return shown
    }
}
