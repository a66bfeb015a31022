import Catalog
import Foundation
@testable import StateStore
import TestSupport
import Testing
import TestTraits

/// Drafts and run-time values kept per service and environment.
@Suite(.offPool) struct EnvironmentStateFileTests {
    @Test func savesAndLoadsValuesPerServiceAndEnvironment() throws {
        let folder = try TemporaryDirectory()
        let file = ExplorerStateFiles.values(in: folder.url)
        #expect(file.load().isEmpty)
        let local = EnvironmentKey(catalog: CatalogID(rawValue: "/cat/shop.yaml"), service: "shop", environment: "local")
        let staging = EnvironmentKey(catalog: CatalogID(rawValue: "/cat/shop.yaml"), service: "shop", environment: "staging")
        try file.save([local: ["id": "5"], staging: ["id": "7", "page": "2"]])
        #expect(file.load() == [local: ["id": "5"], staging: ["id": "7", "page": "2"]])
        let attributes = try FileManager.default.attributesOfItem(atPath: file.fileURL.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    @Test func emptyValuesRemoveTheFile() throws {
        let folder = try TemporaryDirectory()
        let file = ExplorerStateFiles.drafts(in: folder.url)
        let key = EnvironmentKey(catalog: CatalogID(rawValue: "/cat/shop.yaml"), service: "shop", environment: "local")
        try file.save([key: ["getItem": EndpointEdits(path: "/items/9")]])
        #expect(file.load()[key]?["getItem"]?.path == "/items/9")
        try file.save([:])
        #expect(!FileManager.default.fileExists(atPath: file.fileURL.path))
        try file.save([:])
    }

    @Test func aDamagedFileLoadsAsEmpty() throws {
        let folder = try TemporaryDirectory()
        let file = ExplorerStateFiles.drafts(in: folder.url)
        try Data("{ not json".utf8).write(to: file.fileURL)
        #expect(file.load().isEmpty)
    }
}

/// Two processes changing the same file: each one's changes stay.
@Suite(.offPool) struct StateFileMergeTests {
    @Test func aSaveKeepsWhatAnotherProcessWroteMeanwhile() throws {
        let folder = try TemporaryDirectory()
        let file = ExplorerStateFiles.drafts(in: folder.url)
        let local = EnvironmentKey(catalog: CatalogID(rawValue: "/cat/shop.yaml"), service: "shop", environment: "local")
        let staging = EnvironmentKey(catalog: CatalogID(rawValue: "/cat/shop.yaml"), service: "shop", environment: "staging")
        // Both read the file when it held one draft.
        try file.save([local: ["a": EndpointEdits(path: "/a")]])
        let base = file.load()
        // One adds a draft of another endpoint and one in staging…
        try file.save([local: ["a": EndpointEdits(path: "/a"), "b": EndpointEdits(path: "/b")], staging: ["s": EndpointEdits(path: "/s")]], over: base)
        // … the other, from what it read, changes `a` and removes nothing it did not see.
        try file.save([local: ["a": EndpointEdits(path: "/a2"), "c": EndpointEdits(path: "/c")]], over: base)
        let merged = file.load()
        #expect(merged[local]?.mapValues(\.path) == ["a": "/a2", "b": "/b", "c": "/c"])
        #expect(merged[staging]?["s"]?.path == "/s")
        // A removal is a change too: of drafts, and of a whole environment's.
        try file.save([local: ["b": EndpointEdits(path: "/b")], staging: merged[staging] ?? [:]], over: merged)
        #expect(file.load()[local]?.keys.sorted() == ["b"])
        #expect(file.load()[staging] != nil)
        try file.save([local: ["b": EndpointEdits(path: "/b")]], over: file.load())
        #expect(file.load()[staging] == nil)
    }

    @Test func updatesReadTheFileAgainUnderItsLock() async throws {
        let folder = try TemporaryDirectory()
        let file = ExplorerStateFiles.values(in: folder.url)
        let key = EnvironmentKey(catalog: CatalogID(rawValue: "/cat/shop.yaml"), service: "shop", environment: "local")
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<40 {
                group.addTask { try? file.update { $0[key, default: [:]]["v\(index)"] = "\(index)" } }
            }
        }
        #expect(file.load()[key]?.count == 40)
    }
}

/// State is filed under the catalog that made it, and state files of the format before catalogs
/// are migrated once: to the one trusted catalog declaring the service, the rest dropped.
@Suite(.offPool) struct StatePerCatalogTests {
    static func catalog(_ files: [String: String], trusted: Bool = true) throws -> (CatalogSet, TemporaryDirectory) {
        let folder = try TemporaryDirectory()
        for (name, text) in files { try folder.write(name, text) }
        return (CatalogLoader.load(.folder(folder.path), trust: trusted ? .everything : .nothing), folder)
    }

