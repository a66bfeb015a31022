import TerminalKit

extension AppReducer {
    /// Clicks focus a pane and select the row under the pointer; the wheel scrolls the pane under it.
    static func handleMouse(_ event: MouseEvent, state: inout AppState) -> [AppEffect] {
        guard state.overlay == nil else {
            if case .press = event.kind { state.overlay = nil }
            return []
        }
        let layout = state.layout
        guard let pane = layout.pane(at: event.position) else { return [] }
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
                let rows = state.environmentRows
                let offset = state.environmentList.visibleOffset(viewportHeight: max(1, layout.environments.height - 2), itemCount: rows.count)
                let row = event.position.y - layout.environments.y - 1 + offset
                if rows.indices.contains(row), rows[row].isEnvironment { selectEnvironmentRow(row, state: &state) }
            case .endpoints:
                let count = state.visibleEndpoints.count
                let offset = state.endpointList.visibleOffset(viewportHeight: state.endpointViewportHeight, itemCount: count)
                let row = event.position.y - layout.endpoints.y - 1 + offset
                if state.visibleEndpoints.indices.contains(row) {
                    var list = state.endpointList
                    list.selected = row
                    state.endpointList = list
                }
            case .response:
                let inner = layout.responseInner
                if event.position.y == inner.y, let tab = ResponsePaneView.tabs(for: state).tab(atColumn: event.position.x, in: inner.row(0)) {
                    state.tab = ResponseTab(rawValue: tab + 1) ?? state.tab
                }
            }
        default:
            break
        }
        return []
    }
}
