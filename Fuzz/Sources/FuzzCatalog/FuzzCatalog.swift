import Catalog
import FoundationEssentials
import FuzzDriver

@_cdecl("FuzzCatalog_main")
func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzDriver.run(argc, argv, exercise: exercise)
}

/// A catalog file: YAML, then every key, value and diagnostic of the decoder.
func exercise(_ data: Data) {
    let catalog = CatalogLoader.load(fileSystem: InMemoryFileSystem(files: ["fuzz.yaml": data, "fixtures/a.json": Data("{}".utf8)]), source: .bundled)
    _ = catalog.summary
}
