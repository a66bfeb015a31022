import Catalog
import TestSupport

extension TemporaryDirectory {
    /// The folder as `--catalog` names it.
    var catalogSource: CatalogSource {
        CatalogSource(origin: .option, directory: url, displayPath: url.path)
    }
}
