import CatalogTestSupport
import DispatcherCore
import Foundation
import Sessions
import Synchronization
import Testing

@testable import Catalog
import SystemSupport
import TestTraits

/// Fixture files read when needed (`FixtureReading.whenNeeded`, the explorer's loads): a load of a
/// 1,000-endpoint catalog opens none, a stub send reads the stub's and the picked example's, and a
/// file's problems (missing, outside the folder, too large) are the send's error with the place
/// the load would have reported. Counted in files read, not time.
@Suite(.offPool) struct FixtureReadingTests {
    /// A folder on disk that counts what is asked of its fixture files.
    final class CountingFileSystem: CatalogFileSystem {
        let disk: DiskFileSystem
        private let counts = Mutex((reads: 0, checks: 0))

        init(root: URL) { disk = DiskFileSystem(root: root) }

        /// Fixture files read, and checked (`access`).
        var reads: Int { counts.withLock { $0.reads } }
        var checks: Int { counts.withLock { $0.checks } }

        func fileNames() throws(CatalogFolderError) -> [String] { try disk.fileNames() }
        func contents(of path: String, atMost limit: Int) throws(FileReadError) -> Data {
            if path.hasPrefix("fixtures/") { counts.withLock { $0.reads += 1 } }
            return try disk.contents(of: path, atMost: limit)
        }
        func fileExists(_ path: String) -> Bool { disk.fileExists(path) }
        func fileURL(for path: String) -> URL? { disk.fileURL(for: path) }
        func fileNames(in folder: String) -> [String] { disk.fileNames(in: folder) }
        func access(_ path: String, allowingOutside: Bool) -> CatalogFileAccess {
            if path.hasPrefix("fixtures/") { counts.withLock { $0.checks += 1 } }
            return disk.access(path, allowingOutside: allowingOutside)
        }
    }

