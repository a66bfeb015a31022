/// A scrolling list of lines with one highlighted selection.
///
/// Rows are asked for only when they are on screen, so a list of 10,000 endpoints costs what the
/// 30 rows shown cost (`init(count:item:)`).
package struct ListView: StatefulWidget, Sendable {
    /// How many rows the list has.
    package var itemCount: Int
    /// The row at an index; called for the rows on screen only.
    package var item: @Sendable (Int) -> Line
    /// An optional border around the list.
    package var block: Block?
    /// Style laid over the selected row, across the full width.
    package var highlightStyle: Style
    /// Drawn before the selected row (other rows get as many spaces), e.g. "▶ "; nil for none.
    package var highlightSymbol: String?
    /// Draws a scrollbar in the rightmost column when the items do not fit.
    package var showsScrollbar: Bool
    /// Shown, dimmed, when there are no items.
    package var placeholder: Line?

    /// Creates a list of lines made beforehand.
    package init(
        _ items: [Line], block: Block? = nil, highlightStyle: Style = Style(modifiers: .reverse),
        highlightSymbol: String? = nil, showsScrollbar: Bool = false, placeholder: Line? = nil
    ) {
        self.init(
            count: items.count, block: block, highlightStyle: highlightStyle, highlightSymbol: highlightSymbol,
            showsScrollbar: showsScrollbar, placeholder: placeholder, item: { items[$0] })
    }

    /// Creates a list of `count` rows, each made by `item` when it is drawn.
    package init(
        count: Int, block: Block? = nil, highlightStyle: Style = Style(modifiers: .reverse),
        highlightSymbol: String? = nil, showsScrollbar: Bool = false, placeholder: Line? = nil,
        item: @escaping @Sendable (Int) -> Line
    ) {
        itemCount = count
        self.item = item
        self.block = block
        self.highlightStyle = highlightStyle
        self.highlightSymbol = highlightSymbol
        self.showsScrollbar = showsScrollbar
        self.placeholder = placeholder
    }

    /// Draws the visible rows and stores the offset actually used back into `state`.
    package func render(into buffer: inout Buffer, area: Rect, state: inout ListState) {
        var area = area
        if let block {
            block.render(into: &buffer, area: area)
            area = block.inner(area)
        }
        guard !area.isEmpty else { return }
        if itemCount == 0 {
            if let placeholder { buffer.write(placeholder.styled(Style(modifiers: .dim)), in: area.row(0)) }
            return
        }
        state.scrollToSelection(viewportHeight: area.height, itemCount: itemCount)
        let scrollbar = Scrollbar(contentLength: itemCount, viewportLength: area.height, position: state.offset)
        var rows = area
        if showsScrollbar && scrollbar.isNeeded && area.width > 1 {
            rows.width -= 1
            scrollbar.render(into: &buffer, area: Rect(x: rows.right, y: area.y, width: 1, height: area.height))
        }
        let symbolWidth = highlightSymbol?.displayWidth ?? 0
        for row in 0..<rows.height {
            let index = state.offset + row
            guard index < itemCount else { break }
            let line = rows.row(row)
            let isSelected = index == state.selected
            var used = 0
            if let highlightSymbol {
                used = buffer.write(
                    isSelected ? highlightSymbol : String(repeating: " ", count: symbolWidth),
                    at: line.origin, maxWidth: line.width
                )
            }
            buffer.write(item(index).truncated(toWidth: line.width - used), at: Position(x: line.x + used, y: line.y), maxWidth: line.width - used)
            if isSelected { buffer.setStyle(highlightStyle, in: line) }
        }
    }

    /// Draws without keeping the corrected offset (it is recomputed the same way every frame).
    package func render(into buffer: inout Buffer, area: Rect, state: ListState) {
        var copy = state
        render(into: &buffer, area: area, state: &copy)
    }
}
