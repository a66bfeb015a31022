import TerminalKit

/// Where each pane sits for a terminal size. The views draw into these areas and the reducer uses
/// them to tell which pane a mouse click landed in.
package struct AppLayout: Sendable, Hashable {
    /// Smallest size the full layout is drawn at; below it the app says the terminal is too small.
    package static let minimumSize = Size(width: 60, height: 12)

    /// The environments pane (border included).
    package var environments: Rect
    /// The endpoints pane (border included).
    package var endpoints: Rect
    /// The response pane (border included).
    package var response: Rect
    /// The status bar row.
    package var statusBar: Rect
    /// Whether the terminal is big enough for the panes.
    package var fits: Bool

    /// Lays out a terminal of `size`; `environmentRowCount` sizes the environments pane to its content.
    package init(size: Size, environmentRowCount: Int) {
        let screen = Rect(size: size)
        fits = size.width >= AppLayout.minimumSize.width && size.height >= AppLayout.minimumSize.height
        guard fits else {
            environments = .zero
            endpoints = .zero
            response = .zero
            statusBar = screen.row(max(0, size.height - 1))
            return
        }
        let rows = Layout.vertical([.fill(1), .length(1)]).split(screen)
        statusBar = rows[1]
        let sidebarWidth = min(max(size.width * 32 / 100, 28), 46)
        let columns = Layout.horizontal([.length(sidebarWidth), .fill(1)]).split(rows[0])
        response = columns[1]
        let wanted = environmentRowCount + 2
        let cap = max(5, columns[0].height * 45 / 100)
        let sidebar = Layout.vertical([.length(min(wanted, cap)), .fill(1)]).split(columns[0])
        environments = sidebar[0]
        endpoints = sidebar[1]
    }

    /// The pane containing `position`, if any.
    package func pane(at position: Position) -> Pane? {
        if environments.contains(position) { return .environments }
        if endpoints.contains(position) { return .endpoints }
        if response.contains(position) { return .response }
        return nil
    }

    /// The response pane's inside: tabs on the first row, the summary on the second, content below.
    package var responseInner: Rect { response.inset(by: 1) }

    /// The rows the response tabs' content may use.
    package var responseContent: Rect { responseInner.inset(top: 2) }
}

extension AppState {
    /// The layout for the current size.
    package var layout: AppLayout { AppLayout(size: size, environmentRowCount: environmentRows.count) }
}
