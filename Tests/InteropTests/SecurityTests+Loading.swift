import Catalog
import Foundation
import StateStore
import SystemSupport
import TestSupport
import Testing

/// Issue 47, items 4 and 5, from the attacker's side: a folder of more catalog files than anyone
/// browses, FIFOs where catalog and state files are read (a tarball can carry one), and state
/// files of 2 GB. Each command must return, with an error naming the file, never hang or spend
/// the file's size in memory. The bound on each run is generous: only a program that hangs meets it.
extension BinaryTests.SecurityTests {
    /// How long a command may take before it counts as hung.
    static let hangLimit: Duration = .seconds(180)

    /// Runs `apiexplorer arguments…`, failing the test if it had to be killed.
    static func runReturning(
        _ arguments: [String], state: TemporaryDirectory, environment: [String: String] = [:], trusting: Bool = true,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) async throws -> CLI.Result {
        let (result, hung) = try await CLI.run(arguments, state: state, environment: environment, trusting: trusting, killedAfter: hangLimit)
        #expect(!hung, "apiexplorer \(arguments.joined(separator: " ")) hung: \(result.errors)", sourceLocation: sourceLocation)
        return result
    }

    /// A launch of the explorer on an in-memory terminal: it quits once everything is shown and
    /// prints that frame.
    static let headless = ["APIEXPLORER_HEADLESS_LAUNCH": "1"]

    /// Makes a FIFO at `path` (nobody ever writes to it: a reader that opens it blocking hangs).
    static func makeFIFO(_ path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        #expect(mkfifo(path, 0o600) == 0, "mkfifo \(path): \(String(cString: strerror(errno)))")
    }

    /// `good.yaml` with a stub answered from a fixture, and `login` that captures a token.
    static let goodCatalog = """
        service: good
        environments:
          local: { baseURL: "http://127.0.0.1:9", fixtures: immediate }
        endpoints:
          item: { path: /item, stub: { status: 200, bodyFile: fixtures/item.json } }
          login:
            method: POST
            path: /login
            captures: { orderId: $.id }
            stub: { status: 200, body: { id: o-123 } }
        """

    @Test func aFIFONamedLikeACatalogFileOrDotEnvOrAFixtureHangsNoCommand() async throws {
        let folder = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        try folder.write("good.yaml", Self.goodCatalog)
        try Self.makeFIFO(folder.url.appendingPathComponent("trap.yaml").path)
        try Self.makeFIFO(folder.url.appendingPathComponent(".env").path)
        try Self.makeFIFO(folder.url.appendingPathComponent("fixtures/item.json").path)

        let validate = try await Self.runReturning(["validate", folder.path], state: state, trusting: false)
        #expect(validate.status == 1)
        #expect(validate.output.contains("trap.yaml:1:1: error: the file is not a regular file (it is a FIFO (named pipe)), so it is not read"), "\(validate.output)")
        #expect(validate.output.contains(".env:1:1: error: the file is not a regular file (it is a FIFO (named pipe)); no secret is read from it"), "\(validate.output)")
        #expect(validate.output.contains("error: the body file of the stub of endpoint 'item' is not a regular file"), "\(validate.output)")

        let list = try await Self.runReturning(["list", "--catalog", folder.path], state: state)
        #expect(list.output.contains("good/login"), "\(list.output) \(list.errors)")

        // The endpoint whose stub is the FIFO is refused; the other answers.
        let item = try await Self.runReturning(["call", "good/item", "--stub", "--catalog", folder.path], state: state)
        #expect(item.status != 0)
        let login = try await Self.runReturning(["call", "good/login", "--stub", "--catalog", folder.path], state: state)
        #expect(login.status == 0, "\(login.errors)")
        #expect(login.output.contains("o-123"))

        let explorer = try await Self.runReturning(["--catalog", folder.path], state: state, environment: Self.headless)
        #expect(explorer.status == 0, "\(explorer.errors)")
        #expect(explorer.output.contains("good"), "\(explorer.output)")
    }

