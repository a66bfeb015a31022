import Catalog
import ExplorerRuntime
import ExplorerTestSupport
import Foundation
import StateStore
import TestSupport
import Testing
import TestTraits

/// The explorer's own catalog loading with the parsed-catalog cache, as `apiexplorer` wires it:
/// a second launch parses nothing, a hot reload parses the changed file and keeps it for the next.
@Suite(.offPool) struct CatalogCacheRuntimeTests {
    @Test func aLaunchAfterTheFirstAndAfterAReloadParsesNoFile() throws {
        let folder = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        let file = folder.url.appendingPathComponent("shop.yaml")
        try Data(TestCatalog.shop.utf8).write(to: file)
        let source = CatalogSource(origin: .option, directory: folder.url, displayPath: folder.url.path)
        let cache = ParsedCatalogCache(directoryPath: state.path)
        let launch = ExplorerServices.catalogs(from: source, trustingEverything: true, cache: cache)
        let first = launch().0
        #expect(first.readCounts == CatalogReadCounts(parsed: 1, cached: 0))
        #expect(launch().0.readCounts == CatalogReadCounts(parsed: 0, cached: 1))

        try Data((TestCatalog.shop + "\n# changed\n").utf8).write(to: file)
        let reloaded = ExplorerServices.reloading(from: source, trustingEverything: true, cache: cache)(first, ["shop.yaml"]).0
        #expect(reloaded.readCounts == CatalogReadCounts(parsed: 1, cached: 0))
        // A comment after the last line changes no service.
        #expect(reloaded.services == first.services)
        #expect(launch().0.readCounts == CatalogReadCounts(parsed: 0, cached: 1))
    }
}
