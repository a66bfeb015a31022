import ArgumentParser
import Catalog

/// `--catalog DIR`, shared by every command that reads catalogs.
struct CatalogOptions: ParsableArguments {
    @Option(
        name: .customLong("catalog"),
        help: ArgumentHelp(
            "The catalog folder. Default: $\(CatalogSource.environmentVariable), else ./environments, else the catalogs built into apiexplorer.",
            valueName: "DIR"))
    var catalog: String?

    /// The source by the lookup order; `folder` (a positional argument) wins over `--catalog`.
    func source(folder: String? = nil) -> CatalogSource {
        CatalogSource.resolve(option: folder ?? catalog)
    }
}
