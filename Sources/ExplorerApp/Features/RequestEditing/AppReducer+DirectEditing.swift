import Catalog
import DispatcherCore
import TerminalKit

/// Editing where the eye already is: `P` sets a query item and `A` a header from any pane or tab,
/// and `C-s` while typing in the Edit or Vars tab accepts and sends in one key.
extension AppReducer {
    /// `P` / `A`: the Edit tab shows, with an input line for the item.
    static func startDirectEdit(_ row: EditRow, state: inout AppState) -> [AppEffect] {
        guard state.selectedEndpoint != nil, state.selectedDraftKey != nil else {
            state.notice = "Select an endpoint first: P and A change its next requests."
            return []
        }
        state.tab = .edit
        state.editor.input = EditorState.RowInput(row: row, input: InputState())
        return []
    }

    /// `name=value` or `Name: value` typed after `P` / `A`: replaces the first item of that name
    /// (header names compared without case), or adds it.
    static func setItem(_ text: String, isHeader: Bool, key: DraftKey, request: EditedRequest, state: inout AppState) -> [AppEffect] {
        guard let item = parseItem(text, separator: isHeader ? ":" : "=") else { return [] }
        if isHeader, item.value == nil {
            state.notice = "Write a header as 'Name: value'."
            return []
        }
        return change(key, state: &state) { edits in
            var items = isHeader ? (edits.headers ?? request.headers) : (edits.query ?? request.query)
            let same: (EndpointEdits.Item) -> Bool = { isHeader ? Headers.sameName($0.name, item.name) : $0.name == item.name }
            if let index = items.firstIndex(where: same) { items[index] = item } else { items.append(item) }
            if isHeader {
                edits.headers = items
                // A header turned off before is on again when it is set by name.
                edits.removedHeaders = edits.removedHeaders.filter { !Headers.sameName($0, item.name) }
            } else {
                edits.query = items
            }
        }
    }

    /// `C-s` while typing in the Edit or Vars tab: the text is accepted and the request sent,
    /// unless the text was refused; nil when nothing is typed there (then `C-s` is Enter).
    static func acceptAndSend(state: inout AppState) -> [AppEffect]? {
        let notice = state.notice
        let typing: [AppEffect]
        if state.isInEditor, let input = state.editor.input {
            // Naming a secret or a new endpoint writes the catalog: nothing to send.
            guard input.row != .secretName, input.row != .newEndpointID else { return nil }
            typing = typeInEditor(.accept, input: input, state: &state)
        } else if state.isInVariables, let input = state.variablesTab.input {
            typing = typeValue(.accept, input: input, state: &state)
        } else {
            return nil
        }
        // A refused text changes nothing and says why: the request is not sent with the old value.
        if typing.isEmpty, state.notice != notice { return typing }
        return typing + send(state: &state, example: state.selectedExample)
    }
}
