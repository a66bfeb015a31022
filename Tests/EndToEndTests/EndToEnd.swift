import Foundation
import SystemSupport
import TestSupport
import Testing
import TestTraits

/// Every end-to-end test runs the real `apiexplorer` binary. They run one at a time: they share
/// the machine's terminal emulator (tmux) budget and the bundled catalogs' mock port 4010.
@Suite(.offPool, .serialized, .enabled(if: Products.hasTmux, "tmux is not installed (scripts/install-dependencies installs it)"))
struct EndToEnd {}

/// The bundled catalogs copied to a temporary folder, with their local environments pointed at
/// `port`, so a test's mock server never meets one a developer left running on 4010.
struct TemporaryCatalog {
    let directory: URL

    init(mockPort port: Int, tlsPort: Int = 4443, grpcPort: Int = 4011) throws {
        let source = Products.repositoryRoot.appendingPathComponent("environments")
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("apiexplorer-e2e-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: source, to: directory)
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where name.hasSuffix(".yaml") {
            let file = directory.appendingPathComponent(name)
            let text = try String(contentsOf: file, encoding: .utf8)
            try text.replacingOccurrences(of: "127.0.0.1:4010", with: "127.0.0.1:\(port)")
                .replacingOccurrences(of: "127.0.0.1:4443", with: "127.0.0.1:\(tlsPort)")
                .replacingOccurrences(of: "127.0.0.1:4011", with: "127.0.0.1:\(grpcPort)")
                .write(to: file, atomically: true, encoding: .utf8)
        }
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}

/// The bundled catalogs served by `apiexplorer mock` on a free port, a copy pointed at it, and a
/// state folder of their own: what a test of live mode needs. `remove()` stops and deletes it all.
struct MockedCatalogs {
    let served: TemporaryCatalog
    let mock: ChildProcess
    let catalog: TemporaryCatalog
    let state: URL

    init(delays: Bool = false) throws {
        served = try TemporaryCatalog(mockPort: 4010)
        let (mock, port, tlsPort, grpcPort) = try ProductProcess.startMock(catalog: served.directory, delays: delays)
        self.mock = mock
        catalog = try TemporaryCatalog(mockPort: port, tlsPort: tlsPort, grpcPort: grpcPort)
        state = FileManager.default.temporaryDirectory.appendingPathComponent("e2e-state-\(UUID().uuidString)")
    }

    /// The explorer on the pointed copy, with `arguments` (`--env httpbin/local --live`).
    func launch(_ arguments: String) throws -> TmuxSession {
        try EndToEnd.ExplorerSessionTests.launch(
            "--trust --catalog \(TmuxSession.quote(catalog.directory.path)) \(arguments)", environment: ["XDG_STATE_HOME": state.path])
    }

    func remove() {
        kill(mock.pid, SIGTERM)
        served.remove()
        catalog.remove()
        try? FileManager.default.removeItem(at: state)
    }
}

/// Child processes of the built binary (the mock server, snapshot runs), started with
/// `ChildProcess` so they inherit none of the other tests' sockets.
enum ProductProcess {
    /// Runs `apiexplorer arguments…` to the end; returns its exit status and standard output.
    static func run(_ arguments: [String], environment extra: [String: String] = [:]) async throws -> (status: Int32, output: Data) {
        let child = try ChildProcess(
            Products.apiexplorer.path, arguments, environment: ProcessInfo.processInfo.environment.merging(extra) { $1 },
            directory: FileManager.default.currentDirectoryPath)
        let result = await child.finish()
        return (result.status, result.stdout)
    }

    /// Starts `apiexplorer mock --port 0` on a catalog (a copy of the bundled ones, which have a gRPC
    /// service) and reads the ports it chose; `delays` keeps the fixtures' delays and stream
    /// intervals (off by default, so tests wait for nothing).
    static func startMock(catalog: URL, delays: Bool = false) throws -> (process: ChildProcess, port: Int, tlsPort: Int, grpcPort: Int) {
        let child = try ChildProcess(
            Products.apiexplorer.path,
            ["mock", "--catalog", catalog.path, "--port", "0", "--tls", "--tls-port", "0", "--grpc-port", "0"] + (delays ? [] : ["--no-delay"]),
            environment: ProcessInfo.processInfo.environment, directory: FileManager.default.currentDirectoryPath)
        let output = child.output ?? -1
        func line() -> String {
            var buffer: [UInt8] = []
            var byte: UInt8 = 0
            while read(output, &byte, 1) == 1, byte != UInt8(ascii: "\n") { buffer.append(byte) }
            return String(decoding: buffer, as: UTF8.self)
        }
        func portNumber(after prefix: String, in line: String) -> Int? {
            line.range(of: prefix).flatMap { Int(line[$0.upperBound...].prefix { $0.isNumber }) }
        }
        // "Mock server for … on http://127.0.0.1:PORT — Ctrl-C to stop", then "  HTTPS on https://127.0.0.1:PORT, …"
        let firstLine = line()
        let secondLine = line()
        guard let port = portNumber(after: "http://127.0.0.1:", in: firstLine), let tlsPort = portNumber(after: "https://127.0.0.1:", in: secondLine) else {
            child.kill(SIGTERM)
            throw MockStartError(line: firstLine + "\n" + secondLine)
        }
        // Then the services, one a line, and last "  gRPC on grpc://127.0.0.1:PORT …" (at most a few dozen lines).
        var grpcPort: Int?
        for _ in 0..<64 {
            let next = line()
            if next.isEmpty { break }
            grpcPort = portNumber(after: "grpc://127.0.0.1:", in: next)
            if grpcPort != nil { break }
        }
        guard let grpcPort else {
            child.kill(SIGTERM)
            throw MockStartError(line: "no gRPC port after: " + firstLine)
        }
        // Keep draining, so the server never blocks on a full pipe; wait() reaps it after a kill.
        DispatchQueue(label: "apiexplorer.mock-output").async { _ = child.collect() }
        return (child, port, tlsPort, grpcPort)
    }

    struct MockStartError: Error, CustomStringConvertible {
        let line: String
        var description: String { "the mock server did not say where it listens: \(line)" }
    }
}

extension Products {
    /// The repository (for environments/ and screenshots/).
    static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }
}
