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
        let local = EnvironmentKey(service: "shop", environment: "local")
        let staging = EnvironmentKey(service: "shop", environment: "staging")
        try file.save([local: ["id": "5"], staging: ["id": "7", "page": "2"]])
        #expect(file.load() == [local: ["id": "5"], staging: ["id": "7", "page": "2"]])
        let attributes = try FileManager.default.attributesOfItem(atPath: file.fileURL.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    @Test func emptyValuesRemoveTheFile() throws {
        let folder = try TemporaryDirectory()
        let file = ExplorerStateFiles.drafts(in: folder.url)
        let key = EnvironmentKey(service: "shop", environment: "local")
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
        let local = EnvironmentKey(service: "shop", environment: "local")
        let staging = EnvironmentKey(service: "shop", environment: "staging")
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
        let key = EnvironmentKey(service: "shop", environment: "local")
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<40 {
                group.addTask { try? file.update { $0[key, default: [:]]["v\(index)"] = "\(index)" } }
            }
        }
        #expect(file.load()[key]?.count == 40)
    }
}
