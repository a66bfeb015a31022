import CatalogTestSupport
import DispatcherCore
import Foundation
import Sessions
import TestSupport
import Testing

@testable import Catalog
import TestTraits

/// Files a catalog names (body files, certificates) stay in its folder, symbolic links included,
/// unless the catalog says `allowOutsidePaths: true`; each other problem gets its own message.
@Suite(.offPool) struct CatalogPathTests {
    /// The bundled catalogs' paths are normalized as `a/./b/../c` → `a/c`; a plain path is kept as
    /// it is without being rebuilt, with the same result as the general rule.
    @Test func inMemoryPathsNormalizeLikeComponentByComponent() {
        func reference(_ path: String) -> String {
            var parts: [Substring] = []
            for part in path.split(separator: "/") where part != "." {
                if part == ".." { _ = parts.popLast() } else { parts.append(part) }
            }
            return parts.joined(separator: "/")
        }
        let pieces = ["a", "fixtures", ".", "..", "", "...", ".a", "a.", "pet.json"]
        // Every path of up to four of the pieces.
        var longest = pieces
        var paths = pieces
        for _ in 2...4 {
            longest = longest.flatMap { prefix in pieces.map { prefix + "/" + $0 } }
            paths += longest
        }
        for path in paths where InMemoryFileSystem.normalize(path) != reference(path) {
            Issue.record("'\(path)' became '\(InMemoryFileSystem.normalize(path))', not '\(reference(path))'")
        }
        #expect(InMemoryFileSystem.normalize("./fixtures/../fixtures/pet.json") == "fixtures/pet.json")
        #expect(InMemoryFileSystem.normalize("fixtures/pet.json") == "fixtures/pet.json")
    }

    static func catalog(bodyFile: String, ca: String? = nil, allowOutside: Bool = false, maxBodySize: String? = nil) -> String {
        """
        \(allowOutside ? "allowOutsidePaths: true\n" : "")environments:
          local:
            baseURL: http://127.0.0.1:1\(ca.map { "\n    tls: { ca: \"\($0)\" }" } ?? "")\(maxBodySize.map { "\n    maxBodySize: \($0)" } ?? "")
        endpoints:
          one:
            path: /one
            stub: { bodyFile: "\(bodyFile)" }
        """
    }

    /// Diagnostics of the catalog with `bodyFile`, in a folder beside a secret file.
    func diagnose(_ text: String, prepare: (URL) throws -> Void = { _ in }) throws -> [String] {
        let outer = try TemporaryDirectory(prefix: "catalog-paths")
        try outer.write("secret.txt", "top secret")
        let folder = outer.url.appendingPathComponent("cat")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: folder.appendingPathComponent("test.yaml"))
        try Data("{}".utf8).write(to: folder.appendingPathComponent("inside.json"))
        try prepare(folder)
        let catalog = CatalogLoader.load(CatalogSource(origin: .option, directory: folder, displayPath: "cat"), trust: .everything)
        return positions(catalog.diagnostics.filter { !$0.message.contains("was not loaded because") })
    }

    @Test func aRelativePathOutOfTheFolderIsRefused() throws {
        let found = try diagnose(Self.catalog(bodyFile: "../secret.txt"))
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("7:23: error: the body file of the stub of endpoint 'one' is outside the catalog folder") == true, "\(found)")
        #expect(found.first?.contains("allowOutsidePaths: true") == true)
    }

    @Test func anAbsolutePathAndACertificateOutOfTheFolderAreRefused() throws {
        let found = try diagnose(Self.catalog(bodyFile: "/etc/hostname", ca: "/etc/ssl/certs/ca-certificates.crt"))
        #expect(found.count == 2, "\(found)")
        #expect(found.allSatisfy { $0.contains("is outside the catalog folder") })
    }

    @Test func aSymbolicLinkOutOfTheFolderIsRefused() throws {
        let found = try diagnose(Self.catalog(bodyFile: "link.json")) { folder in
            try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("link.json").path, withDestinationPath: "../secret.txt")
        }
        #expect(found.count == 1)
        #expect(found.first?.contains("is outside the catalog folder (it resolves to '") == true, "\(found)")
        #expect(found.first?.contains("secret.txt") == true)
    }

    @Test func aSymbolicLinkInsideTheFolderIsFine() throws {
        let found = try diagnose(Self.catalog(bodyFile: "link.json")) { folder in
            try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("link.json").path, withDestinationPath: "inside.json")
        }
        #expect(found.isEmpty, "\(found)")
    }

    @Test func theOptInAllowsOutsidePaths() throws {
        #expect(try diagnose(Self.catalog(bodyFile: "../secret.txt", allowOutside: true)).isEmpty)
    }

    @Test func aFolderADeviceAndALoopGetTheirOwnMessages() throws {
        let folder = try diagnose(Self.catalog(bodyFile: "fixtures")) { folder in
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("fixtures"), withIntermediateDirectories: true)
        }
        #expect(folder == ["7:23: error: the body file of the stub of endpoint 'one' is a folder, not a file: 'fixtures'"])
        let device = try diagnose(Self.catalog(bodyFile: "/dev/null", allowOutside: true))
        #expect(device == ["8:23: error: the body file of the stub of endpoint 'one' is not a regular file (a device, a pipe or a socket): '/dev/null'"])
        let loop = try diagnose(Self.catalog(bodyFile: "a.json")) { folder in
            try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("a.json").path, withDestinationPath: "b.json")
            try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("b.json").path, withDestinationPath: "a.json")
        }
        #expect(loop == ["7:23: error: the body file of the stub of endpoint 'one' is a symbolic link loop (a.json → b.json → a.json): 'a.json'"])
    }

    @Test func aBodyFileOverMaxBodySizeIsNotRead() throws {
        let found = try diagnose(Self.catalog(bodyFile: "big.json", maxBodySize: "1KB")) { folder in
            try Data(repeating: UInt8(ascii: " "), count: 5000).write(to: folder.appendingPathComponent("big.json"))
        }
        #expect(found == ["8:23: error: the body file of the stub of endpoint 'one' is 5.0 kB, larger than maxBodySize (1.0 kB): 'big.json'"])
    }

    @Test func aStubBodyOverTheEnvironmentsCapIsBodyTooLarge() async throws {
        let service = try loadCleanService("""
            environments:
              local: { baseURL: "http://127.0.0.1:1", maxBodySize: 10B }
            endpoints:
              one:
                path: /one
                stub: { body: "more than ten bytes of body" }
            """)
        let session = ServiceSession(service: service, environment: service.environments[0], clock: .instant)
        let exchange = await session.send("one", options: RequestOptions(stubBehavior: .immediate))
        #expect(exchange.error?.kind == .bodyTooLarge)
        #expect(exchange.error?.message.contains("larger than the limit of 10 B") == true, "\(exchange.error?.message ?? "")")
    }
}
