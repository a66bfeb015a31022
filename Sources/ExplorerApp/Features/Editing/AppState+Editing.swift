import Catalog
import DispatcherCore
import JSONSupport
import TerminalKit

/// What the editing slice says of the whole state: the drafts, the Edit and Vars tabs, the
/// selected endpoint's request with its edits, run-time values and the placeholders it uses.
extension AppState {
    /// Edits of endpoints not saved to their catalogs, per endpoint and environment.
    package var drafts: [DraftKey: EndpointEdits] { editing.drafts }

    /// The Edit tab.
    package var editor: EditorState { editing.editor }

    /// The Variables tab.
    package var variablesTab: VariablesState { editing.variables }

    /// The draft key of the selected endpoint in the active environment.
    package var selectedDraftKey: DraftKey? {
        guard let endpoint = selectedEndpoint, let environment = activeEnvironmentKey else { return nil }
        return DraftKey(endpoint: endpoint.key, in: environment)
    }

    /// The selected endpoint's edits in the active environment (none: empty).
    package var selectedEdits: EndpointEdits {
        selectedDraftKey.flatMap { editing.drafts[$0] } ?? EndpointEdits()
    }

    /// The selected endpoint's request as the Edit tab shows it.
    var editedRequest: EditedRequest? {
        guard let endpoint = selectedEndpoint, let environment = activeEnvironment else { return nil }
        return EditedRequest(endpoint: endpoint, edits: selectedEdits, inherited: EditedRequest.inherited(endpoint, in: environment))
    }

    /// The run-time values of the active service and environment.
    package var activeValues: [String: String] {
        activeEnvironmentKey.flatMap { editing.runtimeValues[$0] } ?? [:]
    }

    /// Whether the endpoint has a draft in the active environment.
    func hasDraft(_ endpoint: CatalogEndpoint) -> Bool {
        guard let environment = activeEnvironmentKey else { return false }
        return editing.drafts[DraftKey(endpoint: endpoint.key, in: environment)] != nil
    }

    /// Every secret typed as a run-time value (`secret.NAME`), to mask wherever it could appear.
    var typedSecrets: Set<String> {
        var values = Set<String>()
        for environment in editing.runtimeValues.values {
            for (name, value) in environment where name.hasPrefix("secret.") && value.count >= 4 { values.insert(value) }
        }
        return values
    }

    /// Whether the Edit tab's keys apply: the response pane shows the Edit tab.
    /// Whatever pane has focus: the tab is where the eye is, so Enter changes its row rather than
    /// sending (C-s sends); moving keys still move in the focused pane.
    var isInEditor: Bool { tab == .edit && selectedEndpoint != nil }

    /// Whether the Vars tab's keys apply.
    var isInVariables: Bool { tab == .variables && selectedEndpoint != nil }

    /// The placeholders of the selected endpoint's request (with its edits), with their values and sources.
    package var variableRows: [ResolvedVariable] {
        guard let service = activeService, let environment = activeEnvironment, let endpoint = selectedEndpoint else { return [] }
        let edited = (try? endpoint.applying(selectedEdits)) ?? endpoint
        let builder = RequestBuilder(service: service, environment: environment, secrets: secrets, deferredToken: service.authRefresh?.into)
        let captured = activeEnvironmentKey.map { capturedValues(for: edited, environment: $0, mode: mode) } ?? [:]
        var rows = builder.variables(for: edited, values: activeValues, captured: captured, revealingSecrets: revealsSecrets)
        // Captured values that look like secrets are masked like secrets.
        for index in rows.indices where !revealsSecrets && rows[index].value != nil && Redactor.standard.isSensitive(name: rows[index].name) {
            rows[index].value = Redactor.mask
        }
        return rows
    }
}
