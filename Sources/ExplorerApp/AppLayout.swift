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

    /// The sidebar's width (environments above endpoints), border included; 0 when zoomed.
    package var sidebarWidth: Int
    /// The pane filling the screen, if one is zoomed.
    package var zoomed: Pane?

    /// The narrowest and widest sidebar a kept width may ask for, whatever the terminal.
    package static let sidebarWidthLimits = 20...240

    /// The sidebar widths a terminal `width` columns wide allows: the response pane keeps at least
    /// 40% of the screen and 30 columns.
    package static func sidebarWidths(forWidth width: Int) -> ClosedRange<Int> {
        let lower = sidebarWidthLimits.lowerBound
        return lower...max(lower, min(width * 60 / 100, width - 30))
    }

    /// The sidebar's width when the person has not set one: about a third of the screen, at most
    /// 64 columns (at 200 columns the list shows titles and whole paths).
    package static func automaticSidebarWidth(forWidth width: Int) -> Int {
        min(max(width * 32 / 100, 28), width >= 160 ? 64 : 46)
    }

    /// Lays out a terminal of `size`; `environmentRowCount` sizes the environments pane to its
    /// content; `listWidth` is the sidebar's width as the person set it (nil: automatic);
    /// `zoomed` fills the screen with one pane.
    package init(size: Size, environmentRowCount: Int, listWidth: Int? = nil, zoomed: Pane? = nil) {
        let screen = Rect(size: size)
        fits = size.width >= AppLayout.minimumSize.width && size.height >= AppLayout.minimumSize.height
        environments = .zero
        endpoints = .zero
        response = .zero
        sidebarWidth = 0
        self.zoomed = nil
        guard fits else {
            statusBar = screen.row(max(0, size.height - 1))
            return
        }
        let rows = Layout.vertical([.fill(1), .length(1)]).split(screen)
        statusBar = rows[1]
        if let zoomed {
            self.zoomed = zoomed
            switch zoomed {
            case .environments: environments = rows[0]
            case .endpoints: endpoints = rows[0]
            case .response: response = rows[0]
            }
            return
        }
        sidebarWidth = listWidth.map(AppLayout.sidebarWidths(forWidth: size.width).clamped) ?? AppLayout.automaticSidebarWidth(forWidth: size.width)
        let columns = Layout.horizontal([.length(sidebarWidth), .fill(1)]).split(rows[0])
        response = columns[1]
        let wanted = environmentRowCount + 2
        let cap = max(5, columns[0].height * 45 / 100)
        let sidebar = Layout.vertical([.length(min(wanted, cap)), .fill(1)]).split(columns[0])
        environments = sidebar[0]
        endpoints = sidebar[1]
    }

    /// Whether `position` is on the border between the sidebar and the response pane (either
    /// pane's side of it), which a drag moves.
    package func isOnSidebarBorder(_ position: Position) -> Bool {
        guard zoomed == nil, sidebarWidth > 0, position.y < statusBar.y else { return false }
        return position.x == sidebarWidth - 1 || position.x == sidebarWidth
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
    package var layout: AppLayout {
        AppLayout(size: size, environmentRowCount: environmentRows.count, listWidth: panes.listWidth, zoomed: panes.isZoomed ? focus : nil)
    }
}
