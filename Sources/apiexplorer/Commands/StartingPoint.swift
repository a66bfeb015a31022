import ArgumentParser
import Catalog
import ExplorerApp
import TerminalKit

/// `--env` and `--live`: where the explorer (or a snapshot of it) starts.
struct StartingPoint: ParsableArguments {
    @Option(help: ArgumentHelp("Start in this environment (NAME or SERVICE/NAME).", valueName: "NAME"))
    var env: String?

    @Flag(help: "Start in live mode (real HTTP) instead of stub mode.")
    var live = false

    /// Refuses an environment the catalog does not have, before anything takes the terminal.
    func check(in catalog: CatalogSet) throws {
        guard let env else { return }
        var probe = AppState(catalog: catalog, size: Size(width: 1, height: 1))
        guard probe.selectEnvironment(named: env) else {
            throw ValidationError("No environment named '\(env)' in \(catalog.source). Run `apiexplorer list` to see them.")
        }
    }

    /// Puts the first state there.
    func apply(to state: inout AppState) {
        if let env { state.selectEnvironment(named: env) }
        if live { state.mode = .live }
    }
}
