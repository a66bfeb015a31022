import Catalog
import DispatcherCore
import TerminalKit
import TextSupport

/// Keeping a draft in its catalog file (`W`, asked first) or as a new endpoint (`N`): credentials
/// are never written (each is named and written as `{{secret.NAME}}`), and `u` puts a written
/// file back.
extension EditingFeature {
    /// Writes the edits (`W`, `N`), after asking a secret's name for each credential they write
    /// out: a typed `Authorization`, cookie, API key or token becomes `{{secret.NAME}}` in the file.
    static func write(
        _ edits: EndpointEdits, key: DraftKey, as write: SecretNaming.Write, _ state: inout EditingState, _ shell: inout AppShell, _ context: Context
    ) -> [AppEffect] {
        let credentials = edits.typedCredentials(service: key.endpoint.service)
        guard credentials.isEmpty else {
            state.editor.naming = SecretNaming(key: key, write: write, credentials: credentials)
            askSecretName(&state, &shell)
            return []
        }
        switch write {
        case .intoEndpoint:
            // Asked first: the file changes (the previous text is kept; `u` in the Edit tab restores it).
            let file = context.catalog.service(key.endpoint.service)?.file ?? key.endpoint.service
            shell.present(.editing(.confirmWrite(WriteQuestion(key: key, edits: edits, file: file, changes: edits.changeSummary))))
            return []
        case .asNewEndpoint(let id):
            shell.notice = "Saving the request as \(key.endpoint.service)/\(id)…"
            return [.editing(.saveDraftAsEndpoint(key: key, edits: edits, id: id))]
        }
    }

    /// The answer to the question before `W` writes the file.
    static func answer(_ dialog: EditingDialog, _ input: WindowInput, _ state: inout EditingState, _ shell: inout AppShell) -> [AppEffect] {
        guard case .confirmWrite(let question) = dialog, case .answer(let yes) = input else { return [] }
        shell.dismiss()
        guard yes else {
            shell.notice = "Not written: \(question.file) is as it was."
            return []
        }
        return [.editing(.writeDraft(key: question.key, edits: question.edits))]
    }

    /// Asks the name of the next credential's secret.
    static func askSecretName(_ state: inout EditingState, _ shell: inout AppShell) {
        guard let naming = state.editor.naming, naming.names.count < naming.credentials.count else { return }
        let credential = naming.credentials[naming.names.count]
        // Asked in the Edit tab, wherever W was pressed.
        shell.requests += [.showTab(.edit), .focus(.response)]
        state.editor.input = EditorState.RowInput(row: .secretName, input: InputState(text: credential.suggestedName))
        shell.notice = "The \(credential.place) is a credential: the catalog gets {{secret.NAME}} instead. Name it (Enter), Esc writes nothing."
    }

    /// A secret's name was typed: the next is asked, or, all named, the edits are written with the
    /// placeholders and the values kept as run-time secrets (never saved).
    static func nameSecret(_ text: String, _ state: inout EditingState, _ shell: inout AppShell, _ context: Context) -> [AppEffect] {
        guard var naming = state.editor.naming else { return [] }
        let name = text.trimmed
        let valid = !name.isEmpty && !(name.first?.isNumber ?? true) && name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
        }
        guard valid else {
            askSecretName(&state, &shell)
            shell.notice = "'\(name)' is not a secret name: use letters, digits and _ (SHOP_TOKEN)."
            return []
        }
        naming.names.append(name)
        state.editor.naming = naming
        guard naming.names.count == naming.credentials.count else {
            askSecretName(&state, &shell)
            return []
        }
        state.editor.naming = nil
        let key = naming.key
        let edits = (state.drafts[key] ?? EndpointEdits()).replacingCredentials(service: key.endpoint.service, names: naming.names)
        let environment = key.environmentKey
        for (credential, name) in zip(naming.credentials, naming.names) { state.runtimeValues[environment, default: [:]]["secret.\(name)"] = credential.value }
        let effects = write(edits, key: key, as: naming.write, &state, &shell, context)
        let names = naming.names.map { "{{secret.\($0)}}" }.joined(separator: ", ")
        shell.notice = (shell.notice ?? "") + " Written as \(names); the values stay for this session only: set them in .env beside the catalog."
        return effects
    }

    /// The runner wrote a draft into its catalog file (or could not: the error).
    static func draftWritten(key: DraftKey, error: String?, _ state: inout EditingState, _ shell: inout AppShell) -> [AppEffect] {
        if let error {
            shell.notice = "Not written: \(error)"
            return []
        }
        if let edits = state.drafts[key] { state.editor.lastWrite = EditorState.WrittenDraft(key: key, edits: edits) }
        shell.notice = "Wrote \(key.endpoint) into its catalog file; the draft is gone (u in the Edit tab puts the file back)."
        return forgetDraft(key, &state)
    }

    /// The runner put a catalog file back as it was before `W` (or could not: the error).
    static func catalogFileRestored(key: DraftKey, error: String?, _ state: inout EditingState, _ shell: inout AppShell) -> [AppEffect] {
        shell.pendingLoads.remove(.editing(.restoreCatalogFile(key: key)))
        if let error {
            shell.notice = "Not restored: \(error)"
            return []
        }
        guard let written = state.editor.lastWrite, written.key == key else { return [] }
        state.editor.lastWrite = nil
        state.drafts[key] = written.edits
        shell.notice = "The catalog file is back as it was before W; \(key.endpoint)'s edits are a draft again."
        return [.editing(.saveDrafts(state.draftsByEnvironment))]
    }

    /// The runner added a draft to its catalog as endpoint `id` (or could not: the error).
    static func draftSavedAsEndpoint(key: DraftKey, id: String, error: String?, _ state: inout EditingState, _ shell: inout AppShell) -> [AppEffect] {
        if let error {
            shell.notice = "Not saved: \(error)"
            return []
        }
        // The request lives on as the new endpoint: the original follows its catalog again.
        let newKey = EndpointKey(service: key.endpoint.service, endpoint: id)
        shell.requests.append(.selectEndpoint(newKey))
        shell.notice = "Saved as \(newKey) in its catalog file; \(key.endpoint) is as the catalog has it."
        return forgetDraft(key, &state)
    }

    /// Drops a draft kept in a catalog file now, with its undo history.
    static func forgetDraft(_ key: DraftKey, _ state: inout EditingState) -> [AppEffect] {
        state.drafts[key] = nil
        state.undoStack[key] = nil
        state.redoStack[key] = nil
        return [.editing(.saveDrafts(state.draftsByEnvironment))]
    }
}
