import Catalog
import DispatcherCore
import FoundationEssentials
import TerminalKit

/// Changing the next requests: a draft per endpoint and environment (kept in the state folder as
/// it is made, with undo and redo), written into its catalog file or saved as a new endpoint on
/// request; and the run-time values of each environment (the Vars tab; kept, never secrets).
///
/// Its reducer spans the files `EditingFeature*.swift`, so its fields are `package internal(set)`:
/// only they set them, by convention.
package struct EditingState: Sendable {
    /// Edits of endpoints not saved to their catalogs, per endpoint and environment.
    package internal(set) var drafts: [DraftKey: EndpointEdits] = [:]
    /// Earlier edits of each draft, newest last, for undo (this run only).
    package internal(set) var undoStack: [DraftKey: [EndpointEdits]] = [:]
    /// Undone edits, newest last, for redo.
    package internal(set) var redoStack: [DraftKey: [EndpointEdits]] = [:]
    /// Run-time values per service and environment (kept in the state folder, never secrets).
    package internal(set) var runtimeValues: [EnvironmentKey: [String: String]] = [:]
    /// The Edit tab.
    package internal(set) var editor = EditorState()
    /// The Variables tab.
    package internal(set) var variables = VariablesState()

    /// How many edits of one draft can be undone.
    package static let undoLimit = 200

    /// The drafts as the state folder keeps them: per service and environment, by endpoint id.
    var draftsByEnvironment: [EnvironmentKey: [String: EndpointEdits]] {
        var result: [EnvironmentKey: [String: EndpointEdits]] = [:]
        for (key, edits) in drafts { result[key.environmentKey, default: [:]][key.endpoint.endpoint] = edits }
        return result
    }

    /// The run-time values the state folder keeps: never secrets.
    var persistableValues: [EnvironmentKey: [String: String]] {
        runtimeValues.compactMapValues { values in
            let kept = values.filter { !$0.key.hasPrefix("secret.") && !Redactor.standard.isSensitive(name: $0.key) }
            return kept.isEmpty ? nil : kept
        }
    }
}

/// What happens to drafts and run-time values.
package enum EditingAction: Sendable {
    // Keys (the root sends them where the Edit or Vars tab is shown).
    /// `P` or `A`: an input line for a query item or a header, from anywhere.
    case startDirectEdit(EditRow)
    /// A key of the Edit tab.
    case editor(EditorCommand)
    /// A key while a row of the Edit tab is typed.
    case typeInEditor(Command)
    /// Move the Edit tab's cursor.
    case moveEditor(AppReducer.Movement)
    /// A key of the Vars tab, over its rows.
    case variables(VariablesCommand, rows: [ResolvedVariable])
    /// A key while a run-time value is typed.
    case typeValue(Command)
    /// Move the Vars tab's cursor over `count` rows.
    case moveVariables(AppReducer.Movement, count: Int)
    /// `C-s` while typing in the Edit tab, or the Vars tab (`inVariables`): accept the text and send the request.
    case acceptAndSend(inVariables: Bool)
    /// A key or an answer in its window.
    case dialog(EditingDialog, WindowInput)
    /// The catalogs were read again: the Edit tab's cursor stays on a row.
    case catalogChanged

    // Results of its effects.
    /// Drafts kept from earlier runs, by service and environment and then endpoint id.
    case draftsLoaded([EnvironmentKey: [String: EndpointEdits]])
    /// Run-time values kept from earlier runs.
    case valuesLoaded([EnvironmentKey: [String: String]])
    /// The body of a draft came back from `$EDITOR` (nil: not changed, or the editor failed with `message`).
    case bodyEdited(key: DraftKey, text: String?, message: String?)
    /// A draft was written into its catalog file (`error` nil), or why not.
    case draftWritten(key: DraftKey, error: String?)
    /// A catalog file was put back as it was before a draft was written into it (`error` nil), or why not.
    case catalogFileRestored(key: DraftKey, error: String?)
    /// The draft's request was added to its catalog as endpoint `id` (`error` nil), or why not.
    case draftSavedAsEndpoint(key: DraftKey, id: String, error: String?)
}

/// Work drafts and run-time values ask of the runtime.
package enum EditingEffect: Sendable, Hashable {
    /// Read the drafts kept from earlier runs, reporting `.draftsLoaded`.
    case loadDrafts
    /// Read the run-time values kept from earlier runs, reporting `.valuesLoaded`.
    case loadValues
    /// Keep these drafts in the state folder (replacing what was kept).
    case saveDrafts([EnvironmentKey: [String: EndpointEdits]])
    /// Keep these run-time values in the state folder (never secrets).
    case saveValues([EnvironmentKey: [String: String]])
    /// Open a draft's body in `$EDITOR`, reporting `.bodyEdited`.
    case editBodyInEditor(key: DraftKey, text: String, isJSON: Bool)
    /// Write a draft into its catalog file (only the lines that changed), reload, and report `.draftWritten`.
    case writeDraft(key: DraftKey, edits: EndpointEdits)
    /// Put the draft's catalog file back as it was before `.writeDraft` (kept beside it as `FILE~`),
    /// reload, and report `.catalogFileRestored`.
    case restoreCatalogFile(key: DraftKey)
    /// Add the draft's request to its catalog as a new endpoint `id`, reload, and report `.draftSavedAsEndpoint`.
    case saveDraftAsEndpoint(key: DraftKey, edits: EndpointEdits, id: String)
}

