/// Where a person is in a body and how it is shown: a plain value the app's reducer owns. Every operation
/// takes the `BodyDocument` it applies to, is pure (same inputs, same result) and touches only a
/// screenful of lines plus O(log lines) index lookups, so it stays well inside a frame on a 100 MB body.
///
/// Fields may be set directly; operations re-establish the invariants they rely on (a visible cursor,
/// a top row that fills the viewport).
package struct BodyViewState: Sendable, Hashable {
    /// Rows available for the body.
    package var viewportHeight: Int
    /// Columns available for the body, gutter included.
    package var viewportWidth: Int
    /// The line on the first row.
    package var topLine = 0
    /// Which wrapped row of `topLine` is on the first row (0 when not wrapping).
    package var topRow = 0
    /// The line the cursor is on (always a visible line: never inside a fold).
    package var cursorLine = 0
    /// Whether long lines wrap instead of scrolling sideways.
    package var isWrapping: Bool
    /// Columns scrolled to the right when not wrapping.
    package var horizontalOffset = 0
    /// Whether the line-number gutter is shown.
    package var showsLineNumbers: Bool
    /// Which containers are folded.
    package var folds = BodyFoldSet()
    /// The active search, if any.
    package var search: BodySearchState?

    /// Makes a state at the top of a body.
    package init(viewportHeight: Int = 24, viewportWidth: Int = 80, isWrapping: Bool = false, showsLineNumbers: Bool = true) {
        self.viewportHeight = viewportHeight
        self.viewportWidth = viewportWidth
        self.isWrapping = isWrapping
        self.showsLineNumbers = showsLineNumbers
    }

    /// Columns taken by the line-number gutter (digits of the last line number and a space).
    package func gutterWidth(for document: BodyDocument) -> Int {
        showsLineNumbers ? String(max(1, document.lineCount)).count + 1 : 0
    }

    /// Columns left for text.
    package func textWidth(for document: BodyDocument) -> Int {
        max(1, viewportWidth - gutterWidth(for: document))
    }

    var height: Int { max(1, viewportHeight) }

    var top: RowPosition {
        get { RowPosition(line: topLine, row: topRow) }
        set {
            topLine = newValue.line
            topRow = newValue.row
        }
    }

    /// Runs `body` with a navigator for the current folds and wrapping.
    mutating func navigate<Result>(_ document: BodyDocument, _ body: (BodyNavigator, inout BodyViewState) -> Result)
        -> Result
    {
        document.withBytes { bytes in
            clampLines(document)
            let navigator = BodyNavigator(document: document, bytes: bytes, state: self)
            return body(navigator, &self)
        }
    }

    /// Keeps line numbers inside the document.
    private mutating func clampLines(_ document: BodyDocument) {
        let last = max(0, document.lineCount - 1)
        cursorLine = min(max(0, cursorLine), last)
        topLine = min(max(0, topLine), last)
        topRow = isWrapping ? max(0, topRow) : 0
        horizontalOffset = isWrapping ? 0 : max(0, horizontalOffset)
    }

    // MARK: Invariants

    /// Moves the cursor and the top out of folds, then scrolls so the cursor shows.
    mutating func settle(_ navigator: BodyNavigator) {
        cursorLine = navigator.visibleLine(for: cursorLine)
        let shownTop = navigator.visibleLine(for: topLine)
        if shownTop != topLine { top = RowPosition(line: shownTop, row: 0) }
        topRow = min(topRow, navigator.rowCount(topLine, cap: topRow + 1) - 1)
        revealCursor(navigator)
        clampTop(navigator)
    }

    /// Scrolls the least so that the cursor line shows (as much of it as fits when wrapping).
    mutating func revealCursor(_ navigator: BodyNavigator) {
        let cursorStart = RowPosition(line: cursorLine, row: 0)
        if cursorLine < topLine {
            top = cursorStart
            return
        }
        if cursorLine == topLine { return }
        if navigator.distance(from: top, to: cursorStart, cap: height - 1) != nil { return }
        let lastRow = RowPosition(line: cursorLine, row: navigator.rowCount(cursorLine, cap: height) - 1)
        top = min(navigator.retreat(lastRow, by: height - 1), cursorStart)
    }

    /// Shows row `row` of `line` (the cursor line), scrolling the least.
    mutating func reveal(row: Int, ofLine line: Int, _ navigator: BodyNavigator) {
        let target = RowPosition(line: line, row: row)
        if target < top {
            top = target
        } else if navigator.distance(from: top, to: target, cap: height - 1) == nil {
            top = navigator.retreat(target, by: height - 1)
        }
        clampTop(navigator)
    }

    /// Pulls the top up when fewer than a screenful of rows follow it.
    mutating func clampTop(_ navigator: BodyNavigator) {
        var position = top
        var rows = 0
        while rows < height {
            rows += navigator.rowCount(position.line, cap: position.row + height - rows + 1) - position.row
            guard let next = navigator.nextVisible(position.line) else { break }
            position = RowPosition(line: next, row: 0)
        }
        if rows < height { top = min(top, navigator.maximumTop(height: height)) }
    }

    /// Screen row of the cursor line's first row, negative when it is scrolled above, nil when below.
    func cursorScreenRow(_ navigator: BodyNavigator) -> Int? {
        if cursorLine == topLine { return -topRow }
        return navigator.distance(from: top, to: RowPosition(line: cursorLine, row: 0), cap: height - 1)
    }
}

/// A search in progress: the query, where it started and the match the cursor is on.
package struct BodySearchState: Sendable, Hashable {
    /// What is searched for.
    package var query: BodySearchQuery
    /// Byte offset the search started from; typing more of the query searches again from here.
    package var origin: Int
    /// The match the cursor is on, as body bytes.
    package var currentMatch: Range<Int>?
    /// Matches counted so far, as reported by `BodyDocument.matchCounts(for:)`.
    package var count: BodyMatchCount?

    /// Makes a search state.
    package init(query: BodySearchQuery, origin: Int, currentMatch: Range<Int>? = nil, count: BodyMatchCount? = nil) {
        self.query = query
        self.origin = origin
        self.currentMatch = currentMatch
        self.count = count
    }
}
