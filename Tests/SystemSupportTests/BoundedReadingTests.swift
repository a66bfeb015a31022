import FoundationEssentials
import SystemSupport
import Testing

#if canImport(Glibc)
import Glibc
import TestTraits
#endif

/// Files are read only when they are regular, and only up to their limit (issue 47, item 5); a
/// folder's entries are read without reading past the C library's buffer (issue 49, item 7).
@Suite(.offPool) struct BoundedReadingTests {
    static func folder() throws -> String { try SystemSupportTests.temporaryFolder() }

    static func remove(_ folder: String) { _ = try? ChildProcess("/bin/rm", ["-rf", folder], environment: [:]).wait() }

    @Test func aRegularFileWithinItsLimitIsRead() throws {
        let folder = try Self.folder()
        defer { Self.remove(folder) }
        try AtomicFile.write(Data("hello".utf8), to: URL(fileURLWithPath: folder + "/a.txt"))
        #expect(try FileContents.contents(atPath: folder + "/a.txt", limit: 5) == Data("hello".utf8))
        #expect(throws: FileReadError.tooLarge(path: folder + "/a.txt", size: 5, limit: 4)) { try FileContents.contents(atPath: folder + "/a.txt", limit: 4) }
        #expect(throws: FileReadError.missing(path: folder + "/b.txt")) { try FileContents.contents(atPath: folder + "/b.txt", limit: 5) }
        #expect(FileContents.read(atPath: folder + "/b.txt", atMost: 5) == nil)
    }

