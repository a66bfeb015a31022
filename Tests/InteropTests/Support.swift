import Catalog
import DispatcherCore
import Foundation
import Testing

/// A unique temporary folder, removed when the value goes away.
final class TemporaryDirectory: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("interop-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    var path: String { url.path }

    func write(_ relativePath: String, _ text: String) throws {
        try write(relativePath, Data(text.utf8))
    }

    func write(_ relativePath: String, _ data: Data) throws {
        let file = url.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
    }

    func read(_ relativePath: String) -> String? {
        FileManager.default.contents(atPath: url.appendingPathComponent(relativePath).path).map { String(decoding: $0, as: UTF8.self) }
    }

    func exists(_ relativePath: String) -> Bool {
        FileManager.default.fileExists(atPath: url.appendingPathComponent(relativePath).path)
    }

    /// Every file name in the folder (not recursive).
    func fileNames(in relativePath: String = "") -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: url.appendingPathComponent(relativePath).path))?.sorted() ?? []
    }

    var catalogSource: CatalogSource {
        CatalogSource(origin: .option, directory: url, displayPath: url.path)
    }
}

/// A small catalog: one service `shop` whose `local` environment points at `baseURL`.
enum ShopCatalog {
    static func text(baseURL: String = "http://127.0.0.1:9/shop", fixtures: String = "immediate") -> String {
        """
        # A test catalog.
        service: shop
        title: Test shop

        variables:
          itemId: "7"

        environments:
          local:
            baseURL: \(baseURL)
            fixtures: \(fixtures)
            headers:
              Accept: application/json
            secretDefaults:
              SHOP_TOKEN: shop-secret-token
            retry: none

        groups:
          authenticated:
            headers:
              Authorization: Bearer {{secret.SHOP_TOKEN}}

        endpoints:
          getItem:
            title: One item
            group: authenticated
            path: /items/{{itemId}}
            stub:
              bodyFile: fixtures/shop/item.json
            examples:
              missing:
                description: No such item.
                status: 404
                body: { message: No such item }

          listItems:
            path: /items
            query:
              limit: "{{limit}}"
            parameters: { limit: "10" }
            stub:
              body: [{ id: 1, name: Pen, price: 1.5, tags: [office] }, { id: 2, name: Cup, price: 3, tags: [] }]

          createItem:
            method: POST
            path: /items
            body: { name: "{{name}}" }
            stub:
              status: 201
              body: { id: 3, name: Lamp }

          needsValue:
            path: /search/{{query}}

        """
    }

    static let item = #"{"id": 7, "name": "Pen", "price": 1.5, "owner": {"name": "Ann", "email": null}, "tags": ["office"]}"#

    /// Writes the catalog and its fixture into `folder`.
    static func write(into folder: TemporaryDirectory, baseURL: String = "http://127.0.0.1:9/shop", fixtures: String = "immediate") throws {
        try folder.write("shop.yaml", text(baseURL: baseURL, fixtures: fixtures))
        try folder.write("fixtures/shop/item.json", item + "\n")
    }
}

/// Runs the built `apiexplorer` binary.
enum CLI {
    struct Result {
        var status: Int32
        var stdout: Data
        var stderr: Data
        var output: String { String(decoding: stdout, as: UTF8.self) }
        var errors: String { String(decoding: stderr, as: UTF8.self) }
    }

    /// The binary beside the test bundle (`.build/debug/apiexplorer`), or `$APIEXPLORER_BINARY`.
    static let binary: URL = {
        if let path = ProcessInfo.processInfo.environment["APIEXPLORER_BINARY"] { return URL(fileURLWithPath: path) }
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        for _ in 0..<6 {
            url.deleteLastPathComponent()
            let candidate = url.appendingPathComponent("apiexplorer")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue { return candidate }
        }
        return URL(fileURLWithPath: ".build/debug/apiexplorer")
    }()

    /// Runs `apiexplorer arguments…` with `state` as the XDG state home; no proxies, no inherited catalog.
    static func run(_ arguments: [String], state: TemporaryDirectory, in directory: URL? = nil, environment extra: [String: String] = [:]) async throws -> Result {
        var environment = ProcessInfo.processInfo.environment
        for name in ["APIEXPLORER_CATALOG", "http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"] {
            environment[name] = nil
        }
        environment["XDG_STATE_HOME"] = state.path
        environment.merge(extra) { $1 }
        let spawned = try ChildProcess(binary.path, arguments, environment: environment, directory: (directory ?? state.url).path)
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: spawned.wait()) }
        }
    }
}

/// A child process started with `posix_spawn`, closing every inherited descriptor above 2.
/// Foundation's `Process` lets the child inherit open sockets (the other tests' servers and
/// clients run in this process), which keeps their connections from closing while it runs and
/// makes their timing tests fail.
struct ChildProcess: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private typealias FileAction = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private typealias ChdirAction = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

    let pid: pid_t
    let output: Int32
    let errors: Int32

    init(_ path: String, _ arguments: [String], environment: [String: String], directory: String) throws {
        var outputPipe: [Int32] = [0, 0]
        var errorPipe: [Int32] = [0, 0]
        guard pipe(&outputPipe) == 0, pipe(&errorPipe) == 0 else { throw Failure(description: "pipe failed") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errorPipe[1], 2)
        guard let closeFrom = Self.symbol("posix_spawn_file_actions_addclosefrom_np", as: FileAction.self),
            let changeDirectory = Self.symbol("posix_spawn_file_actions_addchdir_np", as: ChdirAction.self)
        else { throw Failure(description: "this C library cannot close inherited descriptors in posix_spawn") }
        _ = directory.withCString { changeDirectory(&actions, $0) }
        _ = closeFrom(&actions, 3)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, path, &actions, nil, argv, envp)
        close(outputPipe[1])
        close(errorPipe[1])
        guard status == 0 else {
            close(outputPipe[0])
            close(errorPipe[0])
            throw Failure(description: "cannot start \(path): \(String(cString: strerror(status)))")
        }
        self.pid = pid
        output = outputPipe[0]
        errors = errorPipe[0]
    }

    /// Reads both outputs to their end and waits for the exit (blocks: call off the test's executor).
    func wait() -> CLI.Result {
        let group = DispatchGroup()
        nonisolated(unsafe) var errorData = Data()
        DispatchQueue.global().async(group: group) { errorData = Self.readAll(errors) }
        let outputData = Self.readAll(output)
        group.wait()
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        // Exit status when it exited, else 128 + the signal, as shells report it.
        let code = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return CLI.Result(status: code, stdout: outputData, stderr: errorData)
    }

    private static func readAll(_ descriptor: Int32) -> Data {
        defer { close(descriptor) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count > 0 {
                data.append(contentsOf: buffer[0..<count])
            } else if count == 0 || errno != EINTR {
                return data
            }
        }
    }

    private static func symbol<T>(_ name: String, as type: T.Type) -> T? {
        guard let pointer = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
        return unsafeBitCast(pointer, to: type)
    }
}

/// Reads JSON output as Foundation objects for field checks.
func jsonObject(_ data: Data) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
}
