import Catalog
import Foundation
@testable import StateStore
import SystemSupport
import TestSupport
import Testing
import TestTraits

/// State files are read only when regular and within their limit, and one that is not is never
/// written over (issue 47, item 5): an oversized `captured.json` must not become `{}` plus one value.
@Suite(.offPool) struct StateFileLimitTests {
    /// A sparse file of `size` bytes (no disk is spent).
    static func sparse(_ path: String, size: off_t) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        #expect(descriptor >= 0)
        #expect(ftruncate(descriptor, size) == 0)
        close(descriptor)
    }

    @Test func anOversizedStateFileIsNotReadNorOverwritten() throws {
        let folder = try TemporaryDirectory()
        let file = ExplorerStateFiles.captured(inFolder: folder.path)
        let size: off_t = 2 << 30
        Self.sparse(file.fileURL.path, size: size)
        #expect(file.load().isEmpty)
        #expect(throws: FileReadError.tooLarge(path: file.fileURL.path, size: Int(size), limit: 32 << 20)) { try file.read() }
        let key = EnvironmentKey(catalog: .inMemory("shop"), service: "shop", environment: "local")
        do {
            try file.update { $0[key] = CapturedValues() }
            Issue.record("the update wrote over a file it could not read")
        } catch {
            #expect(error.description.contains("\(file.fileURL.path) holds 2147483648 bytes, more than the 33554432 bytes (32 MiB) it may hold"))
            #expect(error.description.contains("it was left as it is and nothing was written"))
        }
        #expect(FileStatus(path: file.fileURL.path) == .file(size: Int(size)))
    }

    @Test func aFIFOAtAStateFileIsNeitherWaitedForNorReplaced() throws {
        let folder = try TemporaryDirectory()
        let file = ExplorerStateFiles.drafts(inFolder: folder.path)
        #expect(mkfifo(file.fileURL.path, 0o600) == 0)
        #expect(file.load().isEmpty)
        #expect(throws: SystemError.self) { try file.update { $0[EnvironmentKey(catalog: .inMemory("a"), service: "a", environment: "b")] = [:] } }
        #expect(FileStatus(path: file.fileURL.path) == .other)
        // Panes: one width, which is all rewriting it loses; a FIFO is not read.
        let panes = PanesFile(directoryPath: folder.path)
        #expect(mkfifo(folder.url.appendingPathComponent("panes.json").path, 0o600) == 0)
        #expect(panes.load() == PanesFile.Settings())
    }

    @Test func anOversizedDriftFileIsNotReplacedByOneReport() throws {
        let folder = try TemporaryDirectory()
        let store = DriftStore(directoryPath: folder.path)
        Self.sparse(store.fileURL.path, size: 64 << 20)
        #expect(store.everyResult().isEmpty)
        #expect(throws: SystemError.self) {
            try store.save(DriftReport(service: "s", environment: "e", date: Date(), endpoints: []), of: .inMemory("s"))
        }
        #expect(FileStatus(path: store.fileURL.path) == .file(size: 64 << 20))
    }

    @Test func aFIFOAtTheHistoryIndexIsNotWaitedFor() throws {
        let folder = try TemporaryDirectory()
        let store = HistoryStore(directoryPath: folder.path)
        #expect(mkfifo(store.fileURL.path, 0o600) == 0)
        #expect(store.summaries().isEmpty)
        #expect(FileStatus(path: store.fileURL.path) == .other)
    }
}
