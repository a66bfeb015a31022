import Catalog
import CatalogTestSupport
import Dispatch
import Foundation
@testable import StateStore
import Synchronization
@testable import SystemSupport
import TestSupport
import Testing
import TestTraits
@testable import YAMLSupport

/// The state folder's parsed-catalog cache: a second load of unchanged files parses no YAML, a
/// changed file is parsed again alone, a damaged or foreign cache file is ignored, and what
/// loads is the same as without a cache, diagnostics included. Counted in files parsed, not time.
@Suite(.offPool) struct ParsedCatalogCacheTests {
    /// A service of `count` endpoints, with groups, placeholders and a fixture.
    static func catalog(_ name: String, endpoints count: Int) -> String {
        var text = """
            service: \(name)
            environments:
              local:
                baseURL: http://127.0.0.1:9
                headers: { Authorization: "Bearer {{secret.TOKEN}}" }
            groups:
              items: {}
            endpoints:

            """
        for index in 0..<count {
            text += """
                  op\(index):
                    title: Get item number \(index)
                    group: items
                    method: \(index.isMultiple(of: 2) ? "GET" : "POST")
                    path: /items/{{id}}/\(index)
                    stub: { status: 200, bodyFile: fixtures/item.json }

                """
        }
        return text
    }

    /// Ten files of 100 endpoints: 1,000 endpoints.
    static func largeCatalog() throws -> TemporaryCatalog {
        var files = ["fixtures/item.json": #"{"id": 1}"#]
        for index in 0..<10 { files["part\(index).yaml"] = catalog("part\(index)", endpoints: 100) }
        return try TemporaryCatalog(files)
    }

    private func load(_ folder: TemporaryCatalog, _ cache: ParsedCatalogCache?) -> CatalogSet {
        CatalogLoader.load(folder.source, trust: .everything, cache: cache)
    }

    /// Bumps a file's modification time without changing its bytes (`touch`).
    private func touch(_ url: URL, by seconds: TimeInterval = 5) throws {
        let modified = try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date)
        try FileManager.default.setAttributes([.modificationDate: modified.addingTimeInterval(seconds)], ofItemAtPath: url.path)
    }

