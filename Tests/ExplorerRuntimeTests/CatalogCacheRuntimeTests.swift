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

    /// The launch and a reload leave fixture files unread (a stub send reads its own: `FixtureReadingTests`).
    @Test func aLaunchAndAReloadLeaveFixtureFilesUnread() throws {
        let folder = try TemporaryDirectory()
        let text = """
            service: shop
            environments:
              local: { baseURL: "http://127.0.0.1:9" }
            endpoints:
              pet:
                path: /pet
                stub: { bodyFile: fixtures/pet.json }
                examples:
                  missing: { status: 404, bodyFile: fixtures/missing.json }
            """
        try folder.write("shop.yaml", text)
        try folder.write("fixtures/pet.json", "{}")
        let source = CatalogSource(origin: .option, directory: folder.url, displayPath: folder.url.path)
        let launched = ExplorerServices.catalogs(from: source, trustingEverything: true)().0
        let reloaded = ExplorerServices.reloading(from: source, trustingEverything: true)(launched, nil).0
        for catalog in [launched, reloaded] {
            let pet = try #require(catalog.services.first?.endpoint("pet"))
            #expect(pet.stub.bodyFile?.path == "fixtures/pet.json" && pet.examples.first?.bodyFile?.path == "fixtures/missing.json")
            #expect(catalog.diagnostics.isEmpty, "a missing fixture is the error of the send that needs it")
        }
    }
}
