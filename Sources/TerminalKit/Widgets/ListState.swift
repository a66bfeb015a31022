/// Selection and scroll position of a `ListView`, owned by the app state.
package struct ListState: Hashable, Sendable {
    /// The selected row, or nil when nothing is selected.
    package var selected: Int?
    /// The first row shown.
    package var offset: Int

    /// Creates a state.
    package init(selected: Int? = nil, offset: Int = 0) {
        self.selected = selected
        self.offset = max(0, offset)
    }

    /// Selects a row, clamped to the list; nil or an empty list clears the selection.
    package mutating func select(_ index: Int?, itemCount: Int) {
        guard let index, itemCount > 0 else { selected = nil; return }
        selected = min(max(0, index), itemCount - 1)
    }

    /// Moves the selection down by `step` rows (selects the first row when nothing was selected).
    package mutating func selectNext(itemCount: Int, step: Int = 1, wraps: Bool = false) {
        guard itemCount > 0 else { selected = nil; return }
        guard let current = selected else { selected = 0; return }
        if wraps && current + step >= itemCount { selected = 0; return }
        select(current + step, itemCount: itemCount)
    }

    /// Moves the selection up by `step` rows (selects the last row when nothing was selected).
    package mutating func selectPrevious(itemCount: Int, step: Int = 1, wraps: Bool = false) {
        guard itemCount > 0 else { selected = nil; return }
        guard let current = selected else { selected = itemCount - 1; return }
        if wraps && current - step < 0 { selected = itemCount - 1; return }
        select(current - step, itemCount: itemCount)
    }

    /// Selects the first row.
    package mutating func selectFirst(itemCount: Int) { select(0, itemCount: itemCount) }

    /// Selects the last row.
    package mutating func selectLast(itemCount: Int) { select(itemCount - 1, itemCount: itemCount) }

    /// Moves one page down, keeping the selection on the same screen row where possible.
    package mutating func pageDown(itemCount: Int, pageHeight: Int) {
        let page = max(1, pageHeight)
        offset = min(offset + page, max(0, itemCount - page))
        selectNext(itemCount: itemCount, step: page)
        scrollToSelection(viewportHeight: page, itemCount: itemCount)
    }

    /// Moves one page up, keeping the selection on the same screen row where possible.
    package mutating func pageUp(itemCount: Int, pageHeight: Int) {
        let page = max(1, pageHeight)
        offset = max(0, offset - page)
        selectPrevious(itemCount: itemCount, step: page)
        scrollToSelection(viewportHeight: page, itemCount: itemCount)
    }

    /// Adjusts `offset` as little as possible so the selection is visible and no blank space
    /// shows below the last row.
    package mutating func scrollToSelection(viewportHeight: Int, itemCount: Int) {
        offset = visibleOffset(viewportHeight: viewportHeight, itemCount: itemCount)
    }

    /// The offset a viewport of this height should use: the stored one, moved just enough.
    package func visibleOffset(viewportHeight: Int, itemCount: Int) -> Int {
        guard viewportHeight > 0, itemCount > 0 else { return 0 }
        var result = min(offset, max(0, itemCount - viewportHeight))
        if let selected = selected.map({ min(max(0, $0), itemCount - 1) }) {
            if selected < result { result = selected }
            if selected >= result + viewportHeight { result = selected - viewportHeight + 1 }
        }
        return max(0, result)
    }
}