enum EditingFeature: AppFeature {
    /// What editing reads of the rest of the app.
    struct Context {
        /// The catalogs.
        var catalog: CatalogSet
        /// The endpoint under the cursor and the active environment.
        var endpoint: CatalogEndpoint?
        var environment: Environment?
        /// The service and environment the Vars tab sets values for.
        var environmentKey: EnvironmentKey?

        /// The draft key of the selected endpoint in the active environment.
        var draftKey: DraftKey? {
            guard let endpoint, let environmentKey else { return nil }
            return DraftKey(endpoint: endpoint.key, in: environmentKey)
        }

        /// The selected endpoint's request as the Edit tab shows it, with `state`'s draft.
        func request(_ state: EditingState) -> EditedRequest? {
            guard let endpoint, let environment, let draftKey else { return nil }
            let edits = state.drafts[draftKey] ?? EndpointEdits()
            return EditedRequest(endpoint: endpoint, edits: edits, inherited: EditedRequest.inherited(endpoint, in: environment))
        }

        /// Whether the catalogs are files that can be written (not the bundled ones).
        var isWritable: Bool { catalog.source.directory != nil }
    }

    static func context(of app: AppState) -> Context {
        Context(catalog: app.catalog, endpoint: app.selectedEndpoint, environment: app.activeEnvironment, environmentKey: app.activeEnvironmentKey)
    }

    static func reduce(_ state: inout EditingState, _ action: EditingAction, _ shell: inout AppShell, _ context: Context) -> [AppEffect] {
        switch action {
        case .startDirectEdit(let row):
            guard context.endpoint != nil, context.draftKey != nil else {
                shell.notice = "Select an endpoint first: P and A change its next requests."
                return []
            }
            shell.requests.append(.showTab(.edit))
            state.editor.input = EditorState.RowInput(row: row, input: InputState())
        case .editor(let command):
            return perform(command, &state, &shell, context)
        case .typeInEditor(let command):
            guard let input = state.editor.input else { return [] }
            return typeInEditor(command, input: input, &state, &shell, context)
        case .moveEditor(let movement):
            guard let request = context.request(state) else { return [] }
            state.editor.row = movement.applied(to: state.editor.row, count: request.rows.count)
        case .variables(let command, let rows):
            return perform(command, rows: rows, &state, &shell, context)
        case .typeValue(let command):
            guard let input = state.variables.input else { return [] }
            return typeValue(command, input: input, &state, &shell, context)
        case .moveVariables(let movement, let count):
            state.variables.row = movement.applied(to: state.variables.row, count: count)
        case .acceptAndSend(let inVariables):
            return acceptAndSend(inVariables: inVariables, &state, &shell, context)
        case .dialog(let dialog, let input):
            return answer(dialog, input, &state, &shell)
        case .catalogChanged:
            if let request = context.request(state) { state.editor.row = min(state.editor.row, max(0, request.rows.count - 1)) }
        case .draftsLoaded(let kept):
            shell.pendingLoads.remove(.editing(.loadDrafts))
            var restored = 0
            for (environment, endpoints) in kept {
                for (endpoint, edits) in endpoints where !edits.isEmpty {
                    let key = DraftKey(endpoint: EndpointKey(service: environment.service, endpoint: endpoint), in: environment)
                    // This run's edits, if any were made already, win.
                    if state.drafts[key] == nil {
                        state.drafts[key] = edits
                        // Other catalogs' drafts are kept (and saved back) but never shown here (the
                        // catalogs may still be loading: then each counts).
                        if (context.catalog.service(environment.service)?.catalogID ?? environment.catalog) == environment.catalog { restored += 1 }
                    }
                }
            }
            if restored > 0 {
                shell.notice = "Restored \(restored) draft\(restored == 1 ? "" : "s") from the last run (✎ in the list; Edit tab, R reverts)."
            }
        case .valuesLoaded(let kept):
            shell.pendingLoads.remove(.editing(.loadValues))
            state.runtimeValues.merge(kept) { current, _ in current }
        case .bodyEdited(let key, let text, let message):
            shell.pendingLoads = shell.pendingLoads.filter { if case .editing(.editBodyInEditor(key, _, _)) = $0 { false } else { true } }
            if let message { shell.notice = message }
            if let text, let endpoint = context.catalog.endpoint(key.endpoint)?.endpoint {
                let current = state.drafts[key] ?? EndpointEdits()
                let request = EditedRequest(endpoint: endpoint, edits: current, inherited: [])
                return setBody(text, key: key, request: request, &state, &shell, context)
            }
        case .draftWritten(let key, let error):
            return draftWritten(key: key, error: error, &state, &shell)
        case .catalogFileRestored(let key, let error):
            return catalogFileRestored(key: key, error: error, &state, &shell)
        case .draftSavedAsEndpoint(let key, let id, let error):
            return draftSavedAsEndpoint(key: key, id: id, error: error, &state, &shell)
        }
        return []
    }
}
