import Catalog
import Foundation
import Testing
import TestTraits

/// Reloading while the explorer runs: only changed files are read, and a file broken by an edit
/// keeps its last good version until it is fixed.
@Suite(.offPool) struct CatalogReloadTests {
    static let source = CatalogSource(origin: .option, directory: URL(fileURLWithPath: "/catalogs"), displayPath: "catalogs")

    static func service(_ id: String, endpoints: [String]) -> String {
        """
        service: \(id)
        environments:
          local:
            baseURL: http://127.0.0.1:9
        endpoints:
        \(endpoints.map { "  \($0):\n    path: /\($0)" }.joined(separator: "\n"))
        """
    }

    static func load(_ texts: [String: String], previous: CatalogSet? = nil, changed: Set<String>? = nil) -> CatalogSet {
        CatalogLoader.reload(fileSystem: InMemoryFileSystem(texts: texts), source: source, previous: previous, changedFiles: changed)
    }

    @Test func onlyTheChangedFilesAreReadAgain() {
        let first = Self.load(["a.yaml": Self.service("a", endpoints: ["one"]), "b.yaml": Self.service("b", endpoints: ["one"])])
        // a.yaml changed on disk too, but only b.yaml was reported: a keeps what was loaded.
        let second = Self.load(
            ["a.yaml": Self.service("a", endpoints: ["one", "two"]), "b.yaml": Self.service("b", endpoints: ["one", "two"])],
            previous: first, changed: ["b.yaml"])
        #expect(second.service("a")?.endpoints.map(\.id) == ["one"])
        #expect(second.service("b")?.endpoints.map(\.id) == ["one", "two"])
        #expect(second.diagnostics.isEmpty)
    }

    @Test func addedAndRemovedFilesAreSeen() {
        let first = Self.load(["a.yaml": Self.service("a", endpoints: ["one"])])
        let added = Self.load(
            ["a.yaml": Self.service("a", endpoints: ["one"]), "c.yaml": Self.service("c", endpoints: ["x"])], previous: first, changed: ["c.yaml"])
        #expect(added.services.map(\.id) == ["a", "c"])
        let removed = Self.load(["c.yaml": Self.service("c", endpoints: ["x"])], previous: added, changed: ["a.yaml"])
        #expect(removed.services.map(\.id) == ["c"])
    }

    @Test func aBrokenFileKeepsItsLastGoodVersionUntilFixed() throws {
        let good = Self.load(["a.yaml": Self.service("a", endpoints: ["one", "two"])])
        let broken = Self.load(["a.yaml": Self.service("a", endpoints: ["one", "two"]) + "\n  three: [unclosed"], previous: good, changed: ["a.yaml"])
        #expect(broken.service("a")?.endpoints.map(\.id) == ["one", "two"])
        let messages = broken.diagnostics.map(\.description)
        #expect(messages.contains { $0.contains("keeps its last good version of 'a'") })
        #expect(broken.hasErrors)
        let error = try #require(broken.diagnostics.first { $0.isError })
        #expect(error.file == "catalogs/a.yaml" && error.line >= 9, "\(error)")
        // Broken again in another way: still the last good version.
        let stillBroken = Self.load(["a.yaml": "service: a\nendpoints: ["], previous: broken, changed: ["a.yaml"])
        #expect(stillBroken.service("a")?.endpoints.map(\.id) == ["one", "two"])
        let fixed = Self.load(["a.yaml": Self.service("a", endpoints: ["three"])], previous: stillBroken, changed: ["a.yaml"])
        #expect(fixed.service("a")?.endpoints.map(\.id) == ["three"])
        #expect(fixed.diagnostics.isEmpty)
    }

    @Test func aFileBrokenFromTheStartLoadsWhatItCan() {
        let broken = Self.load(["a.yaml": "service: a\nendpoints: ["])
        #expect(broken.service("a") == nil && broken.hasErrors)
    }

    /// The errors a reload reports for a file are the ones a launch on that file reports, with
    /// the same file:line:column (the reload adds only its note about the last good version).
    @Test func aReloadReportsTheErrorsALaunchReports() {
        let good = Self.service("a", endpoints: ["one", "two"])
        for broken in [good + "\n    heders: {}", good + "\n  three: [unclosed", "service: a\nendpoints: ["] {
            let launch = Self.load(["a.yaml": broken])
            let reloaded = Self.load(["a.yaml": broken], previous: Self.load(["a.yaml": good]), changed: ["a.yaml"])
            let reported = reloaded.diagnostics.filter { !$0.message.contains("last good version") }
            #expect(!launch.diagnostics.isEmpty)
            #expect(reported == launch.diagnostics, "\(broken)")
        }
    }
}
