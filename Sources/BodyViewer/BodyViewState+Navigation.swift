extension BodyViewState {
    /// Moves the cursor down `count` lines. When wrapping and the cursor line runs past the bottom, the view
    /// scrolls by a row instead, so every row of a long line can be read.
    package mutating func moveDown(_ count: Int = 1, in document: BodyDocument) {
        navigate(document) { navigator, state in
            for _ in 0..<max(0, count) {
                if state.isWrapping, let row = state.cursorScreenRow(navigator),
                    row + navigator.rowCount(state.cursorLine, cap: state.height - row + 1) > state.height
                {
                    state.top = navigator.advance(state.top, by: 1)
                    continue
                }
                guard let next = navigator.nextVisible(state.cursorLine) else { break }
                state.cursorLine = next
            }
            state.revealCursor(navigator)
        }
    }

    /// Moves the cursor up `count` lines (scrolling a row at a time through a long wrapped line first).
    package mutating func moveUp(_ count: Int = 1, in document: BodyDocument) {
        navigate(document) { navigator, state in
            for _ in 0..<max(0, count) {
                if state.isWrapping, state.topLine == state.cursorLine, state.topRow > 0 {
                    state.topRow -= 1
                    continue
                }
                guard let previous = navigator.previousVisible(state.cursorLine) else { break }
                state.cursorLine = previous
            }
            state.revealCursor(navigator)
        }
    }

    /// Scrolls a screenful down, the cursor with it.
    package mutating func pageDown(in document: BodyDocument) {
        navigate(document) { navigator, state in
            state.cursorLine = navigator.advance(RowPosition(line: state.cursorLine, row: 0), by: state.height).line
            state.top = navigator.advance(state.top, by: state.height)
            state.clampTop(navigator)
            state.revealCursor(navigator)
        }
    }

    /// Scrolls a screenful up, the cursor with it.
    package mutating func pageUp(in document: BodyDocument) {
        navigate(document) { navigator, state in
            state.cursorLine = navigator.retreat(RowPosition(line: state.cursorLine, row: 0), by: state.height).line
            state.top = navigator.retreat(state.top, by: state.height)
            state.revealCursor(navigator)
        }
    }

    /// Goes to the first line.
    package mutating func moveToTop(in document: BodyDocument) {
        cursorLine = 0
        topLine = 0
        topRow = 0
    }

    /// Goes to the last line: O(screen height × depth), however long the body.
    package mutating func moveToEnd(in document: BodyDocument) {
        navigate(document) { navigator, state in
            state.cursorLine = navigator.lastVisibleLine
            state.top = navigator.maximumTop(height: state.height)
        }
    }

    /// Scrolls the view by `rows` (negative: up) without moving the cursor unless it would leave the view.
    package mutating func scroll(by rows: Int, in document: BodyDocument) {
        navigate(document) { navigator, state in
            if rows > 0 {
                state.top = navigator.advance(state.top, by: rows)
                state.clampTop(navigator)
            } else {
                state.top = navigator.retreat(state.top, by: -rows)
            }
            if state.cursorLine < state.topLine {
                state.cursorLine = state.topLine
            } else if state.cursorScreenRow(navigator) == nil {
                state.cursorLine = navigator.advance(state.top, by: state.height - 1).line
            }
        }
    }

    /// Puts the cursor on `line` (or the fold that hides it) and scrolls to it.
    package mutating func moveCursor(toLine line: Int, in document: BodyDocument) {
        cursorLine = line
        navigate(document) { navigator, state in state.settle(navigator) }
    }

    /// Turns wrapping on or off.
    package mutating func toggleWrap(in document: BodyDocument) {
        isWrapping.toggle()
        topRow = 0
        horizontalOffset = 0
        navigate(document) { navigator, state in state.settle(navigator) }
    }

    /// Shows or hides the line-number gutter.
    package mutating func toggleLineNumbers(in document: BodyDocument) {
        showsLineNumbers.toggle()
        navigate(document) { navigator, state in state.settle(navigator) }
    }

    /// Scrolls sideways by `columns` (negative: left) when not wrapping, no further than the widest line
    /// on screen allows.
    package mutating func scrollHorizontally(by columns: Int, in document: BodyDocument) {
        guard !isWrapping else { return }
        let requested = max(0, horizontalOffset + columns)
        guard columns > 0 else {
            horizontalOffset = requested
            return
        }
        navigate(document) { navigator, state in
            let textWidth = navigator.textWidth
            var widest = 0
            var line: Int? = state.topLine
            for _ in 0..<state.height {
                guard let current = line else { break }
                var cursor = navigator.cursor(for: current)
                widest = max(widest, cursor.skip(requested + textWidth, mode: .skip))
                line = navigator.nextVisible(current)
            }
            state.horizontalOffset = max(state.horizontalOffset, min(requested, widest - textWidth))
        }
    }

    /// Adapts to a new viewport size.
    package mutating func resize(height: Int, width: Int, in document: BodyDocument) {
        viewportHeight = height
        viewportWidth = width
        navigate(document) { navigator, state in state.settle(navigator) }
    }
}
