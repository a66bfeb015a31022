import CatalogTestSupport
import Foundation
import Synchronization
import SystemSupport
import Testing
import YAMLSupport

@testable import Catalog
import TestTraits

/// The load is linear in files (issue 47, item 4): counted in what it asks of the folder and of
/// the parse cache per file, never in time. 10,000 files took 59 s when each kept parse listed
/// the cache's folder again (N² work); these counts would grow with N if that came back.
@Suite(.offPool) struct CatalogLoadWorkTests {
    /// A folder on disk that counts listings and reads.
    final class CountingFileSystem: CatalogFileSystem {
        let disk: DiskFileSystem
        let counts = Mutex((listings: 0, reads: 0, checks: 0))

        init(root: URL) { disk = DiskFileSystem(root: root) }

        func fileNames() throws(CatalogFolderError) -> [String] {
            counts.withLock { $0.listings += 1 }
            return try disk.fileNames()
        }
        func contents(of path: String, atMost limit: Int) throws(FileReadError) -> Data {
            counts.withLock { $0.reads += 1 }
            return try disk.contents(of: path, atMost: limit)
        }
        func fileExists(_ path: String) -> Bool { disk.fileExists(path) }
        func fileURL(for path: String) -> URL? { disk.fileURL(for: path) }
        func fileNames(in folder: String) -> [String] {
            counts.withLock { $0.listings += 1 }
            return disk.fileNames(in: folder)
        }
        func access(_ path: String, allowingOutside: Bool) -> CatalogFileAccess {
            counts.withLock { $0.checks += 1 }
            return disk.access(path, allowingOutside: allowingOutside)
        }
    }

    /// A parse cache that keeps nothing and counts what it is asked.
    final class CountingCache: CatalogParseCache {
        let counts = Mutex((lookups: 0, keeps: 0, finishes: 0))

        func composition(forFile path: String, identity: FileIdentity) -> YAMLComposer.Composition? {
            counts.withLock { $0.lookups += 1 }
            return nil
        }
        func keep(_ composition: YAMLComposer.Composition, forFile path: String, identity: FileIdentity) {
            counts.withLock { $0.keeps += 1 }
        }
        func finishLoad() { counts.withLock { $0.finishes += 1 } }
    }

    static func folder(files count: Int) throws -> TemporaryCatalog {
        var files: [String: String] = [:]
        for number in 0..<count {
            files[String(format: "s%04d.yaml", number)] = "service: s\(number)\nenvironments: { local: { baseURL: \"http://127.0.0.1:9\" } }\nendpoints: { get: { path: /x } }\n"
        }
        return try TemporaryCatalog(files)
    }

    /// What one load of `count` files costs, per file, and what it costs once: once through a
    /// folder that counts (the parse cache is used for folders on disk only), once on disk with a
    /// cache that counts.
    static func work(files count: Int) throws -> (perFile: [Double], once: [Int], catalog: CatalogSet, progress: CatalogLoadProgress) {
        let folder = try folder(files: count)
        let fileSystem = CountingFileSystem(root: folder.directory)
        let progress = CatalogLoadProgress()
        let catalog = CatalogLoader.reload(
            fileSystem: fileSystem, source: folder.source, previous: nil, changedFiles: nil, trust: .everything, cache: nil, progress: progress)
        let cache = CountingCache()
        let cached = CatalogLoader.reload(
            fileSystem: DiskFileSystem(root: folder.directory), source: folder.source, previous: nil, changedFiles: nil, trust: .everything,
            cache: cache)
        #expect(cached.services.count == catalog.services.count)
        let files = fileSystem.counts.withLock { $0 }
        let kept = cache.counts.withLock { $0 }
        // `.env` is looked for once per load, whatever the count: not a catalog file's work.
        let perFile = [files.reads - 1, files.checks, kept.lookups, kept.keeps].map { Double($0) / Double(count) }
        return (perFile, [files.listings, kept.finishes], catalog, progress)
    }

    @Test func theWorkPerFileIsTheSameForTenTimesTheFiles() throws {
        let small = try Self.work(files: 40)
        let large = try Self.work(files: 400)
        #expect(small.catalog.services.count == 40 && large.catalog.services.count == 400)
        // Each file: read once, looked up and kept once in the cache; the folder listed once and
        // the cache's housekeeping done once, whatever the count.
        #expect(large.perFile == small.perFile, "\(small.perFile) → \(large.perFile)")
        #expect(large.perFile == [1, 0, 1, 1], "\(large.perFile)")
        #expect(small.once == [1, 1] && large.once == [1, 1], "\(small.once) \(large.once)")
        #expect(large.progress.total == 400 && large.progress.read == 400)
    }

    @Test func aCancelledLoadReadsNoMoreFiles() throws {
        let folder = try Self.folder(files: 50)
        let fileSystem = CountingFileSystem(root: folder.directory)
        let progress = CatalogLoadProgress()
        progress.cancel()
        let catalog = CatalogLoader.reload(
            fileSystem: fileSystem, source: folder.source, previous: nil, changedFiles: nil, trust: .everything, cache: nil, progress: progress)
        #expect(catalog.services.isEmpty)
        #expect(progress.read == 0 && progress.total == 50)
        // Only `.env` is looked at after the folder is listed.
        #expect(fileSystem.counts.withLock { $0.reads } <= 1)
    }

    @Test func filesOverTheCapAreNamedAndTheRestLoad() throws {
        let folder = try Self.folder(files: 12)
        let catalog = CatalogLoader.reload(
            fileSystem: DiskFileSystem(root: folder.directory), source: folder.source, previous: nil, changedFiles: nil, trust: .everything, cache: nil,
            fileLimit: 4)
        #expect(catalog.services.map(\.id) == ["s0", "s1", "s2", "s3"])
        let errors = catalog.diagnostics.filter(\.isError)
        #expect(errors.map(\.message) == [
            "the folder holds 12 catalog files, more than the 4 a folder may hold: the first 4 by name were loaded, these 8 were not: "
                + "s0004.yaml, s0005.yaml, s0006.yaml, …, s0010.yaml, s0011.yaml; split the catalogs into several folders"
        ])
        #expect(errors.first?.file == folder.source.displayPath)
    }
}