    static func service(_ id: String) -> String {
        "service: \(id)\nenvironments:\n  local: { baseURL: \"http://127.0.0.1:9\" }\nendpoints:\n  e: { path: /e }\n"
    }

    @Test func anotherCatalogWithTheSameServiceIdFindsNothing() throws {
        let (first, one) = try Self.catalog(["api.yaml": Self.service("api")])
        let (second, two) = try Self.catalog(["api.yaml": Self.service("api")])
        let state = try TemporaryDirectory()
        let file = ExplorerStateFiles.values(in: state.url)
        let mine = EnvironmentKey(try #require(first.service("api")), environment: "local")
        let theirs = EnvironmentKey(try #require(second.service("api")), environment: "local")
        #expect(mine != theirs)
        #expect(mine.catalog.rawValue.hasSuffix("/api.yaml") && mine.catalog.isFile)
        try file.update { $0[mine] = ["id": "7"] }
        #expect(file.load()[theirs] == nil)
        #expect(file.load()[mine] == ["id": "7"])
        // A folder named through a symbolic link is the same catalog.
        let link = try TemporaryDirectory()
        let linked = link.url.appendingPathComponent("apis").path
        try FileManager.default.createSymbolicLink(atPath: linked, withDestinationPath: one.path)
        let throughLink = CatalogLoader.load(.folder(linked), trust: .everything)
        #expect(try #require(throughLink.service("api")).catalogID == mine.catalog)
        _ = two
    }

    static func legacy(_ contents: String, in state: TemporaryDirectory, name: String = "values.json") throws {
        try state.write(name, contents)
    }

    @Test func legacyEntriesGoToTheOneTrustedCatalogDeclaringTheirService() throws {
        let (catalog, _) = try Self.catalog([
            "api.yaml": Self.service("api"), "twin-a.yaml": Self.service("twin"), "twin-b.yaml": Self.service("twin"),
        ])
        let state = try TemporaryDirectory()
        try Self.legacy(#"{"api": {"local": {"id": "7"}}, "twin": {"local": {"id": "8"}}, "gone": {"local": {"id": "9"}}}"#, in: state)
        let file = ExplorerStateFiles.values(in: state.url)
        // Before the migration, no catalog finds them (and a write keeps them).
        let api = EnvironmentKey(try #require(catalog.service("api")), environment: "local")
        #expect(file.load().isEmpty)
        try file.update { $0[api, default: [:]]["page"] = "2" }
        #expect(try String(contentsOf: file.fileURL, encoding: .utf8).contains(#""gone""#))
        let outcomes = StateMigration.migrate(into: catalog, stateFolder: state.path)
        let outcome = try #require(outcomes.first { $0.file == "values.json" })
        #expect(outcome.kept == ["api/local"])
        #expect(outcome.dropped == ["gone/local", "twin/local"])
        #expect(outcome.note.contains("dropped gone/local, twin/local"))
        // What the catalog wrote since is newer than what the migration brings.
        #expect(file.load() == [api: ["page": "2"]])
        // Once: the next start has nothing to migrate.
        #expect(StateMigration.migrate(into: catalog, stateFolder: state.path).isEmpty)
    }

    @Test func anUntrustedCatalogInheritsNothing() throws {
        let (catalog, _) = try Self.catalog(["api.yaml": Self.service("api")], trusted: false)
        let state = try TemporaryDirectory()
        try Self.legacy(#"{"api": {"local": {"id": "7"}}}"#, in: state)
        let outcome = try #require(StateMigration.migrate(into: catalog, stateFolder: state.path).first)
        #expect(outcome.kept.isEmpty && outcome.dropped == ["api/local"])
        #expect(ExplorerStateFiles.values(in: state.url).load().isEmpty)
    }

    /// Two processes starting at once: the file is migrated once, and what each writes stays.
    @Test func twoMigrationsAtOnceMigrateOnce() async throws {
        let (catalog, _) = try Self.catalog(["api.yaml": Self.service("api")])
        let state = try TemporaryDirectory()
        try Self.legacy(#"{"api": {"local": {"id": "7"}}}"#, in: state)
        let api = EnvironmentKey(try #require(catalog.service("api")), environment: "local")
        let outcomes = await withTaskGroup(of: [StateMigration.Outcome].self) { group in
            for index in 0..<8 {
                group.addTask {
                    let outcome = (try? ExplorerStateFiles.values(in: state.url).migrateLegacyEntries(into: catalog)).map { [$0] } ?? []
                    try? ExplorerStateFiles.values(in: state.url).update { $0[api, default: [:]]["v\(index)"] = "\(index)" }
                    return outcome
                }
            }
            var all: [StateMigration.Outcome] = []
            for await outcome in group { all += outcome }
            return all
        }
        #expect(outcomes.count == 1)
        #expect(outcomes.first?.kept == ["api/local"])
        let values = ExplorerStateFiles.values(in: state.url).load()[api] ?? [:]
        #expect(values["id"] == "7" && values.count == 9)
    }
}
