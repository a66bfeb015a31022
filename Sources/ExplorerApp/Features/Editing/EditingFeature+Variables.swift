import Catalog
import DispatcherCore
import TerminalKit

/// The Vars tab (run-time values of the active environment), and editing where the eye already
/// is: `P` sets a query item and `A` a header from any pane or tab, and `C-s` while typing in the
/// Edit or Vars tab accepts and sends in one key.
extension EditingFeature {
    static func perform(
        _ command: VariablesCommand, rows: [ResolvedVariable], _ state: inout EditingState, _ shell: inout AppShell, _ context: Context
    ) -> [AppEffect] {
        guard let environment = context.environmentKey, rows.indices.contains(state.variables.row) else {
            shell.notice = "The request uses no placeholders."
            return []
        }
        let variable = rows[state.variables.row]
        switch command {
        case .change:
            let current = state.runtimeValues[environment]?[variable.name] ?? (variable.isSecret ? "" : variable.value ?? "")
            state.variables.input = VariablesState.ValueInput(name: variable.name, input: InputState(text: current))
        case .clear:
            guard state.runtimeValues[environment]?[variable.name] != nil else {
                shell.notice = "\(variable.name) has no run-time value."
                return []
            }
            state.runtimeValues[environment]?[variable.name] = nil
            if state.runtimeValues[environment]?.isEmpty == true { state.runtimeValues[environment] = nil }
            shell.notice = "\(variable.name) follows the catalog again."
            return [.editing(.saveValues(state.persistableValues))]
        }
        return []
    }

    /// Keys while a run-time value is being typed.
    static func typeValue(
        _ command: Command, input: VariablesState.ValueInput, _ state: inout EditingState, _ shell: inout AppShell, _ context: Context
    ) -> [AppEffect] {
        var input = input
        switch command {
        case .cancelInput:
            state.variables.input = nil
        case .accept:
            state.variables.input = nil
            guard let environment = context.environmentKey else { return [] }
            state.runtimeValues[environment, default: [:]][input.name] = input.input.text
            let kept = state.persistableValues[environment]?[input.name] != nil
            shell.notice = kept
                ? "\(input.name) is set for \(environment.environment) (kept for the next runs)."
                : "\(input.name) is set for \(environment.environment) until you quit (secrets are never written down)."
            return [.editing(.saveValues(state.persistableValues))]
        case .edit(let edit):
            input.input.apply(edit)
            state.variables.input = input
        default:
            break
        }
        return []
    }

    /// `name=value` or `Name: value` typed after `P` / `A`: replaces the first item of that name
    /// (header names compared without case), or adds it.
    static func setItem(
        _ text: String, isHeader: Bool, key: DraftKey, request: EditedRequest, _ state: inout EditingState, _ shell: inout AppShell, _ context: Context
    ) -> [AppEffect] {
        guard let item = parseItem(text, separator: isHeader ? ":" : "=") else { return [] }
        if isHeader, item.value == nil {
            shell.notice = "Write a header as 'Name: value'."
            return []
        }
        return change(key, &state, &shell, context) { edits in
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

    /// `C-s` while typing in the Edit or Vars tab (`inVariables`): the text is accepted and the
    /// request sent, unless the text was refused.
    static func acceptAndSend(inVariables: Bool, _ state: inout EditingState, _ shell: inout AppShell, _ context: Context) -> [AppEffect] {
        let notice = shell.notice
        let typing: [AppEffect]
        if !inVariables, let input = state.editor.input {
            typing = typeInEditor(.accept, input: input, &state, &shell, context)
        } else if inVariables, let input = state.variables.input {
            typing = typeValue(.accept, input: input, &state, &shell, context)
        } else {
            return []
        }
        // A refused text changes nothing and says why: the request is not sent with the old value.
        if typing.isEmpty, shell.notice != notice { return typing }
        shell.requests.append(.sendSelected)
        return typing
    }
}
