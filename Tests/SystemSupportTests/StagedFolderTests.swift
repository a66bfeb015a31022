import FoundationEssentials
import SystemSupport
import TestTraits
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Many files written into a folder at once: complete files or none, a new folder moved in by
/// one rename, files of an existing folder replaced one by one, nothing left staged.
@Suite(.offPool) struct StagedFolderTests {
    @Test func newFoldersMoveInWholeAndExistingOnesReceiveFiles() throws {
        let folder = try SystemSupportTests.temporaryFolder()
        defer { _ = try? ChildProcess("/bin/rm", ["-rf", folder], environment: [:]).wait() }
        let root = URL(fileURLWithPath: folder + "/catalog")
        try StagedFolder.write([
            ("shop.yaml", Data("service: shop\n".utf8)), ("fixtures/shop/a.json", Data("{}".utf8)), ("fixtures/shop/b.json", Data("[]".utf8)),
        ], into: root)
        #expect(FileContents.read(atPath: root.path + "/shop.yaml", atMost: 1 << 30) == Data("service: shop\n".utf8))
        #expect(FileContents.read(atPath: root.path + "/fixtures/shop/b.json", atMost: 1 << 30) == Data("[]".utf8))
        // A file of the user's in an existing folder stays; ours are replaced; a new service's folder comes whole.
        try AtomicFile.write(Data("mine".utf8), to: URL(fileURLWithPath: root.path + "/fixtures/shop/mine.txt"))
        try StagedFolder.write([
            ("fixtures/shop/a.json", Data("{\"new\": 1}".utf8)), ("fixtures/pets/p.json", Data("1".utf8)), ("shop.yaml", Data("service: shop2\n".utf8)),
        ], into: root)
        #expect(FileContents.read(atPath: root.path + "/fixtures/shop/a.json", atMost: 1 << 30) == Data("{\"new\": 1}".utf8))
        #expect(FileContents.read(atPath: root.path + "/fixtures/shop/mine.txt", atMost: 1 << 30) == Data("mine".utf8))
        #expect(FileContents.read(atPath: root.path + "/fixtures/pets/p.json", atMost: 1 << 30) == Data("1".utf8))
        #expect(FileContents.read(atPath: root.path + "/shop.yaml", atMost: 1 << 30) == Data("service: shop2\n".utf8))
        #expect(try DirectoryEntries.names(in: root.path).sorted() == ["fixtures", "shop.yaml"], "no staging folder is left")
    }

    @Test func aPathLeavingTheFolderIsRefusedAndNothingIsWritten() throws {
        let folder = try SystemSupportTests.temporaryFolder()
        defer { _ = try? ChildProcess("/bin/rm", ["-rf", folder], environment: [:]).wait() }
        let root = URL(fileURLWithPath: folder + "/catalog")
        #expect(throws: SystemError.self) {
            try StagedFolder.write([("ok.yaml", Data()), ("../escape.yaml", Data())], into: root)
        }
        #expect(try DirectoryEntries.names(in: root.path).isEmpty)
        #expect(!FileStatus.exists(folder + "/escape.yaml"))
    }
}

/// A staging folder is removed by the next write only when its writer is gone: its lock free and
/// its owner file there (or, without one, after an hour); a live writer's, locked, never.
@Suite(.offPool) struct StagedFolderLeftoverTests {
    @Test func onlyAbandonedStagingFoldersAreRemoved() throws {
        let folder = try SystemSupportTests.temporaryFolder()
        defer { _ = try? ChildProcess("/bin/rm", ["-rf", folder], environment: [:]).wait() }
        for name in [".staging-Killed", ".staging-Living", ".staging-Making", ".staging-Oldies"] {
            #expect(mkdir(folder + "/" + name, 0o755) == 0)
        }
        for name in [".staging-Killed", ".staging-Living"] {
            try AtomicFile.write(Data(), to: URL(fileURLWithPath: folder + "/" + name + "/" + StagedFolder.ownerFile))
        }
        // No owner file: a writer between making and locking it; one over an hour old is an earlier version's.
        var old = [timespec(tv_sec: time(nil) - 7_200, tv_nsec: 0), timespec(tv_sec: time(nil) - 7_200, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, folder + "/.staging-Oldies", &old, 0) == 0)
        let living = open(folder + "/.staging-Living", O_RDONLY | O_DIRECTORY)
        defer { close(living) }
        #expect(flock(living, LOCK_EX | LOCK_NB) == 0)
        StagedFolder.removeStale(in: folder)
        #expect(try DirectoryEntries.names(in: folder).sorted() == [".staging-Living", ".staging-Making"])
    }
}
