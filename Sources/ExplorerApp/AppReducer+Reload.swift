import Catalog
import TerminalKit

/// Catalogs changed on disk while the explorer runs: the new ones replace the old, and the
/// selection, drafts and responses stay where they were.
extension AppReducer {
    static func catalogReloaded(_ catalog: CatalogSet, secrets: SecretStore, changed: [String], state: inout AppState) -> [AppEffect] {
        let previous = state.catalog
        state.catalog = catalog.addingScratch(state.scratch.entries)
        state.secrets = secrets
        state.navigation.keepPlace(from: previous, to: state.catalog)
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
            // The first new error as the launch names it (file:line:column), so the bar says what and where.
            let known = Set(previous.diagnostics)
            let summary = "\(files) has errors: the last good version stays loaded (D shows them)."
            guard let first = catalog.diagnostics.first(where: { $0.isError && !known.contains($0) }) else { return summary }
            return "\(first.description) — \(summary)"
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
