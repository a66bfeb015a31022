import Catalog
import TerminalKit

/// Catalogs changed on disk while the explorer runs: the new ones replace the old, and the
/// selection, drafts and responses stay where they were.
extension AppReducer {
    static func catalogReloaded(_ catalog: CatalogSet, secrets: SecretStore, changed: [String], state: inout AppState) -> [AppEffect] {
        let previous = state.catalog
        let environment = state.activeEnvironmentKey
        // Each service's endpoint cursor, by endpoint id.
        var cursors: [String: String] = [:]
        for service in previous.services {
            let endpoints = service.id == state.activeService?.id ? state.visibleEndpoints : service.endpoints
            if let selected = state.endpointLists[service.id]?.selected, endpoints.indices.contains(selected) {
                cursors[service.id] = endpoints[selected].id
            }
        }
        let serviceRow = state.currentEnvironmentRow.map { previous.services[$0.serviceIndex].id }

        state.catalog = catalog.addingScratch(state.scratch.entries)
        state.secrets = secrets
        let restored = environment.map { state.selectEnvironment($0) } ?? false
        if restored {
            // The same service and environment.
        } else if let serviceRow, let index = state.environmentRows.firstIndex(where: { catalog.services[$0.serviceIndex].id == serviceRow }) {
            state.environmentList.selected = index
        } else {
            state.environmentList = ListState(selected: state.environmentRows.firstIndex { $0.isEnvironment } ?? 0)
        }
        for (serviceID, endpointID) in cursors {
            guard let service = catalog.service(serviceID) else {
                state.endpointLists[serviceID] = nil
                continue
            }
            let endpoints = serviceID == state.activeService?.id ? state.visibleEndpoints : service.endpoints
            var list = state.endpointLists[serviceID] ?? ListState(selected: 0)
            if let index = endpoints.firstIndex(where: { $0.id == endpointID }) {
                list.selected = index
            } else {
                list.selected = max(0, min(list.selected ?? 0, endpoints.count - 1))
            }
            state.endpointLists[serviceID] = list
        }
        if let request = state.editedRequest { state.editor.row = min(state.editor.row, max(0, request.rows.count - 1)) }
        // A file the explorer wrote itself comes back from the watcher unchanged: the notice
        // about the write stays.
        var effects: [AppEffect] = []
        if catalog.services != previous.services.filter({ !state.scratch.holds($0.id) }) || catalog.diagnostics != previous.diagnostics {
            // New problems go to the message log in full (file:line:column), as D lists them.
            let known = Set(previous.diagnostics.map(\.description))
            let new = catalog.diagnostics.filter { !known.contains($0.description) }
            if !new.isEmpty {
                effects += scope(MessagesFeature.self, \.messages, .recorded(new.map(\.description), isError: new.contains(where: \.isError)), &state)
            }
            state.notice = reloadNotice(catalog, previous: previous, changed: changed)
        }
        return effects
    }

    /// What changed, in one line: the files, the endpoints added or removed, or the errors that keep a last good version.
    static func reloadNotice(_ catalog: CatalogSet, previous: CatalogSet, changed: [String]) -> String {
        let files = changed.isEmpty ? "the catalogs" : changed.count <= 2 ? changed.joined(separator: ", ") : "\(changed.count) files"
        let errors = catalog.diagnostics.errorCount
        if errors > previous.diagnostics.errorCount || (errors > 0 && catalog.diagnostics.contains { $0.message.contains("last good version") }) {
            return "\(files) has errors: the last good version stays loaded (D shows them)."
        }
        let before = Set(previous.services.flatMap { $0.endpoints.map(\.key) })
        let after = Set(catalog.services.flatMap { $0.endpoints.map(\.key) })
        let added = after.subtracting(before).count
        let removed = before.subtracting(after).count
        var parts: [String] = []
        if added > 0 { parts.append("\(added) endpoint\(added == 1 ? "" : "s") added") }
        if removed > 0 { parts.append("\(removed) removed") }
        return "Reloaded \(files)" + (parts.isEmpty ? "." : ": " + parts.joined(separator: ", ") + ".")
    }
}
