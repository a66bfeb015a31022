import ArgumentParser
import Foundation
import TestSupport

/// Whole-process wall time of `apiexplorer call --live` against a local server versus `curl`
/// against the same URL, in one run, alternating the two so any drift hits both; reports the
/// ratio of the medians (the aim is ≤ 1.5×, issue 10). What a script pays per request: process start,
/// catalog load, the dispatcher, one HTTP exchange, the history append, exit.
struct CallBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "call", abstract: "apiexplorer call --live versus curl, whole processes against one local server.")

    @Option(help: "Runs per side.") var runs = 50
    @Option(help: "The apiexplorer binary (default: beside this benchmark).") var binary: String?
    @Option(help: "The curl binary.") var curl = "/usr/bin/curl"
    @Flag(help: "Pass --no-history to apiexplorer (measures what the history append costs).") var noHistory = false

    private static let body = #"{"id":7,"name":"Rex","status":"available","tags":["dog","good"]}"#

    func run() async throws {
        warnIfDebugBuild()
        let explorer = binary ?? URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("apiexplorer").path
        guard FileManager.default.isExecutableFile(atPath: explorer) else {
            throw ValidationError("no apiexplorer binary at \(explorer); build it (swift build -c release) or pass --binary")
        }
        guard FileManager.default.isExecutableFile(atPath: curl) else { throw ValidationError("no curl at \(curl)") }

        let server = try await TestHTTPServer.start(recordsRequests: false) { _ in .json(Self.body) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("call-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Self.catalog(baseURL: server.url("/bench").absoluteString).write(to: folder.appendingPathComponent("bench.yaml"), atomically: true, encoding: .utf8)
        let url = server.url("/bench/pets/7").absoluteString

        var environment = ProcessInfo.processInfo.environment
        environment["XDG_STATE_HOME"] = folder.appendingPathComponent("state").path
        for name in ["http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "APIEXPLORER_CATALOG"] {
            environment[name] = nil
        }
        let explorerArguments = ["call", "bench/pet", "--live", "--catalog", folder.path] + (noHistory ? ["--no-history"] : [])
        let curlArguments = ["-sS", "-o", "/dev/null", "-H", "Accept: application/json", url]

        // Warm-up: page cache, the server's first connections.
        for _ in 0..<3 {
            _ = try Self.time(explorer, explorerArguments, environment)
            _ = try Self.time(curl, curlArguments, environment)
        }
        var explorerTimes = Measurements()
        var curlTimes = Measurements()
        var startTimes = Measurements()
        for _ in 0..<runs {
            explorerTimes.add(try Self.time(explorer, explorerArguments, environment))
            curlTimes.add(try Self.time(curl, curlArguments, environment))
            // The floor: loading the binary and parsing arguments, nothing else.
            startTimes.add(try Self.time(explorer, ["--version"], environment))
        }
        try await server.shutdown()

        print("Whole-process wall time, \(runs) runs each, alternating, against \(url)")
        let sides = [
            ("apiexplorer call --live\(noHistory ? " --no-history" : "")", explorerTimes), ("curl -sS", curlTimes),
            ("apiexplorer --version (process start)", startTimes),
        ]
        for (name, times) in sides {
            print("  \(name.padding(toLength: 38, withPad: " ", startingAt: 0)) median \(formatNanoseconds(times.median))  p90 \(formatNanoseconds(times.percentile(90)))  min \(formatNanoseconds(times.minimum))")
        }
        let ratio = explorerTimes.median / max(curlTimes.median, 1)
        print(String(format: "  ratio (median): %.2f× (aim ≤ 1.5×)", ratio))
    }

    /// Runs a process to completion and returns its wall time in nanoseconds; a failure stops the benchmark.
    private static func time(_ executable: String, _ arguments: [String], _ environment: [String: String]) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        let start = ContinuousClock.now
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let elapsed = ContinuousClock.now - start
        guard process.terminationStatus == 0 else {
            throw ValidationError("\(executable) \(arguments.joined(separator: " ")) failed (\(process.terminationStatus)): \(String(decoding: message, as: UTF8.self))")
        }
        return elapsed.nanoseconds
    }

    private static func catalog(baseURL: String) -> String {
        """
        service: bench
        environments:
          local:
            baseURL: \(baseURL)
            headers: { Accept: application/json }
        endpoints:
          pet:
            path: /pets/{{petId}}
            parameters: { petId: "7" }

        """
    }
}
