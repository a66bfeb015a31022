import FoundationEssentials
import SystemSupport
import Testing

#if canImport(Glibc)
import Glibc
import TestTraits
#endif

@Suite(.offPool) struct SystemSupportTests {
    static func temporaryFolder() throws -> String {
        var template = Array("/tmp/systemsupport.XXXXXX".utf8CString)
        let path = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        return String(cString: try #require(path))
    }

    @Test func directoryEntriesNameWhatIsInAFolder() throws {
        let folder = try Self.temporaryFolder()
        defer { _ = try? ChildProcess("/bin/rm", ["-rf", folder], environment: [:]).wait() }
        for name in ["a.yaml", ".hidden", "é b.yml"] {
            let descriptor = open(folder + "/" + name, O_WRONLY | O_CREAT, 0o600)
            #expect(descriptor >= 0)
            close(descriptor)
        }
        #expect(mkdir(folder + "/fixtures", 0o700) == 0)
        #expect(try DirectoryEntries.names(in: folder).sorted() == [".hidden", "a.yaml", "fixtures", "é b.yml"])
        #expect(try DirectoryEntries.names(in: folder + "/fixtures").isEmpty)
        #expect(throws: SystemError("cannot read \(folder)/missing", number: ENOENT)) { try DirectoryEntries.names(in: folder + "/missing") }
    }

    @Test func fileContentsReadWholeRegularFilesOnly() throws {
        let folder = try Self.temporaryFolder()
        defer { _ = try? ChildProcess("/bin/rm", ["-rf", folder], environment: [:]).wait() }
        func write(_ bytes: [UInt8], to name: String) throws {
            let descriptor = open(folder + "/" + name, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            #expect(descriptor >= 0)
            defer { close(descriptor) }
            try FileDescriptor.writeAll(bytes, to: descriptor)
        }
        let large = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try write(large, to: "large.bin")
        try write([], to: "empty")
        try write(Array("hello\n".utf8), to: "small.txt")
        #expect(FileContents.read(atPath: folder + "/large.bin", atMost: 1 << 30) == Data(large))
        #expect(FileContents.read(atPath: folder + "/empty", atMost: 1 << 30) == Data())
        #expect(FileContents.read(atPath: folder + "/small.txt", atMost: 1 << 30) == Data("hello\n".utf8))
        #expect(FileContents.read(atPath: folder + "/missing", atMost: 1 << 30) == nil)
        #expect(FileContents.read(atPath: folder, atMost: 1 << 30) == nil, "a folder is not a file")
        #expect(FileContents.read(atPath: "/dev/null", atMost: 1 << 30) == nil, "nor is a device")
    }

    @Test func filePathsJoinLikeURLsPathComponents() {
        for folder in ["/a/b", "/a/b/", "/", "/tmp/é b"] {
            for name in ["c.json", "fixtures/ca.pem", "with space%20.txt", ".env", "名前"] {
                let joined = URL(fileURLWithPath: folder).appendingFilePath(name)
                #expect(joined.path == URL(fileURLWithPath: folder).appendingPathComponent(name).path, "\(folder) + \(name)")
                #expect(joined.isFileURL)
            }
        }
    }

    @Test func childProcessPipesInputAndOutput() throws {
        let child = try ChildProcess("/bin/sh", ["-c", "tr a-z A-Z; echo oops >&2; exit 3"], environment: [:], input: .pipe)
        try FileDescriptor.writeAll(Array("hello".utf8), to: try #require(child.input))
        close(try #require(child.input))
        let output = String(decoding: FileDescriptor.readAll(try #require(child.output)), as: UTF8.self)
        let errors = String(decoding: FileDescriptor.readAll(try #require(child.errors)), as: UTF8.self)
        #expect(output == "HELLO")
        #expect(errors == "oops\n")
        #expect(child.wait() == 3)
    }

    @Test func childProcessKilledReportsTheSignal() throws {
        let child = try ChildProcess("/bin/sleep", ["30"], environment: [:], output: .null, errors: .null)
        child.kill()
        #expect(child.wait() == 128 + SIGKILL)
    }

    @Test func childProcessThatCannotStartSaysWhy() {
        #expect(throws: SystemError.self) { try ChildProcess("/nonexistent/program", [], environment: [:]) }
    }

    @Test func childProcessRunsInTheGivenFolderWithOnlyTheGivenEnvironment() throws {
        let child = try ChildProcess("/bin/sh", ["-c", "pwd; echo \"$ONLY\"; env | wc -l"], environment: ["ONLY": "me"], directory: "/tmp")
        let output = String(decoding: FileDescriptor.readAll(try #require(child.output)), as: UTF8.self)
        _ = child.wait()
        let lines = output.split(separator: "\n").map(String.init)
        #expect(lines.first == "/tmp")
        #expect(lines.dropFirst().first == "me")
    }

    @Test func atomicFileReplacesWholeOrNotAtAll() throws {
        let folder = try Self.temporaryFolder()
        let target = URL(fileURLWithPath: folder + "/nested/deeper/file.txt")
        try AtomicFile.createDirectory(target.deletingLastPathComponent())
        try AtomicFile.write(Data("one".utf8), to: target, permissions: 0o600)
        #expect(FileStatus(path: target.path) == .file(size: 3))
        struct Interrupted: Error {}
        #expect(throws: SystemError.self) { try AtomicFile.write(Data("two".utf8), to: target) { throw Interrupted() } }
        let contents = String(decoding: FileDescriptor.readAll(open(target.path, O_RDONLY)), as: UTF8.self)
        #expect(contents == "one")
        // No temporary file is left behind by the interrupted write.
        let entries = try FileManager.default.contentsOfDirectory(atPath: target.deletingLastPathComponent().path)
        #expect(entries == ["file.txt"])
        var info = stat()
        stat(target.path, &info)
        #expect(info.st_mode & 0o777 == 0o600)
    }

    @Test func fileStatusTellsFilesFoldersAndDevicesApart() {
        #expect(FileStatus(path: "/") == .directory)
        #expect(FileStatus(path: "/dev/null") == .other)
        #expect(FileStatus(path: "/nonexistent") == .missing)
        #expect(FileStatus.isExecutable("/bin/sh"))
        #expect(!FileStatus.isExecutable("/"))
    }

    @Test func homeAndSearchPath() {
        #expect(HomeDirectory.expandingTilde("~/x", environment: ["HOME": "/home/me"]) == "/home/me/x")
        #expect(HomeDirectory.expandingTilde("a/~", environment: ["HOME": "/home/me"]) == "a/~")
        #expect(ExecutableSearch.locate("sh", searchPath: "/nonexistent:/bin") == "/bin/sh")
        #expect(ExecutableSearch.locate("no-such-program", searchPath: "/bin:/usr/bin") == nil)
    }

    @Test func threadRuns() async {
        await withCheckedContinuation { continuation in
            PosixThread.start { continuation.resume() }
        }
    }
}
