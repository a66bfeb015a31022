import CatalogTestSupport
import DispatcherCore
import Foundation
import Testing

@testable import Catalog
import TestTraits

/// Loading a folder: every file, in name order; broken files never stop the others.
@Suite(.offPool) struct LoadingTests {
    static let good = """
        service: %@
        environments:
          local: { baseURL: "http://127.0.0.1:1" }
        endpoints:
          one: { path: /one }
          two: { path: /two }
        """

    func service(_ id: String) -> String { Self.good.replacingOccurrences(of: "%@", with: id) }

    @Test func aFolderWithOneBrokenFileLoadsTheRest() throws {
        let folder = try TemporaryCatalog([
            "a.yaml": service("alpha"),
            "b.yaml": "service: beta\nenvironments:\n  local: { baseURL: \"http://127.0.0.1:1\"\nendpoints: {}\n",
            "c.yml": service("gamma"),
            "README.md": "not a catalog",
            ".hidden.yaml": "garbage: [",
            "fixtures/inner.yaml": "garbage: [",
        ])
        let catalog = folder.load()
        #expect(catalog.services.map(\.id) == ["alpha", "gamma"])
        #expect(catalog.endpointCount == 4)
        #expect(catalog.diagnostics.count == 1)
        #expect(catalog.diagnostics.first?.file == "cat/b.yaml")
        #expect(catalog.diagnostics.first?.line == 4)
        #expect(catalog.hasErrors)
        #expect(catalog.summary == "2 services, 4 endpoints; 1 error, 0 warnings in cat/")
    }

    @Test func servicesKeepFileOrderAndEndpointsKeepWrittenOrder() throws {
        let folder = try TemporaryCatalog([
            "z.yaml": "service: last\nenvironments:\n  b: { baseURL: \"http://h\" }\n  a: { baseURL: \"http://h\" }\nendpoints:\n  zeta: { path: /z }\n  alpha: { path: /a }\n",
            "m.yaml": service("middle"),
        ])
        let catalog = folder.load()
        #expect(catalog.services.map(\.id) == ["middle", "last"])
        #expect(catalog.service("last")?.environments.map(\.name) == ["b", "a"])
        #expect(catalog.service("last")?.endpoints.map(\.id) == ["zeta", "alpha"])
        #expect(catalog.endpoint(EndpointKey(service: "last", endpoint: "alpha"))?.endpoint.path == "/a")
        #expect(catalog.endpoint(EndpointKey(service: "last", endpoint: "nothing")) == nil)
    }

    @Test func serviceIdDefaultsToTheFileName() throws {
        let folder = try TemporaryCatalog(["my-api.yaml": "environments:\n  local: { baseURL: \"http://h\" }\n"])
        #expect(folder.load().services.map(\.id) == ["my-api"])
    }

    @Test func aMissingFolderIsOneError() {
        let source = CatalogSource(origin: .option, directory: URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)"), displayPath: "nowhere")
        let catalog = CatalogLoader.load(source)
        #expect(catalog.services.isEmpty)
        #expect(catalog.diagnostics.map(\.description) == ["nowhere:1:1: error: the catalog folder does not exist"])
    }

    @Test func anEmptyFolderIsAWarning() throws {
        let folder = try TemporaryCatalog()
        let catalog = folder.load()
        #expect(catalog.diagnostics.map(\.description) == ["cat:1:1: warning: no catalog files (*.yaml, *.yml) in this folder"])
        #expect(!catalog.hasErrors)
    }

    @Test func inMemoryFileSystemLoadsLikeADisk() {
        let files = InMemoryFileSystem(texts: [
            "x.yaml": "environments:\n  local: { baseURL: \"http://h\" }\nendpoints:\n  one: { path: /one, stub: { bodyFile: ./data/../data/a.json } }\n",
            "data/a.json": "[1]",
        ])
        let catalog = CatalogLoader.load(fileSystem: files, source: .bundled)
        #expect(catalog.diagnostics.isEmpty)
        #expect(catalog.services.first?.file == "<bundled>/x.yaml")
        #expect(catalog.services.first?.endpoints.first?.stub.sample == .response(status: 200, headers: .json, body: Data("[1]".utf8)))
    }

