import Catalog
import TerminalKit

/// The catalogs belong to the whole app: read at launch (where the explorer opens, then the keys
/// typed meanwhile), previewed from the launch index, and read again when their files change (the
/// selection, drafts and responses stay where they were).
extension AppReducer {
    /// The catalogs arrived: open where the command line asked, then handle what was typed meanwhile.
    static func catalogLoaded(_ catalog: CatalogSet, state: inout AppState) -> [AppEffect] {
        let firstLoad = state.isLoadingCatalog
        let launch = state.launch.options
        let held = state.launch.heldEvents
        state.catalog = catalog
        var effects = scope(LaunchFeature.self, \.launch, .catalogsLoaded, &state)
        effects += scope(RPCFeature.self, \.rpc, .catalogsChanged(catalog), &state)
        state.navigation.resetEnvironmentCursor(in: catalog)
        if let launch, !apply(launch, state: &state) {
            state.failure = "No environment named '\(launch.environment ?? "")' in \(catalog.source). Run `apiexplorer list` to see them."
            return effects + quit(&state)
        }
        if firstLoad { effects.append(.history(.load)) }
        if firstLoad, catalog.source.directory != nil { effects.append(.watchCatalogs) }
        return effects + held.flatMap { reduce(&state, .terminal($0)) }
    }

    /// The launch index arrived while the catalogs are read: drawn as they will be, with the launch's
    /// options applied (again when the catalogs arrive: an unknown `--env` is reported then). Keys
    /// keep waiting for the full catalogs. Always drawn: the full load waits for this frame.
    static func catalogPreviewed(_ preview: CatalogSet, state: inout AppState) -> [AppEffect] {
        guard let launch = state.launch.options, !state.launch.showsPreview else { return [] }
        state.catalog = preview
        state.navigation.resetEnvironmentCursor(in: preview)
        _ = apply(launch, state: &state)
        return scope(LaunchFeature.self, \.launch, .previewShown, &state)
    }

    /// Applies `--live` and `--env` to a state whose catalogs are loaded; false when the environment is not there.
    static func apply(_ launch: LaunchOptions, state: inout AppState) -> Bool {
        if launch.live { _ = scope(ExchangesFeature.self, \.exchanges, .startLive, &state) }
        guard let environment = launch.environment else { return true }
        return state.selectEnvironment(named: environment)
    }

    /// The catalogs were read again (files changed, a trust given): they replace the loaded ones.
    static func catalogReloaded(_ catalog: CatalogSet, secrets: SecretStore, changed: [String], state: inout AppState) -> [AppEffect] {
        let previous = state.catalog
        state.catalog = catalog.addingScratch(state.scratch.entries)
        state.secrets = secrets
        state.navigation.keepPlace(from: previous, to: state.catalog)
        var effects = scope(EditingFeature.self, \.editing, .catalogChanged, &state)
        effects += scope(RPCFeature.self, \.rpc, .catalogsChanged(catalog), &state)
        // A file the explorer wrote itself comes back from the watcher unchanged: the notice
        // about the write stays.
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
