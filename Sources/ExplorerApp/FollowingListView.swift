import TerminalKit

/// A list that grows while it is shown (events of a stream, frames of a WebSocket): the rows up to
/// the selected item and, when there is room, that item in full below a rule. Only the visible rows
/// are formatted.
enum FollowingListView {
    /// Draws `count` items in `area`: `rows` formats the visible range, `detail` the selected item.
    static func render(
        count: Int, selected: Int, highlighted: Bool, area: Rect, into buffer: inout Buffer, rows: (Range<Int>) -> [Line], detail: () -> [Line]
    ) {
        let detailLines = area.height >= 8 ? detail() : []
        // The list keeps at least half the rows; the item in full gets what it needs of the rest.
        let detailHeight = detailLines.isEmpty ? 0 : min(detailLines.count + 1, area.height / 2)
        let listHeight = area.height - detailHeight
        let top = max(0, selected - listHeight + 1)
        let visible = top..<min(count, top + listHeight)
        for (row, line) in zip(visible, rows(visible)) {
            let rowArea = area.row(row - top)
            if row == selected, highlighted { buffer.setStyle(Theme.bodyCursorLine, in: rowArea) }
            buffer.write(line.truncated(toWidth: rowArea.width), in: rowArea)
        }
        guard detailHeight > 0 else { return }
        let detailArea = area.inset(top: listHeight)
        buffer.write(Line(String(repeating: "─", count: detailArea.width), style: Theme.border), in: detailArea.row(0))
        for (row, line) in detailLines.prefix(detailHeight - 1).enumerated() {
            buffer.write(line.truncated(toWidth: detailArea.width), in: detailArea.row(row + 1))
        }
    }
}