    /// `count` endpoints, each with a stub and an example `notFound` read from fixture files.
    static func catalog(endpoints count: Int) throws -> TemporaryCatalog {
        var text = """
            service: big
            environments:
              local: { baseURL: "http://127.0.0.1:9", fixtures: immediate }
            endpoints:

            """
        var files: [String: String] = ["fixtures/not-found.json": #"{"error": "not found"}"#]
        for index in 0..<count {
            text += """
                  op\(index):
                    path: /items/\(index)
                    stub: { status: 200, bodyFile: fixtures/op\(index).json }
                    examples:
                      notFound: { status: 404, bodyFile: fixtures/not-found.json }

                """
            files["fixtures/op\(index).json"] = #"{"id": \#(index)}"#
        }
        files["big.yaml"] = text
        return try TemporaryCatalog(files)
    }

    static func load(_ folder: TemporaryCatalog, _ fileSystem: any CatalogFileSystem, _ reading: FixtureReading) -> CatalogSet {
        CatalogLoader.reload(
            fileSystem: fileSystem, source: folder.source, previous: nil, changedFiles: nil, trust: .everything, cache: nil, fixtures: reading)
    }

    static func session(_ catalog: CatalogSet) throws -> ServiceSession {
        let service = try #require(catalog.services.first)
        return ServiceSession(service: service, environment: service.environments[0], secrets: SecretStore(processEnvironment: [:]), transport: nil)
    }

    @Test func aLoadOfAThousandEndpointsReadsNoFixtureFileAndAStubSendReadsItsOwn() async throws {
        let folder = try Self.catalog(endpoints: 1_000)
        let files = CountingFileSystem(root: folder.directory)
        let catalog = Self.load(folder, files, .whenNeeded)
        #expect(catalog.endpointCount == 1_000 && catalog.diagnostics.isEmpty, "\(catalog.diagnostics.prefix(3))")
        #expect(files.reads == 0 && files.checks == 0)

        let session = try Self.session(catalog)
        let stub = await session.send("op7")
        #expect(stub.response?.body == Data(#"{"id": 7}"#.utf8))
        #expect(stub.response?.headers["Content-Type"] == "application/json")
        #expect(files.reads == 1 && files.checks == 1)
        // A picked example: its file and the stub's (which answers the attempts a handler repeats).
        let notFound = await session.send("op8", options: RequestOptions(example: "notFound"))
        #expect(notFound.error?.status == 404 && notFound.error?.response?.body == Data(#"{"error": "not found"}"#.utf8))
        #expect(files.reads == 3 && files.checks == 3)

        // Reading every fixture at load (validate, call, the mock) reads all 2,000, as before.
        let eager = CountingFileSystem(root: folder.directory)
        let everything = Self.load(folder, eager, .atLoad)
        #expect(eager.reads == 2_000)
        let eagerStub = try #require(everything.services.first?.endpoint("op7")?.stub)
        #expect(eagerStub.bodyFile == nil)
        #expect(try await Self.session(everything).send("op7").response?.body == stub.response?.body)
    }

    /// A fixture's problem, found when a stub answers, is the diagnostic the load would have given.
    @Test func aBadFixtureIsTheSendsErrorAtItsPlaceAsTheLoadWouldHaveSaid() async throws {
        let text = """
            service: shop
            environments:
              local: { baseURL: "http://127.0.0.1:9", fixtures: immediate, maxBodySize: 64 }
            endpoints:
              typo:
                path: /typo
                stub: { bodyFile: fixtures/pett.json }
              outside:
                path: /outside
                stub: { bodyFile: ../secret.json }
              large:
                path: /large
                stub: { bodyFile: fixtures/large.json }
              grows:
                path: /grows
                stub: { bodyFile: fixtures/grows.json }
            """
        let folder = try TemporaryCatalog([
            "test.yaml": text, "fixtures/pet.json": "{}", "fixtures/large.json": String(repeating: "x", count: 65),
            "fixtures/grows.json": "{}",
        ])
        try "secret".write(to: folder.directory.deletingLastPathComponent().appendingPathComponent("secret.json"), atomically: true, encoding: .utf8)
        let lazy = Self.load(folder, DiskFileSystem(root: folder.directory), .whenNeeded)
        #expect(lazy.diagnostics.isEmpty, "problems of fixture files are found when they are read")
        let eager = Self.load(folder, DiskFileSystem(root: folder.directory), .atLoad)
        #expect(eager.diagnostics.count == 3, "\(eager.diagnostics)")
        let session = try Self.session(lazy)
        for (endpoint, line) in [("typo", 7), ("outside", 10), ("large", 13)] {
            let diagnostic = try #require(eager.diagnostics.first { $0.line == line })
            let exchange = await session.send(endpoint)
            #expect(exchange.error?.kind == .invalidRequest)
            #expect(exchange.error?.message == "shop/\(endpoint): \(diagnostic)")
        }
        #expect(eager.diagnostics.contains { $0.description.hasPrefix("cat/test.yaml:7:") && $0.message.hasSuffix("did you mean 'fixtures/pet.json'?") })
        // Bounded as it is read: a file that grew past maxBodySize since the load is refused.
        #expect(await session.send("grows").response?.body == Data("{}".utf8))
        try folder.write("fixtures/grows.json", String(repeating: "y", count: 100))
        let grown = await session.send("grows")
        #expect(grown.error?.message.contains("cat/test.yaml:16:") == true && grown.error?.message.contains("larger than maxBodySize") == true)
    }

    /// A fixture's type from its extension: `.json` without the general lookup, the rest by it.
    @Test func aFixturesContentTypeComesFromItsExtension() {
        #expect(CatalogFileDecoder.contentType(forFile: "fixtures/pet.json") == "application/json")
        #expect(CatalogFileDecoder.contentType(forFile: "PET.JSON") == "application/json")
        #expect(CatalogFileDecoder.contentType(forFile: "fixtures/.json") == nil, "a hidden file has no extension")
        #expect(CatalogFileDecoder.contentType(forFile: ".json") == nil)
        #expect(CatalogFileDecoder.contentType(forFile: "page.html") == "text/html; charset=utf-8")
        #expect(CatalogFileDecoder.contentType(forFile: "notes") == nil)
    }

    /// A stubbed 401 refreshes with the login's fixture file, read then (the refresh does not go
    /// through `send`), and resumes to the stub's.
    @Test func aStubbedRefreshReadsTheLoginsFixtureFile() async throws {
        let text = SessionCatalog.text
            .replacingOccurrences(of: "stub: { body: { data: { token: stub-fresh } } }", with: "stub: { bodyFile: fixtures/login.json }")
            .replacingOccurrences(of: "unauthorized: { status: 401, body: { message: bad token } }", with: "unauthorized: { status: 401, bodyFile: fixtures/401.json }")
        let folder = try TemporaryCatalog([
            "shop.yaml": text, "fixtures/login.json": #"{"data": {"token": "stub-fresh"}}"#, "fixtures/401.json": #"{"message": "bad token"}"#,
        ])
        let files = CountingFileSystem(root: folder.directory)
        let catalog = Self.load(folder, files, .whenNeeded)
        #expect(catalog.diagnostics.isEmpty, "\(catalog.diagnostics)")
        let session = try Self.session(catalog)
        let exchange = await session.send("me", options: RequestOptions(example: "unauthorized"))
        #expect(try exchange.result.get().status == 200)
        #expect(session.credentials.token == "stub-fresh")
        #expect(files.reads == 2, "the example's file and the login's")
    }
}
