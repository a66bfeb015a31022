import TerminalKit

/// Draws the whole screen for a state. Pure: the same state gives the same frame.
package enum AppView {
    /// Renders `state` into a frame of its size.
    package static func render(_ state: AppState) -> Frame {
        Theme.$palette.withValue(state.config.theme) { draw(state) }
    }

    private static func draw(_ state: AppState) -> Frame {
        var buffer = Buffer(size: state.size)
        let layout = state.layout
        guard layout.fits else {
            renderTooSmall(state.size, into: &buffer)
            return Frame(buffer: buffer)
        }
        // A zoomed layout has one pane; the others have no room and are not drawn.
        if !layout.environments.isEmpty { EnvironmentsPaneView.render(state, area: layout.environments, into: &buffer) }
        let endpointsCursor = layout.endpoints.isEmpty ? nil : EndpointsPaneView.render(state, area: layout.endpoints, into: &buffer)
        let responseCursor = layout.response.isEmpty ? nil : ResponsePaneView.render(state, area: layout.response, into: &buffer)
        StatusBarView.render(state, area: layout.statusBar, into: &buffer)
        if state.finder.isOpen {
            let cursor = FinderView.render(state, into: &buffer)
            return Frame(buffer: buffer, cursor: cursor)
        }
        if let overlay = state.overlay {
            let cursor = OverlayView.render(overlay, state: state, into: &buffer)
            return Frame(buffer: buffer, cursor: cursor)
        }
        return Frame(buffer: buffer, cursor: endpointsCursor ?? responseCursor)
    }

    /// The message shown below the minimum size, fitted to whatever room there is (down to 1×1).
    static func renderTooSmall(_ size: Size, into buffer: inout Buffer) {
        let minimum = AppLayout.minimumSize
        let lines = [
            Line("Terminal too small", style: Theme.error),
            Line("\(size.width)×\(size.height), needs \(minimum.width)×\(minimum.height)"),
            Line("Enlarge it, or q to quit", style: Theme.dim),
        ]
        let screen = Rect(size: size)
        let top = max(0, (size.height - lines.count) / 2)
        for (offset, line) in lines.enumerated() where top + offset < size.height {
            buffer.write(line.truncated(toWidth: size.width).aligned(.center), in: screen.row(top + offset))
        }
    }

    /// A pane's border, highlighted when it has focus.
    static func block(_ title: String, focused: Bool, rightTitle: Line? = nil) -> Block {
        Block(
            title: Line(" \(title) ", style: focused ? Theme.focusedTitle : Theme.title), rightTitle: rightTitle,
            borders: .rounded, isFocused: focused, borderStyle: Theme.border, focusedBorderStyle: Theme.focusedBorder)
    }
}
