extension BodyViewState {
    /// Folds the container the cursor is on (the one it opens or closes, else the one it is in); on a line
    /// that is already folded, folds the enclosing container, so repeating climbs outwards.
    package mutating func foldAtCursor(in document: BodyDocument) {
        guard case .json(let index) = document.storage, cursorLine < index.lineCount else { return }
        guard var container = index.container(at: cursorLine) else { return }
        let open = index.openLine(of: container)
        if open == cursorLine, folds.isFolded(line: open, depth: index.depth(ofLine: open)) {
            guard let parent = index.parent(of: container) else { return }
            container = parent
        }
        setFolded(true, container: container, index: index, document: document)
    }

    /// Unfolds the folded container on the cursor line (its children keep their own folds).
    package mutating func unfoldAtCursor(in document: BodyDocument) {
        guard case .json(let index) = document.storage, cursorLine < index.lineCount,
            let container = index.container(openedAt: cursorLine)
        else { return }
        setFolded(false, container: container, index: index, document: document)
    }

    /// Unfolds the line at the cursor if it is folded, else folds the container the cursor is on.
    package mutating func toggleFoldAtCursor(in document: BodyDocument) {
        guard case .json(let index) = document.storage, cursorLine < index.lineCount,
            let container = index.container(at: cursorLine)
        else { return }
        let open = index.openLine(of: container)
        let isFolded = open == cursorLine && folds.isFolded(line: open, depth: index.depth(ofLine: open))
        setFolded(!isFolded, container: container, index: index, document: document)
    }

    /// Folds every container below the top level, so each top-level member or element shows as one line. O(1).
    package mutating func foldAll(in document: BodyDocument) {
        fold(toDepth: 1, in: document)
    }

    /// Folds every container at `depth` or deeper (0 folds the root itself). O(1).
    package mutating func fold(toDepth depth: Int, in document: BodyDocument) {
        guard document.isFoldable else { return }
        folds = BodyFoldSet(foldedFromDepth: depth)
        navigate(document) { navigator, state in state.settle(navigator) }
    }

    /// Unfolds everything. O(1).
    package mutating func unfoldAll(in document: BodyDocument) {
        folds = BodyFoldSet()
        navigate(document) { navigator, state in state.settle(navigator) }
    }

    /// Jumps between a container's opening and closing bracket (unfolding it when folded).
    package mutating func jumpToMatchingBracket(in document: BodyDocument) {
        guard case .json(let index) = document.storage, cursorLine < index.lineCount else { return }
        if let container = index.container(openedAt: cursorLine), let close = index.closeLine(of: container) {
            folds.set(false, line: cursorLine, depth: index.depth(ofLine: cursorLine))
            cursorLine = close
        } else if index.kind(ofLine: cursorLine) == .close, let container = index.enclosingContainer(ofLine: cursorLine) {
            cursorLine = index.openLine(of: container)
        } else {
            return
        }
        navigate(document) { navigator, state in state.settle(navigator) }
    }

    /// Moves the cursor to the opening line of the container around it.
    package mutating func moveToParent(in document: BodyDocument) {
        guard case .json(let index) = document.storage, cursorLine < index.lineCount,
            var container = index.enclosingContainer(ofLine: cursorLine)
        else { return }
        if index.closeLine(of: container) == cursorLine {
            guard let parent = index.parent(of: container) else { return }
            container = parent
        }
        cursorLine = index.openLine(of: container)
        navigate(document) { navigator, state in state.settle(navigator) }
    }

    /// Whether the container opened at `line` is shown folded.
    package func isFolded(line: Int, in document: BodyDocument) -> Bool {
        guard case .json(let index) = document.storage, line >= 0, line < index.lineCount,
            let container = index.container(openedAt: line), index.closeLine(of: container) != nil
        else { return false }
        return folds.isFolded(line: line, depth: index.depth(ofLine: line))
    }

    private mutating func setFolded(_ folded: Bool, container: Int, index: JSONLineIndex, document: BodyDocument) {
        // A preview's unclosed containers cannot fold: their end is not known yet.
        guard index.closeLine(of: container) != nil else { return }
        let open = index.openLine(of: container)
        folds.set(folded, line: open, depth: index.depth(ofLine: open))
        if folded { cursorLine = open }
        navigate(document) { navigator, state in state.settle(navigator) }
    }
}