    /// A FIFO nobody writes to blocks a plain `open` for good: it is refused at once instead.
    @Test func aFIFOIsRefusedWithoutBlocking() throws {
        let folder = try Self.folder()
        defer { Self.remove(folder) }
        #expect(mkfifo(folder + "/trap.yaml", 0o600) == 0)
        #expect(throws: FileReadError.notRegularFile(path: folder + "/trap.yaml", kind: "a FIFO (named pipe)")) {
            try FileContents.contents(atPath: folder + "/trap.yaml", limit: 1 << 20)
        }
        #expect(FileContents.read(atPath: folder + "/trap.yaml", atMost: 1 << 20) == nil)
        #expect(
            FileReadError.notRegularFile(path: "/x/trap.yaml", kind: "a FIFO (named pipe)").description
                == "/x/trap.yaml is not a regular file (it is a FIFO (named pipe)), so it is not read")
    }

    @Test func devicesAndFoldersAreRefused() throws {
        #expect(throws: FileReadError.notRegularFile(path: "/dev/zero", kind: "a device")) { try FileContents.contents(atPath: "/dev/zero", limit: 10) }
        #expect(throws: FileReadError.notRegularFile(path: "/tmp", kind: "a folder")) { try FileContents.contents(atPath: "/tmp", limit: 10) }
    }

    @Test func aSymbolicLinkIsFollowedOnlyWhenAllowed() throws {
        let folder = try Self.folder()
        defer { Self.remove(folder) }
        try AtomicFile.write(Data("target".utf8), to: URL(fileURLWithPath: folder + "/target"))
        #expect(symlink(folder + "/target", folder + "/link") == 0)
        #expect(try FileContents.contents(atPath: folder + "/link", limit: 100) == Data("target".utf8))
        #expect(throws: FileReadError.symbolicLink(path: folder + "/link")) { try FileContents.contents(atPath: folder + "/link", limit: 100, followingLinks: false) }
    }

    /// A 2 GB file (sparse: no disk is spent) is refused by its size, before a byte of it is read.
    @Test func aTwoGigabyteFileIsRefusedBeforeMemoryIsSpent() throws {
        let folder = try Self.folder()
        defer { Self.remove(folder) }
        let path = folder + "/captured.json"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        #expect(descriptor >= 0)
        #expect(ftruncate(descriptor, 2 << 30) == 0)
        close(descriptor)
        var before = rusage()
        getrusage(RUSAGE_SELF.rawValue, &before)
        #expect(throws: FileReadError.tooLarge(path: path, size: 2 << 30, limit: 64 << 10)) { try FileContents.contents(atPath: path, limit: 64 << 10) }
        var after = rusage()
        getrusage(RUSAGE_SELF.rawValue, &after)
        // Kilobytes on Linux: the peak did not grow by anything like the file.
        #expect(after.ru_maxrss - before.ru_maxrss < 256 * 1024)
        #expect(
            FileReadError.tooLarge(path: path, size: 2 << 30, limit: 64 << 10).description
                == "\(path) holds 2147483648 bytes, more than the 65536 bytes (64 KiB) it may hold, so it is not read")
    }

    @Test func limitsAreWrittenExactly() {
        #expect(FileReadError.limitText(16 << 20) == "16777216 bytes (16 MiB)")
        #expect(FileReadError.limitText(1_000) == "1000 bytes")
        #expect(FileReadError.limitText(3 << 30) == "3221225472 bytes (3 GiB)")
    }

    /// The cause of the launch crash (issue 49): a `readdir` record is only as long as its name,
    /// and the whole 256-byte `d_name` used to be copied out of it. Here the record ends a page
    /// whose next page may not be read, as the C library's buffer can end a thread's heap: reading
    /// past the record faults (the test process would die), reading the name in place does not.
    @Test func aFolderEntryIsReadWithinItsRecord() throws {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let memory = try #require(mmap(nil, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0))
        #expect(memory != MAP_FAILED)
        defer { munmap(memory, 2 * page) }
        #expect(mprotect(memory + page, page, PROT_NONE) == 0)
        let name = "pets.json"
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        // As the kernel lays it out: the header, the name and its NUL, rounded up to 8 bytes.
        let recordLength = (nameOffset + name.utf8.count + 1 + 7) & ~7
        let record = memory + page - recordLength
        record.storeBytes(of: UInt8(DT_REG), toByteOffset: MemoryLayout<dirent>.offset(of: \dirent.d_type)!, as: UInt8.self)
        for (index, byte) in (Array(name.utf8) + [0]).enumerated() { record.storeBytes(of: byte, toByteOffset: nameOffset + index, as: UInt8.self) }
        let entry = UnsafePointer<dirent>(record.assumingMemoryBound(to: dirent.self))
        #expect(DirectoryEntries.name(of: entry) == "pets.json")
        #expect(!DirectoryEntries.isDirectory(entry))
    }

    /// A folder whose entries fill the C library's buffer to its end (long names, hundreds of
    /// them: an imported catalog's fixtures) is listed whole, by both readers.
    @Test func aFolderThatFillsTheReadBufferIsListedWhole() async throws {
        let folder = try Self.folder()
        defer { Self.remove(folder) }
        #expect(mkdir(folder + "/fixtures", 0o700) == 0)
        let names = (0..<700).map { "get_files_id_metadata_enterprise_securityClassification_\($0).json" }
        for name in names {
            let descriptor = open(folder + "/fixtures/" + name, O_WRONLY | O_CREAT, 0o600)
            close(descriptor)
        }
        #expect(try DirectoryEntries.names(in: folder + "/fixtures").sorted() == names.sorted())
        let watcher = try FileWatcher(directory: folder)
        watcher.stop()
        var iterator = watcher.changes.makeAsyncIterator()
        #expect(await iterator.next() == nil)
    }

    /// Stopping twice is harmless (the pipe is closed once, never written after), and ends the changes.
    @Test func aWatcherStopsOnce() async throws {
        let folder = try Self.folder()
        defer { Self.remove(folder) }
        for _ in 0..<20 {
            let watcher = try FileWatcher(directory: folder)
            watcher.stop()
            watcher.stop()
            var iterator = watcher.changes.makeAsyncIterator()
            #expect(await iterator.next() == nil)
        }
    }
}
