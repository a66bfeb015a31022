import ArgumentParser
import Catalog
import StateStore

/// `--catalog DIR` and `--trust`, shared by every command that reads catalogs.
struct CatalogOptions: ParsableArguments {
    @Option(
        name: .customLong("catalog"),
        help: ArgumentHelp(
            "The catalog folder. Default: $\(CatalogSource.environmentVariable), else ./environments, else the catalogs built into apiexplorer.",
            valueName: "DIR"))
    var catalog: String?

    @Flag(
        help: "Trust the catalog folder's files for this run, as they are (for scripts and CI): an untrusted catalog answers from its fixtures only. `apiexplorer trust DIR` remembers the trust.")
    var trust = false

    /// The source by the lookup order; `folder` (a positional argument) wins over `--catalog`.
    func source(folder: String? = nil) -> CatalogSource {
        CatalogSource.resolve(option: folder ?? catalog)
    }

    /// What is trusted in `source`: everything with `--trust`, else what the state folder remembers.
    static func trust(of source: CatalogSource, trustingEverything: Bool) -> CatalogTrust {
        trustingEverything ? .everything : source.trust()
    }
}