    /// A catalog folder with `goodCatalog` and its fixture, an empty state home and the state folder in it.
    static func goodFolders() throws -> (folder: TemporaryDirectory, state: TemporaryDirectory, stateFolder: String) {
        let folder = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        try folder.write("good.yaml", Self.goodCatalog)
        try folder.write("fixtures/item.json", #"{"id": 1}"#)
        let stateFolder = StateDirectory.path(environment: ["XDG_STATE_HOME": state.path])
        try FileManager.default.createDirectory(atPath: stateFolder, withIntermediateDirectories: true)
        return (folder, state, stateFolder)
    }

    @Test func aFIFOAtAStateFileOrTheLaunchIndexHangsNoCommand() async throws {
        let (folder, state, stateFolder) = try Self.goodFolders()
        let cacheFolder = ParsedCatalogCache(directoryPath: stateFolder).folderPath
        let source = CatalogSource.resolve(option: folder.path)
        let launchIndex = try #require(LaunchIndexFile(source: source, cacheFolder: cacheFolder, settings: ""))
        let directory = try #require(source.directory)
        let catalogFile = try #require(DiskFileSystem(root: directory).filePath(for: "good.yaml"))
        let stateFiles = [
            "captured.json", "panes.json", "drafts.json", "values.json", "tokens.json", "cookies.json", "trust.json", "drift.json", "history.jsonl",
        ]
        for name in stateFiles { try Self.makeFIFO(URL.joinedFilePath(stateFolder, name)) }
        try Self.makeFIFO(launchIndex.filePath)
        try Self.makeFIFO(ParsedCatalogCache(directoryPath: stateFolder).filePath(for: catalogFile))

        let validate = try await Self.runReturning(["validate", folder.path], state: state, trusting: false)
        #expect(validate.status == 0, "\(validate.output) \(validate.errors)")
        let list = try await Self.runReturning(["list", "--catalog", folder.path], state: state)
        #expect(list.output.contains("good/item"), "\(list.output) \(list.errors)")
        // The capture cannot be kept over a FIFO: said, and the FIFO is left as it is.
        let login = try await Self.runReturning(["call", "good/login", "--stub", "--catalog", folder.path], state: state)
        #expect(login.output.contains("o-123"), "\(login.errors)")
        #expect(login.errors.contains("captured.json is not a regular file"), "\(login.errors)")
        _ = try await Self.runReturning(["history"], state: state)
        let explorer = try await Self.runReturning(["--catalog", folder.path], state: state, environment: Self.headless)
        #expect(explorer.status == 0, "\(explorer.errors)")
        #expect(explorer.output.contains("good"), "\(explorer.output)")
        // State files are left as they are; the launch index, a cache, is replaced by a whole file (a rename).
        for name in stateFiles { #expect(FileStatus(path: URL.joinedFilePath(stateFolder, name)) == .other, "\(name) was replaced") }
        #expect(FileStatus(path: launchIndex.filePath) != .other)
    }

    /// A 2 GB `captured.json` and `panes.json` (sparse: no disk is spent) are refused by their
    /// size, and never written over: a capture fails naming the file and its limit, and the file
    /// keeps its 2 GB. (That no memory is spent on them is `BoundedReadingTests`': a child's peak
    /// memory measured from here includes this process's, which posix_spawn shares until exec.)
    @Test func aStateFileOfTwoGigabytesIsNeitherReadWholeNorOverwritten() async throws {
        let (folder, state, stateFolder) = try Self.goodFolders()
        let size: off_t = 2 << 30
        for name in ["captured.json", "panes.json", "drafts.json"] {
            let path = URL.joinedFilePath(stateFolder, name)
            let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            #expect(descriptor >= 0)
            #expect(ftruncate(descriptor, size) == 0)
            close(descriptor)
        }

        let login = try await Self.runReturning(["call", "good/login", "--stub", "--catalog", folder.path], state: state)
        #expect(login.output.contains("o-123"), "\(login.errors)")
        #expect(login.errors.contains("captured.json holds 2147483648 bytes, more than the 33554432 bytes (32 MiB) it may hold"), "\(login.errors)")
        #expect(login.errors.contains("nothing was written"), "\(login.errors)")

        let explorer = try await Self.runReturning(["--catalog", folder.path], state: state, environment: Self.headless)
        #expect(explorer.status == 0, "\(explorer.errors)")
        for name in ["captured.json", "panes.json", "drafts.json"] {
            #expect(FileStatus(path: URL.joinedFilePath(stateFolder, name)) == .file(size: Int(size)), "\(name) was rewritten")
        }
    }

    /// 10,001 catalog files: the first 10,000 by name load (the folder's cap), the one over it is
    /// named; the explorer's launch returns with them listed. The work per file is guarded by
    /// counts in `CatalogLoadWorkTests`, not by time here.
    @Test func aFolderOverTheCatalogFileCapLoadsTheFirstAndNamesTheRest() async throws {
        let folder = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        for number in 0...CatalogLoader.maximumFileCount {
            try folder.write(String(format: "s%05d.yaml", number), "service: s\(number)\nenvironments: { local: { baseURL: \"http://127.0.0.1:9\" } }\nendpoints: { get: { path: /x } }\n")
        }
        let validate = try await Self.runReturning(["validate", folder.path], state: state, trusting: false)
        #expect(validate.output.contains("10000 services"), "\(validate.output.prefix(2_000))")
        #expect(validate.output.contains("error: the folder holds 10001 catalog files, more than the 10000 a folder may hold"), "\(validate.output.prefix(2_000))")
        #expect(validate.output.contains("these 1 were not: s10000.yaml"), "\(validate.output.prefix(2_000))")
        let explorer = try await Self.runReturning(["--catalog", folder.path], state: state, environment: Self.headless)
        #expect(explorer.status == 0, "\(explorer.errors)")
        #expect(explorer.output.contains("s0  "), "\(explorer.output)")
    }
}