    @Test func dotEnvProblemsAreWarningsWithoutValues() throws {
        let folder = try TemporaryCatalog([
            "a.yaml": service("alpha"),
            ".env": "GOOD=fine\nthis line is wrong s3cr3t-value\nQUOTED=\"never closed s3cr3t-value\n",
        ])
        let catalog = folder.load()
        let dotEnv = catalog.diagnostics.filter { $0.file == "cat/.env" }
        #expect(dotEnv.map(\.description) == [
            "cat/.env:2:1: warning: expected NAME=value: no '=' after the name; the line is ignored",
            "cat/.env:3:1: warning: the quoted value of QUOTED is never closed; the line is ignored",
        ])
        #expect(!catalog.diagnostics.contains { $0.message.contains("s3cr3t") })
    }

    @Test func dotEnvThatGitWouldCommitIsAWarning() throws {
        let repository = try TemporaryCatalog([".git/HEAD": "ref: refs/heads/main\n", "environments/a.yaml": service("alpha"), "environments/.env": "A=b\n"])
        let source = CatalogSource(origin: .option, directory: repository.directory.appendingPathComponent("environments"), displayPath: "environments")
        #expect(CatalogLoader.load(source).diagnostics.map(\.description) == [
            "environments/.env:1:1: warning: this file holds secrets but no .gitignore lists it: add '.env' to .gitignore",
        ])
        try repository.write(".gitignore", ".build/\n**/.env\n")
        #expect(CatalogLoader.load(source).diagnostics.isEmpty)
    }
}

/// Where catalogs come from: --catalog, $APIEXPLORER_CATALOG, ./environments, the bundled ones.
@Suite(.offPool) struct CatalogSourceTests {
    @Test func lookupOrder() {
        let exists: (String) -> Bool = { $0 == "/work/project/environments" }
        let option = CatalogSource.resolve(option: "apis", environment: ["APIEXPLORER_CATALOG": "/etc/apis"], currentDirectory: "/work/project", directoryExists: exists)
        #expect(option.origin == .option)
        #expect(option.directory?.path == "/work/project/apis")
        #expect(option.description == "apis (--catalog)")

        let variable = CatalogSource.resolve(option: nil, environment: ["APIEXPLORER_CATALOG": "/etc/apis"], currentDirectory: "/work/project", directoryExists: exists)
        #expect(variable.origin == .environmentVariable)
        #expect(variable.directory?.path == "/etc/apis")
        #expect(variable.description == "/etc/apis (from $APIEXPLORER_CATALOG)")

        let local = CatalogSource.resolve(option: nil, environment: [:], currentDirectory: "/work/project", directoryExists: exists)
        #expect(local.origin == .workingDirectory)
        #expect(local.directory?.path == "/work/project/environments")
        #expect(CatalogSource.resolve(option: nil, environment: [:], currentDirectory: "/work/project/", directoryExists: exists) == local)
        #expect(local.displayPath(of: "petstore.yaml") == "environments/petstore.yaml")

        let bundled = CatalogSource.resolve(option: nil, environment: [:], currentDirectory: "/elsewhere", directoryExists: exists)
        #expect(bundled == .bundled)
        #expect(bundled.directory == nil)
        #expect(bundled.description == "bundled catalogs (built into apiexplorer)")
    }

    @Test func anExplicitFolderIsUsedEvenWhenMissing() {
        let source = CatalogSource.resolve(option: "typo", environment: [:], currentDirectory: "/work", directoryExists: { _ in true })
        #expect(source.origin == .option)
        #expect(CatalogLoader.load(source).diagnostics.first?.message == "the catalog folder does not exist")
    }

    @Test func trailingSlashesAreNotShownTwice() {
        let source = CatalogSource.folder("apis/", currentDirectory: "/work")
        #expect(source.displayPath(of: "a.yaml") == "apis/a.yaml")
    }
}
