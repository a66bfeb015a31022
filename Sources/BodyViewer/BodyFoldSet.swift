/// Which JSON containers are folded, as a baseline plus exceptions: folding everything, unfolding
/// everything and folding to a depth are O(1) however many containers the body has, and asking whether a
/// container is folded is one set lookup.
package struct BodyFoldSet: Sendable, Hashable {
    /// Containers at this depth or deeper are folded unless toggled; nil folds nothing by default.
    /// The root is at depth 0.
    package private(set) var foldedFromDepth: Int?
    /// Open lines of containers whose state is the opposite of the baseline.
    package private(set) var exceptions: Set<Int>

    /// Nothing folded.
    package init() {
        foldedFromDepth = nil
        exceptions = []
    }

    /// Everything at `depth` or deeper folded.
    package init(foldedFromDepth depth: Int) {
        foldedFromDepth = max(0, depth)
        exceptions = []
    }

    /// Whether the container opened at `line`, at `depth`, is folded.
    @inline(__always) package func isFolded(line: Int, depth: Int) -> Bool {
        let baseline = foldedFromDepth.map { depth >= $0 } ?? false
        return exceptions.isEmpty ? baseline : baseline != exceptions.contains(line)
    }

    /// Folds or unfolds the container opened at `line`.
    package mutating func set(_ folded: Bool, line: Int, depth: Int) {
        let baseline = foldedFromDepth.map { depth >= $0 } ?? false
        if folded == baseline { exceptions.remove(line) } else { exceptions.insert(line) }
    }

    /// Whether anything at all may be folded.
    package var isEmpty: Bool { foldedFromDepth == nil && exceptions.isEmpty }
}
