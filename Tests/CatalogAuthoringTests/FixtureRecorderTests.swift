import Catalog
import CatalogAuthoring
import CatalogTestSupport
import DispatcherCore
import Foundation
import TestSupport
import Testing
import TestTraits

/// Recording a response as a fixture (`record`, the explorer's `F`): nothing replaced without
/// `force`, nothing lost when interrupted, the bundled catalogs never written to. (The command
/// against a live server: InteropTests' RecordTests.)
@Suite(.offPool) struct FixtureRecorderTests {
    static let liveItem = #"{"id":7,"name":"Pen","access_token":"tok-123456","owner":"shop-secret-token"}"#

    @Test func anInterruptedRecordLosesNothing() async throws {
        let folder = try TemporaryDirectory()
        try ShopCatalog.write(into: folder, baseURL: "https://shop.example.com/shop")
        try folder.write("fixtures/shop/getItem.json", "old fixture\n")
        let catalogBefore = try #require(folder.read("shop.yaml"))
        let catalog = CatalogLoader.load(folder.catalogSource, trust: .everything)
        let selection = try EndpointSelection.resolve("shop/getItem", environment: nil, in: catalog)
        let response = Response(status: 200, headers: ["Content-Type": "application/json"], body: Data(Self.liveItem.utf8))

        #expect(throws: AuthoringError.self) {
            _ = try FixtureRecorder.prepare(response, for: selection, example: nil, redactor: .standard, force: false)
        }
        let recording = try FixtureRecorder.prepare(response, for: selection, example: nil, redactor: .standard, force: true)
        struct Interrupted: Error {}
        #expect(throws: AuthoringError.self) { try recording.update.commit { throw Interrupted() } }
        #expect(folder.read("fixtures/shop/getItem.json") == "old fixture\n")
        #expect(folder.read("shop.yaml") == catalogBefore)
        #expect(folder.fileNames(in: "fixtures/shop") == ["getItem.json", "item.json"])
        #expect(folder.fileNames() == ["fixtures", "shop.yaml"])

        try recording.update.commit()
        #expect(folder.read("fixtures/shop/getItem.json")?.contains(#""name": "Pen""#) == true)
        #expect(folder.fileNames(in: "fixtures/shop") == ["getItem.json", "item.json"])
    }

    @Test func bundledCatalogsCannotBeRecordedInto() throws {
        let catalog = BundledCatalogs.load()
        let selection = try EndpointSelection.resolve("petstore/findPet", environment: nil, in: catalog)
        #expect(throws: AuthoringError.self) {
            _ = try FixtureRecorder.prepare(Response(status: 200), for: selection, example: nil, redactor: .standard, force: true)
        }
    }
}
