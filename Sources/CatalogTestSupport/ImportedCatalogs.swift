import Catalog
import CatalogAuthoring
import Foundation
import TestSupport
import Testing

/// The documents the import tests read (Postman, Insomnia and HAR exports, OpenAPI and real
/// published documents): Tests/InteropTests/Resources, read by path so every test target reaches them.
package func interopResource(_ name: String) throws -> Data {
    try Data(contentsOf: interopResourceURL(name))
}

/// Where a document of Tests/InteropTests/Resources is (for an import that reads the files beside it).
package func interopResourceURL(_ name: String) -> URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/InteropTests/Resources").appendingPathComponent(name)
}

extension TemporaryDirectory {
    /// The folder as `--catalog` names it.
    package var catalogSource: CatalogSource {
        CatalogSource(origin: .option, directory: url, displayPath: url.path)
    }
}

/// Writes an import into a new folder and loads it with the real loader, expecting no error.
package func loadWritten(_ result: CatalogImport) throws -> (folder: TemporaryDirectory, catalog: CatalogSet) {
    let folder = try TemporaryDirectory()
    try result.write(into: folder.url, force: false)
    let catalog = CatalogLoader.load(folder.catalogSource, trust: .everything)
    #expect(catalog.diagnostics.filter(\.isError).isEmpty, "\(catalog.diagnostics)")
    return (folder, catalog)
}

/// Every file an import wrote, as text.
package func writtenText(_ folder: TemporaryDirectory) -> String {
    let enumerator = FileManager.default.enumerator(atPath: folder.path)
    var text = ""
    while let path = enumerator?.nextObject() as? String {
        text += folder.read(path) ?? ""
    }
    return text
}
