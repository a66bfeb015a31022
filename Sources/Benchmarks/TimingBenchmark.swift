import ArgumentParser
import DispatcherCore
import Foundation
import LiveTransport
import ResponseDiff
import SystemSupport
import TestSupport

/// What the transfer phases cost a request, in instructions (callgrind over whole runs of this
/// benchmark, with the phases recorded and without), and how long a diff of two 10 MB JSON bodies
/// takes (issue 52: phases ≤ 2 % of a call, the diff ≤ 200 ms).
struct TimingBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timing", abstract: "The transfer phases' cost per request (instructions), and a diff of two 10 MB JSON bodies.")

    @Option(help: "Requests per counted run.") var requests = 300
    @Option(help: "Runs of the diff.") var runs = 7
    @Option(help: "The size of each JSON body, in MB.") var megabytes = 10
    @Flag(help: "Only the diff.") var diffOnly = false
    @Flag(help: "Only the phases.") var phasesOnly = false
    @Flag(help: "Measure the phases' cost as process CPU time in this process (rounds alternating with and without), not with callgrind.")
    var cpu = false
    /// Set by the benchmark itself when it runs under callgrind: send `requests` requests, phases on or off.
    @Option(help: .hidden) var inner: String?

    func run() async throws {
        if let inner {
            try await Self.send(requests: inner == "none" ? 0 : requests, recordsPhases: inner == "on")
            return
        }
        warnIfDebugBuild()
        if cpu {
            try await cpuOfPhases()
            return
        }
        if !diffOnly { try countPhases() }
        if !phasesOnly { diff() }
    }

    /// Sends `requests` GETs through the dispatcher and the live transport to a local server.
    static func send(requests: Int, recordsPhases: Bool) async throws {
        let server = try await TestHTTPServer.start(recordsRequests: false) { _ in .json(#"{"id":7,"name":"Rex"}"#) }
        var configuration = HTTPTransport.Configuration(proxy: .none)
        configuration.recordsPhases = recordsPhases
        let transport = HTTPTransport(configuration: configuration)
        let environment = Environment(name: "bench", baseURL: server.baseURL, cachePolicy: .reloadIgnoringCache, fixtures: .never)
        let dispatcher = Dispatcher<Target>(environment: environment, transport: transport, errorFilter: ErrorFilter())
        // The first request opens the connection in every run, so the runs differ by requests only.
        _ = try await dispatcher.request(Target(.get, "/pets/7"))
        for _ in 0..<requests {
            let response = try await dispatcher.request(Target(.get, "/pets/7"))
            precondition((response.transfer != nil) == recordsPhases)
        }
        try await transport.shutdown()
        try await server.shutdown()
    }

    /// Process CPU time of `requests` GETs, with and without the phases, alternating over 6 rounds.
    private func cpuOfPhases() async throws {
        let server = try await TestHTTPServer.start(recordsRequests: false) { _ in .json(#"{"id":7,"name":"Rex"}"#) }
        let environment = Environment(name: "bench", baseURL: server.baseURL, cachePolicy: .reloadIgnoringCache, fixtures: .never)
        var sides: [(Bool, Dispatcher<Target>, HTTPTransport)] = []
        for phases in [true, false] {
            var configuration = HTTPTransport.Configuration(proxy: .none)
            configuration.recordsPhases = phases
            let transport = HTTPTransport(configuration: configuration)
            sides.append((phases, Dispatcher<Target>(environment: environment, transport: transport, errorFilter: ErrorFilter()), transport))
        }
        func cpuNow() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
            return Double(time.tv_sec) * 1e9 + Double(time.tv_nsec)
        }
        var with = Measurements()
        var without = Measurements()
        for round in 0..<7 {
            for (phases, dispatcher, _) in sides {
                let start = cpuNow()
                for _ in 0..<requests { _ = try await dispatcher.request(Target(.get, "/pets/7")) }
                let perRequest = (cpuNow() - start) / Double(requests)
                if round > 0 { if phases { with.add(perRequest) } else { without.add(perRequest) } }
            }
        }
        for side in sides { try await side.2.shutdown() }
        try await server.shutdown()
        print("Process CPU a GET (client and in-process server), \(requests) requests a round, 6 rounds alternating:")
        print("  with phases \(formatNanoseconds(with.median)), without \(formatNanoseconds(without.median)): \(String(format: "%+.1f", (with.median / without.median - 1) * 100)) % (target ≤ 2 %)")
    }

    /// Three callgrind runs: no requests (the floor), `requests` with phases, `requests` without.
    private func countPhases() throws {
        // valgrind cannot read a debug build's debug information: it runs a copy without it.
        let myself = FileManager.default.temporaryDirectory.appendingPathComponent("timing-bench-\(UUID().uuidString)").path
        let strip = try ChildProcess(
            "/usr/bin/env", ["objcopy", "--strip-debug", URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path, myself],
            environment: ProcessInfo.processInfo.environment, directory: FileManager.default.temporaryDirectory.path
        ).collect()
        guard strip.status == 0 else { throw ValidationError("objcopy --strip-debug failed: \(strip.errors)") }
        defer { try? FileManager.default.removeItem(atPath: myself) }
        func count(_ mode: String) throws -> Double {
            let process = try ChildProcess(
                "/usr/bin/env",
                ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", myself, "timing", "--inner", mode, "--requests", "\(requests)"],
                environment: ProcessInfo.processInfo.environment, directory: FileManager.default.temporaryDirectory.path)
            let result = process.collect()
            guard result.status == 0, let line = result.errors.split(separator: "\n").last(where: { $0.contains("Collected :") }),
                let figure = line.split(separator: " ").last.flatMap({ Double($0) })
            else { throw ValidationError("callgrind failed (is valgrind installed?): \(result.errors.suffix(400))") }
            return figure
        }
        let floor = try count("none")
        let off = try count("off")
        let on = try count("on")
        let perCall = (off - floor) / Double(requests)
        let phases = (on - off) / Double(requests)
        print("Transfer phases, callgrind, \(requests) GETs through the dispatcher and the live transport (server in the same process):")
        print("  a request without phases: \(Int(perCall)) instructions")
        print("  the phases add: \(Int(phases)) instructions a request, \(String(format: "%.2f", phases / perCall * 100)) % (target ≤ 2 %)")
    }

    /// Two JSON bodies of `megabytes` MB, a few fields apart, compared as `diff` compares them.
    private func diff() {
        let (left, right) = Self.bodies(megabytes: megabytes)
        var times = Measurements()
        var differences = 0
        for _ in 0..<runs {
            let start = ContinuousClock.now
            let comparison = ResponseComparison(
                ComparedResponse(status: 200, body: left), ComparedResponse(status: 200, body: right), rules: CompareRules())
            times.add((ContinuousClock.now - start).nanoseconds)
            differences = comparison.differences.count
        }
        print("Diff of two \(left.count / 1_000_000) MB JSON bodies (\(differences) differences), \(runs) runs: median \(formatNanoseconds(times.median)), min \(formatNanoseconds(times.minimum)), max \(formatNanoseconds(times.maximum)) (target ≤ 200 ms)")
    }

    /// An array of pets of about `megabytes` MB, and the same with one pet in 500 changed.
    static func bodies(megabytes: Int) -> (Data, Data) {
        var left = "["
        var right = "["
        var index = 0
        while left.utf8.count < megabytes * 1_000_000 {
            if index > 0 {
                left += ","
                right += ","
            }
            let pet = #"{"id":\#(index),"name":"pet-\#(index)","status":"available","price":12.5,"tags":["dog","good","\#(index % 7)"],"owner":{"id":\#(index * 3),"email":"owner\#(index)@example.com","since":"2024-01-0\#(index % 9 + 1)T10:00:00Z"},"notes":"A pet that is good with children and other pets."}"#
            left += pet
            right += index % 500 == 0 ? pet.replacing("\"available\"", with: "\"sold\"") : pet
            index += 1
        }
        return (Data((left + "]").utf8), Data((right + "]").utf8))
    }
}
