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