    @Test func aSecondLoadOfAnUnchangedCatalogParsesNoFileAndLoadsTheSame() throws {
        let folder = try Self.largeCatalog()
        let state = try TemporaryDirectory()
        let cache = ParsedCatalogCache(directoryPath: state.path)
        let uncached = load(folder, nil)
        #expect(uncached.endpointCount == 1_000 && uncached.readCounts == CatalogReadCounts(parsed: 10, cached: 0))
        let first = load(folder, cache)
        #expect(first.readCounts == CatalogReadCounts(parsed: 10, cached: 0))
        let second = load(folder, cache)
        #expect(second.readCounts == CatalogReadCounts(parsed: 0, cached: 10))
        #expect(second.services == uncached.services)
        #expect(second.diagnostics == uncached.diagnostics)
        // One kept file per catalog file, owner-only.
        let kept = try FileManager.default.contentsOfDirectory(atPath: cache.folderPath)
        #expect(kept.count == 10)
        let attributes = try FileManager.default.attributesOfItem(atPath: cache.filePath(for: folder.directory.appendingPathComponent("part0.yaml").path))
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    @Test func touchingOneFileParsesThatFileAgainAndNoOther() throws {
        let folder = try Self.largeCatalog()
        let state = try TemporaryDirectory()
        let cache = ParsedCatalogCache(directoryPath: state.path)
        _ = load(folder, cache)
        try touch(folder.directory.appendingPathComponent("part3.yaml"))
        #expect(load(folder, cache).readCounts == CatalogReadCounts(parsed: 1, cached: 9))
        #expect(load(folder, cache).readCounts == CatalogReadCounts(parsed: 0, cached: 10))
        // An edit of the same size within the same second is caught by the nanoseconds or the inode.
        let text = Self.catalog("part5", endpoints: 100)
        try folder.write("part5.yaml", text.replacingOccurrences(of: "Get item number 7\n", with: "Get item numbre 7\n"))
        let edited = load(folder, cache)
        #expect(edited.readCounts == CatalogReadCounts(parsed: 1, cached: 9))
        #expect(edited.service("part5")?.endpoint("op7")?.title == "Get item numbre 7")
    }

    @Test func diagnosticsAreTheSameWithTheCache() throws {
        let folder = try TemporaryCatalog([
            "broken.yaml": """
                service: broken
                environments:
                  local: { baseURL: http://127.0.0.1:9 }
                endpoints:
                  one:
                    path: /one
                    heders: { A: b }
                  two:
                    path: /two
                    stub: { bodyFile: fixtures/missing.json }
                  two:
                    path: /again
                """,
            "syntax.yaml": "service: [unclosed\n",
        ])
        try folder.write("latin1.yaml", Data([0x73, 0x3A, 0x20, 0xE9, 0x0A]))
        let state = try TemporaryDirectory()
        let cache = ParsedCatalogCache(directoryPath: state.path)
        let uncached = load(folder, nil)
        #expect(uncached.diagnostics.contains { $0.message.contains("unknown key 'heders'") })
        #expect(uncached.diagnostics.contains { $0.message.contains("duplicate key 'two'") })
        _ = load(folder, cache)
        let cached = load(folder, cache)
        // The file that composed is taken from the cache; the two that did not are parsed again.
        #expect(cached.readCounts == CatalogReadCounts(parsed: 2, cached: 1))
        #expect(cached.diagnostics == uncached.diagnostics)
        #expect(cached.services == uncached.services)
    }

    @Test func aDamagedTruncatedOrForeignCacheFileIsIgnoredAndWrittenAgain() throws {
        let folder = try TemporaryCatalog(["shop.yaml": Self.catalog("shop", endpoints: 20), "fixtures/item.json": "{}"])
        let state = try TemporaryDirectory()
        let cache = ParsedCatalogCache(directoryPath: state.path)
        let expected = load(folder, cache)
        let keptPath = cache.filePath(for: folder.directory.appendingPathComponent("shop.yaml").path)
        let good = try Data(contentsOf: URL(fileURLWithPath: keptPath))
        var flipped = good
        flipped[good.count / 2] ^= 0x01
        let damages: [(String, Data)] = [
            ("truncated", good.prefix(good.count - 9)), ("halved", good.prefix(good.count / 2)), ("empty", Data()),
            ("garbage", Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) })), ("a flipped bit", flipped),
            ("longer", good + Data([0, 0, 0, 0])),
        ]
        for (damage, bytes) in damages {
            try bytes.write(to: URL(fileURLWithPath: keptPath))
            let loaded = load(folder, cache)
            #expect(loaded.readCounts == CatalogReadCounts(parsed: 1, cached: 0), "\(damage)")
            #expect(loaded.services == expected.services, "\(damage)")
            #expect(load(folder, cache).readCounts == CatalogReadCounts(parsed: 0, cached: 1), "\(damage): written again")
        }
        // Another build (or format) of the program: parsed again.
        let otherBuild = ParsedCatalogCache(directoryPath: state.path, build: "another build")
        #expect(load(folder, otherBuild).readCounts == CatalogReadCounts(parsed: 1, cached: 0))
        // A file kept for another path, copied over this one's: its key does not match.
        let other = try TemporaryCatalog(["shop.yaml": Self.catalog("shop", endpoints: 20), "fixtures/item.json": "{}"])
        _ = load(other, cache)
        try FileManager.default.removeItem(atPath: keptPath)
        try FileManager.default.copyItem(atPath: cache.filePath(for: other.directory.appendingPathComponent("shop.yaml").path), toPath: keptPath)
        #expect(load(folder, cache).readCounts == CatalogReadCounts(parsed: 1, cached: 0))
    }

    @Test func theCacheHoldsNoSecretFromDotEnv() throws {
        let folder = try TemporaryCatalog([
            "shop.yaml": Self.catalog("shop", endpoints: 3), "fixtures/item.json": "{}", ".env": "TOKEN=dotenv-secret-value-8f3a\n",
        ])
        let state = try TemporaryDirectory()
        let cache = ParsedCatalogCache(directoryPath: state.path)
        _ = load(folder, cache)
        let kept = try Data(contentsOf: URL(fileURLWithPath: cache.filePath(for: folder.directory.appendingPathComponent("shop.yaml").path)))
        let text = String(decoding: kept, as: UTF8.self)
        #expect(text.contains("{{secret.TOKEN}}"))
        #expect(!text.contains("dotenv-secret-value"))
    }

    @Test func entriesNotWrittenForAMonthGoWhenAnotherIsWritten() throws {
        let folder = try TemporaryCatalog(["shop.yaml": Self.catalog("shop", endpoints: 3), "fixtures/item.json": "{}"])
        let state = try TemporaryDirectory()
        let cache = ParsedCatalogCache(directoryPath: state.path)
        _ = load(folder, cache)
        let kept = cache.filePath(for: folder.directory.appendingPathComponent("shop.yaml").path)
        let stale = URL.joinedFilePath(cache.folderPath, "00000000deadbeef.yamlcache")
        let unrelated = URL.joinedFilePath(cache.folderPath, "notes.txt")
        for path in [stale, unrelated] {
            try Data("old".utf8).write(to: URL(fileURLWithPath: path))
            try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-40 * 24 * 3600)], ofItemAtPath: path)
        }
        // A launch finding everything kept removes nothing.
        #expect(load(folder, cache).readCounts == CatalogReadCounts(parsed: 0, cached: 1))
        #expect(FileManager.default.fileExists(atPath: stale))
        try touch(folder.directory.appendingPathComponent("shop.yaml"))
        #expect(load(folder, cache).readCounts == CatalogReadCounts(parsed: 1, cached: 0))
        #expect(!FileManager.default.fileExists(atPath: stale))
        #expect(FileManager.default.fileExists(atPath: kept) && FileManager.default.fileExists(atPath: unrelated))
    }

    /// Housekeeping is once per load, never per file kept: a stale entry stays while entries are
    /// kept, and goes when the load finishes (each `keep` used to list the folder: N² at launch).
    @Test func staleEntriesGoOncePerLoadNotPerFileKept() throws {
        let folder = try TemporaryCatalog(["shop.yaml": Self.catalog("shop", endpoints: 3), "fixtures/item.json": "{}"])
        let state = try TemporaryDirectory()
        let cache = ParsedCatalogCache(directoryPath: state.path)
        try FileManager.default.createDirectory(atPath: cache.folderPath, withIntermediateDirectories: true)
        let stale = URL.joinedFilePath(cache.folderPath, "00000000deadbeef.yamlcache")
        try Data("old".utf8).write(to: URL(fileURLWithPath: stale))
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-40 * 24 * 3600)], ofItemAtPath: stale)
        let composition = try YAMLComposer.compose("a: 1", markingScalarsContaining: UInt8(ascii: "{"))
        let file = folder.directory.appendingPathComponent("shop.yaml").path
        let identity = try #require(FileIdentity(path: file))
        for _ in 0..<3 { cache.keep(composition, forFile: file, identity: identity) }
        #expect(FileManager.default.fileExists(atPath: stale))
        cache.finishLoad()
        #expect(!FileManager.default.fileExists(atPath: stale))
        #expect(cache.composition(forFile: file, identity: identity) != nil)
    }

    /// Many writers and readers of the same kept file at once, as two explorers launching on the
    /// same catalog: every read is a whole file, old or new (each writer's own content), never a mix.
    @Test func writersAtOnceLeaveAWholeFile() throws {
        let state = try TemporaryDirectory()
        let cache = ParsedCatalogCache(directoryPath: state.path)
        let path = "/catalogs/shop.yaml"
        let versions = try (0..<4).map { version in
            (identity: FileIdentity(size: Int64(version), modifiedSeconds: 1, modifiedNanoseconds: 0, inode: 1, device: 1),
             composition: try YAMLComposer.compose(Self.catalog("shop\(version)", endpoints: 200 + version * 50)))
        }
        let failures = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for round in 0..<15 {
                let version = versions[(worker + round) % versions.count]
                if worker.isMultiple(of: 2) {
                    cache.keep(version.composition, forFile: path, identity: version.identity)
                } else {
                    // A version found is that version, whole (the file may be replaced between two reads).
                    for candidate in versions {
                        guard let read = cache.composition(forFile: path, identity: candidate.identity) else { continue }
                        if read.outline != candidate.composition.outline { failures.withLock { $0 += 1 } }
                    }
                }
            }
        }
        #expect(failures.withLock { $0 } == 0)
        let left = try FileManager.default.contentsOfDirectory(atPath: cache.folderPath)
        #expect(left.count == 1, "\(left)")
        #expect(versions.contains { cache.composition(forFile: path, identity: $0.identity) != nil })
    }
}
