import FoundationEssentials

/// The catalogs compiled into the binary (from `environments/` in the repository), so an
/// installed `apiexplorer` works from any folder. The files are in
/// `BundledCatalogFiles.generated.swift`, written by `scripts/generate-bundled-catalogs`.
public enum BundledCatalogs {
    /// The bundled files as a catalog folder.
    public static let fileSystem = InMemoryFileSystem(files: Dictionary(
        BundledCatalogFiles.files.map { ($0.path, $0.data) }, uniquingKeysWith: { first, _ in first }))

    /// Loads the bundled catalogs.
    public static func load() -> CatalogSet {
        CatalogLoader.load(fileSystem: fileSystem, source: .bundled)
    }
}
