/// What a key does to a request's edits from the panes.
package enum EditingCommand: Sendable, Hashable {
    /// Keep the selected request in a catalog file: its edits, or a scratch request as a new endpoint.
    case saveRequest
    /// From anywhere: type `name=value` for the selected request's query (the Edit tab shows it).
    case setQueryItem
    /// From anywhere: type `Name: value` for the selected request's headers (the Edit tab shows it).
    case setHeader
}

/// What a key does in the Edit tab (response pane focused, Edit tab shown).
package enum EditorCommand: Sendable, Hashable {
    case change, add, delete, toggle, undo, redo, revert, editBodyExternally, formatBody, writeToCatalog, saveAsNewEndpoint
}

/// What a key does in the Variables tab (response pane focused, Vars tab shown).
package enum VariablesCommand: Sendable, Hashable {
    case change, clear
}

extension EditingFeature {
    static let keys: [KeyBinding] = [
        KeyBinding("W", .editing(.saveRequest), .requests, help: "write the edits into the catalog file; a scratch request: save it into a service"),
        KeyBinding("P", .editing(.setQueryItem), .requests, help: "set a query item from anywhere: name=value (replaces that name; C-s sends)"),
        KeyBinding("A", .editing(.setHeader), .requests, help: "set a header from anywhere: Name: value (replaces that name; C-s sends)"),
    ]

    static let editTabKeys: [KeyBinding] = [
        KeyBinding("Enter", .editor(.change), .editTab, help: "change the row: method, path, a query item, a header, the body"),
        KeyBinding("a", .editor(.add), .editTab, help: "add a query item, a header or a form field (where the cursor is)"),
        KeyBinding("d Delete", .editor(.delete), .editTab, label: "d/Delete", help: "remove the row (an inherited header: turn it off)"),
        KeyBinding("Space", .editor(.toggle), .editTab, label: "Space", help: "turn the row off / on"),
        KeyBinding("u", .editor(.undo), .editTab, help: "undo"),
        KeyBinding("C-r", .editor(.redo), .editTab, help: "redo"),
        KeyBinding("R", .editor(.revert), .editTab, help: "back to the catalog's request (u undoes it)"),
        KeyBinding("O", .editor(.editBodyExternally), .editTab, help: "edit the body in $EDITOR (vi) and come back to an intact screen"),
        KeyBinding("F", .editor(.formatBody), .editTab, help: "pretty-print a JSON body (u undoes it); bodies are otherwise sent exactly as typed"),
        KeyBinding("W", .editor(.writeToCatalog), .editTab, help: "write the edits into the catalog file, changing only their lines (asks first; u undoes)"),
        KeyBinding("N", .editor(.saveAsNewEndpoint), .editTab, help: "save the edited request as a new endpoint of the catalog (asks its id)"),
    ]

    static let variablesTabKeys: [KeyBinding] = [
        KeyBinding("Enter", .variables(.change), .variablesTab, help: "set a run-time value (kept per environment, never for secrets)"),
        KeyBinding("d Delete", .variables(.clear), .variablesTab, label: "d/Delete", help: "clear the run-time value: back to the catalog's"),
    ]
}
