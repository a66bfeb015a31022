import Catalog
import CatalogTestSupport
import DispatcherCore
import Foundation
import CatalogAuthoring
import DriftCheck
import StateStore
import NIOHTTP1
import TestSupport
import Testing
import TestTraits

extension BinaryTests {
    /// `record` against a live server: secrets masked, the catalog edited in place and nowhere else,
    /// named examples, and what a killed run leaves cleaned up by the next (the recorder's own
    /// checks: CatalogAuthoringTests' FixtureRecorderTests).
    @Suite(.offPool) struct RecordTests {
        static let liveItem = #"{"id":7,"name":"Pen","access_token":"tok-123456","owner":"shop-secret-token"}"#

        func withServer(_ body: (TestHTTPServer) async throws -> Void) async throws {
            let server = try await TestHTTPServer.start { request in
                switch request.path {
                case "/shop/items/7": .json(Self.liveItem)
                case "/shop/items": .json(#"[{"id":1}]"#, status: .created)
                default: .status(.notFound)
                }
            }
            try await withShutdown { try await body(server) } shutdown: { try await server.shutdown() }
        }

        @Test func recordsTheStubAndKeepsTheRestOfTheFile() async throws {
            try await withServer { server in
                let folder = try TemporaryDirectory()
                let state = try TemporaryDirectory()
                try ShopCatalog.write(into: folder, baseURL: server.url("/shop").absoluteString)
                let before = try #require(folder.read("shop.yaml"))

                let refused = try await CLI.run(["record", "shop/getItem", "--catalog", folder.path], state: state)
                #expect(refused.status == 2)
                #expect(refused.errors.contains("already has a stub; --force replaces it"))
                #expect(folder.read("shop.yaml") == before)

                let result = try await CLI.run(["record", "shop/getItem", "--force", "--catalog", folder.path], state: state)
                #expect(result.status == 0, "\(result.errors)")
                #expect(result.output.contains("Recorded 200 OK as fixtures/shop/getItem.json: the stub of shop/getItem"))
                let fixture = try #require(folder.read("fixtures/shop/getItem.json"))
                #expect(!fixture.contains("tok-123456") && !fixture.contains("shop-secret-token"))
                #expect(fixture.contains(#""access_token": "••••""#))

                let after = try #require(folder.read("shop.yaml"))
                let oldStub = "    stub:\n      bodyFile: fixtures/shop/item.json\n"
                let newStub = "    stub:\n      status: 200\n      headers: { Content-Type: application/json }\n      bodyFile: fixtures/shop/getItem.json\n"
                #expect(before.contains(oldStub))
                #expect(after == before.replacingOccurrences(of: oldStub, with: newStub))

                let catalog = CatalogLoader.load(folder.catalogSource, trust: .everything)
                #expect(!catalog.hasErrors, "\(catalog.diagnostics)")
                let stub = try #require(catalog.service("shop")?.endpoint("getItem")?.stub)
                guard case .response(let status, _, let body) = stub.sample else { Issue.record("not a response"); return }
                #expect(status == 200)
                #expect(String(decoding: body, as: UTF8.self) == fixture)
                // The example beside the stub is untouched.
                #expect(catalog.service("shop")?.endpoint("getItem")?.example(named: "missing")?.summary == "No such item.")
            }
        }

        @Test func recordsNamedExamples() async throws {
            try await withServer { server in
                let folder = try TemporaryDirectory()
                let state = try TemporaryDirectory()
                try ShopCatalog.write(into: folder, baseURL: server.url("/shop").absoluteString)
                let added = try await CLI.run(["record", "shop/listItems", "--example", "live", "--catalog", folder.path], state: state)
                #expect(added.status == 0, "\(added.errors)")
                let inserted = try await CLI.run(["record", "shop/getItem", "--example", "recorded", "--catalog", folder.path], state: state)
                #expect(inserted.status == 0, "\(inserted.errors)")
                let existing = try await CLI.run(["record", "shop/getItem", "--example", "missing", "--catalog", folder.path], state: state)
                #expect(existing.status == 2)
                let replaced = try await CLI.run(["record", "shop/getItem", "--example", "missing", "--force", "--catalog", folder.path], state: state)
                #expect(replaced.status == 0, "\(replaced.errors)")

                let catalog = CatalogLoader.load(folder.catalogSource, trust: .everything)
                #expect(!catalog.hasErrors, "\(catalog.diagnostics)")
                let list = try #require(catalog.service("shop")?.endpoint("listItems"))
                #expect(list.exampleNames == ["default", "live"])
                guard case .response(let status, _, _) = list.example(named: "live")?.sample else { Issue.record("no live example"); return }
                #expect(status == 201)
                let item = try #require(catalog.service("shop")?.endpoint("getItem"))
                #expect(item.exampleNames == ["default", "missing", "recorded"])
                // Replacing an example keeps its description.
                #expect(item.example(named: "missing")?.summary == "No such item.")
                #expect(folder.exists("fixtures/shop/getItem-missing.json"))
            }
        }

        @Test func temporaryFilesOfAKilledRunAreCleanedUpByTheNext() async throws {
            try await withServer { server in
                let folder = try TemporaryDirectory()
                let state = try TemporaryDirectory()
                try ShopCatalog.write(into: folder, baseURL: server.url("/shop").absoluteString)
                // What `kill -9` during an earlier record leaves: hidden temporaries beside both targets.
                try folder.write(".shop.yaml.AbC123", "half a catalog")
                try folder.write("fixtures/shop/.getItem.json.XyZ789", "half a fixture")
                let hourAgo = Date(timeIntervalSinceNow: -3600)
                for path in [".shop.yaml.AbC123", "fixtures/shop/.getItem.json.XyZ789"] {
                    try FileManager.default.setAttributes([.modificationDate: hourAgo], ofItemAtPath: folder.url.appendingPathComponent(path).path)
                }
                // A fresh one may be another record at work: kept.
                try folder.write(".shop.yaml.Fresh1", "another writer")
                let result = try await CLI.run(["record", "shop/getItem", "--force", "--catalog", folder.path], state: state)
                #expect(result.status == 0, "\(result.errors)")
                #expect(folder.fileNames() == [".shop.yaml.Fresh1", "fixtures", "shop.yaml"])
                #expect(folder.fileNames(in: "fixtures/shop") == ["getItem.json", "item.json"])
            }
        }
    }
}
