import TerminalKit

/// Where a click or the wheel goes: the window closes, a pane is focused and its row selected, the
/// border between the sidebar and the response pane is dragged.
extension AppReducer {
    /// Clicks focus a pane and select the row under the pointer; the wheel scrolls the pane under it;
    /// the border between the sidebar and the response pane follows a drag; other motion does nothing.
    static func handleMouse(_ event: MouseEvent, state: inout AppState) -> [AppEffect] {
        if event.kind == .motion {
            guard state.panes.drag != nil else { return [] }
            return scope(PanesFeature.self, \.panes, .drag(column: event.position.x), &state)
        }
        // A drag under way ends where the button goes up, whatever opened meanwhile.
        if event.kind == .release, state.panes.drag != nil {
            return scope(PanesFeature.self, \.panes, .release(column: event.position.x), &state)
        }
        guard state.overlay == nil else {
            if case .press = event.kind { return scope(OverlaysFeature.self, \.overlays, .dismiss, &state) }
            return []
        }
        let layout = state.layout
        if event.kind == .press(.left), layout.isOnSidebarBorder(event.position) {
            return scope(PanesFeature.self, \.panes, .pressBorder(column: event.position.x), &state)
        }
        var effects: [AppEffect] = []
        if case .press = event.kind, state.panes.drag != nil { effects = scope(PanesFeature.self, \.panes, .pressElsewhere, &state) }
        guard let pane = layout.pane(at: event.position) else { return effects }
        switch event.kind {
        case .wheelUp, .wheelDown:
            let previous = state.focus
            state.focus = pane
            move(event.kind == .wheelUp ? .up(3) : .down(3), wheel: true, state: &state)
            state.focus = previous
        case .press(.left):
            state.focus = pane
            switch pane {
            case .environments:
                return effects + navigate(.click(.environments, line: event.position.y - layout.environments.y - 1), state: &state)
            case .endpoints:
                return effects + navigate(.click(.endpoints, line: event.position.y - layout.endpoints.y - 1), state: &state)
            case .response:
                let inner = layout.responseInner
                if event.position.y == inner.y, let index = ResponsePaneView.tabs(for: state).tab(atColumn: event.position.x, in: inner.row(0)),
                    let tab = ResponseTab(rawValue: index + 1)
                {
                    return effects + scope(ResponseFeature.self, \.response, .command(.showTab(tab)), &state)
                }
            }
        default:
            break
        }
        return effects
    }
}
