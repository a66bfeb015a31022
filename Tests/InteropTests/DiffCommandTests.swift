import Catalog
import CatalogTestSupport
import Foundation
import MockServer
import NIOHTTP1
import SystemSupport
import TestSupport
import Testing
import TestTraits

/// `apiexplorer diff`: the bundled httpbin catalog's blue and green environments on the mock
/// differ by a field and by a volatile header; Diffy's noise filter drops a random field; a
/// response is compared with the last one kept in the history.
@Suite(.offPool) struct DiffCommandTests {
    /// The bundled catalogs, copied with the mock's port in place of 4010 (tests listen on free ports).
    static func bundledCopy(port: Int) throws -> TemporaryDirectory {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let folder = try TemporaryDirectory()
        let source = root.appendingPathComponent("environments")
        for name in ["httpbin.yaml", "petstore.yaml"] {
            let text = try String(contentsOf: source.appendingPathComponent(name), encoding: .utf8)
            try folder.write(name, text.replacing("127.0.0.1:4010", with: "127.0.0.1:\(port)"))
        }
        try FileManager.default.copyItem(at: source.appendingPathComponent("fixtures"), to: folder.url.appendingPathComponent("fixtures"))
        return folder
    }

    /// Runs `body` with the bundled catalogs' fixtures served by a mock on a free port.
    func withBundledMock(_ body: (TemporaryDirectory) async throws -> Void) async throws {
        let placeholder = try Self.bundledCopy(port: 4010)
        let services = CatalogLoader.load(placeholder.catalogSource, trust: .everything).services
        let server = MockServer(services: services, configuration: MockServer.Configuration(port: 0, honourDelays: false))
        let port = try await server.start()
        do {
            try await body(try Self.bundledCopy(port: port))
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test func blueAndGreenDifferByTheirVersionNotByTheirRequestIdsOrFeatureOrder() async throws {
        try await withBundledMock { catalog in
            let state = try TemporaryDirectory()
            let run = try await CLI.run(["diff", "httpbin/deployment", "--env", "blue", "--env", "green", "--catalog", catalog.path], state: state)
            #expect(run.status == 1, "\(run.errors)")
            #expect(run.output.contains("~ $.version: \"1.4.2\" → \"1.5.0\""))
            #expect(run.output.contains("1 difference (ignored: "))
            #expect(!run.output.contains("~ header X-Request-Id"))
            #expect(!run.output.contains("$.features"))

            let json = try await CLI.run(
                ["diff", "httpbin/deployment", "--env", "blue", "--env", "green", "--catalog", catalog.path, "--json"], state: state)
            #expect(json.status == 1)
            let object = try jsonObject(json.stdout)
            let differences = try #require(object["differences"] as? [[String: Any]])
            #expect(differences.map { $0["location"] as? String } == ["$.version"])
            let ignored = try #require(object["ignored"] as? [[String: Any]]).compactMap { $0["location"] as? String }
            #expect(ignored.contains("header X-Request-Id"))
            #expect(ignored.contains("header X-Mock-Example"))

            // --all-headers compares the volatile ones too; the same side twice is no difference.
            let strict = try await CLI.run(
                ["diff", "httpbin/deployment", "--env", "blue", "--env", "green", "--catalog", catalog.path, "--all-headers"], state: state)
            #expect(strict.output.contains("~ header X-Request-Id: 7c1e4d2a-blue → 0b9f31c6-green"))
            let same = try await CLI.run(["diff", "httpbin/deployment", "--env", "blue", "--env", "blue", "--catalog", catalog.path], state: state)
            #expect(same.status == 0, "\(same.output)")
            #expect(same.output.contains("No differences"))
        }
    }

    /// A server whose answer has a random `nonce`, and a `name` that depends on the path's side.
    static func noisy(_ request: TestRequest) -> TestResponse {
        let name = request.uri.hasPrefix("/b/") ? "Max" : "Rex"
        return .json(#"{"name":"\#(name)","nonce":"\#(UUID().uuidString)","list":[1,2]}"#)
    }

    static func twoSides(_ baseURL: String) -> String {
        """
        service: pets
        environments:
          a: { baseURL: "\(baseURL)/a", fixtures: never, retry: none }
          b: { baseURL: "\(baseURL)/b", fixtures: never, retry: none }
        endpoints:
          pet: { path: /pet }
        """
    }

    @Test func theNoiseFilterDropsWhatDiffersBetweenTwoSendsToTheSameSide() async throws {
        try await withTestHTTPServer(handler: Self.noisy) { server in
            let folder = try TemporaryDirectory()
            try folder.write("pets.yaml", Self.twoSides(server.baseURL.absoluteString))
            let state = try TemporaryDirectory()
            let plain = try await CLI.run(["diff", "pets/pet", "--env", "a", "--env", "b", "--catalog", folder.path, "--json"], state: state)
            #expect(plain.status == 1)
            let all = try #require(try jsonObject(plain.stdout)["differences"] as? [[String: Any]]).compactMap { $0["location"] as? String }
            #expect(all == ["$.name", "$.nonce"])

            let filtered = try await CLI.run(
                ["diff", "pets/pet", "--env", "a", "--env", "b", "--noise", "--catalog", folder.path, "--json"], state: state)
            #expect(filtered.status == 1)
            let object = try jsonObject(filtered.stdout)
            #expect((object["differences"] as? [[String: Any]])?.compactMap { $0["location"] as? String } == ["$.name"])
            #expect((object["noise"] as? [[String: Any]])?.compactMap { $0["location"] as? String } == ["$.nonce"])
            // Three requests: the first side twice, the other once.
            #expect(server.requests.suffix(3).map(\.uri) == ["/a/pet", "/a/pet", "/b/pet"])
        }
    }

    @Test func aResponseAgainstTheLastOneKept() async throws {
        try await withTestHTTPServer(handler: Self.noisy) { server in
            let folder = try TemporaryDirectory()
            try folder.write("pets.yaml", Self.twoSides(server.baseURL.absoluteString))
            let state = try TemporaryDirectory()
            let none = try await CLI.run(["diff", "pets/pet", "--env", "a", "--history", "--catalog", folder.path], state: state)
            #expect(none.status == 2)
            #expect(none.errors.contains("the history has no response of pets/pet in a"))
            let kept = try await CLI.run(["call", "pets/pet", "--env", "a", "--catalog", folder.path], state: state)
            #expect(kept.status == 0)
            let run = try await CLI.run(["diff", "pets/pet", "--env", "a", "--history", "--catalog", folder.path], state: state)
            #expect(run.status == 1)
            #expect(run.output.contains("pets/pet: a ↔ history "))
            #expect(run.output.contains("~ $.nonce: "))
            #expect(!run.output.contains("$.name"))
        }
    }

    @Test func usageAndFailedTransfers() async throws {
        let state = try TemporaryDirectory()
        let one = try await CLI.run(["diff", "httpbin/deployment", "--env", "blue"], state: state)
        #expect(one.status == 2)
        #expect(one.errors.contains("Give two environments"))
        let folder = try TemporaryDirectory()
        try folder.write("pets.yaml", Self.twoSides("http://127.0.0.1:9"))
        let refused = try await CLI.run(["diff", "pets/pet", "--env", "a", "--env", "b", "--catalog", folder.path], state: state)
        #expect(refused.status == 2)
        #expect(refused.errors.contains("error: a: cannotConnectToHost"))
    }
}
