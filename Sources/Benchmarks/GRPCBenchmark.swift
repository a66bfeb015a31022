import ArgumentParser
import Foundation
import GRPCCalls
import GRPCTransport
import GRPCWire
import SystemSupport
import TestSupport

/// `apiexplorer-bench grpc`: unary calls one after another over one connection to the Python test
/// server (grpcio, on 127.0.0.1), by apiexplorer's client and, side by side, by a grpcio client
/// loop in Python against the same server. Needs python3 with grpcio, grpcio-tools,
/// grpcio-reflection and grpcio-status (`scripts/install-dependencies`).
struct GRPCBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "grpc", abstract: "Unary gRPC calls over one connection to a grpcio server: apiexplorer's client beside grpcio's.")

    @Option(help: "Calls per run.") var calls = 1000
    @Option(help: "Runs of each client (the median run is reported).") var runs = 5

    func run() async throws {
        warnIfDebugBuild()
        guard PythonGRPCServer.isAvailable else {
            throw ValidationError("python3 with grpcio, grpcio-tools, grpcio-reflection and grpcio-status is needed (scripts/install-dependencies)")
        }
        let server = try await PythonGRPCServer.start()
        do {
            try await measure(port: server.port)
        } catch {
            print("error: \(error)")
        }
        await server.stop()
    }

    private func measure(port: Int) async throws {
        let echo = GRPCMethodPath(service: "routeguide.Probe", method: "Echo")
        var ours: [Double] = []
        var latencies = Measurements()
        for _ in 0..<runs {
            let connection = try GRPCConnection(target: GRPCTarget(host: "127.0.0.1", port: port, secure: false))
            // The first call opens the connection; it is not timed, as the Python loop's warm-up call is not.
            _ = try await connection.call(echo, kind: .unary, requests: .messages([Self.request("warm-up")]))
            let started = ContinuousClock.now
            for index in 0..<calls {
                let before = ContinuousClock.now
                let result = try await connection.call(echo, kind: .unary, requests: .messages([Self.request("call \(index)")]))
                latencies.add((ContinuousClock.now - before).nanoseconds)
                guard result.succeeded else { throw ValidationError("call \(index) failed: \(result.status)") }
            }
            ours.append((ContinuousClock.now - started).nanoseconds / 1e9)
            await connection.close()
        }
        var theirs: [Double] = []
        guard let python = PythonGRPCServer.python else { throw ValidationError("python3 is not on PATH") }
        let script = PythonGRPCServer.folder.appendingPathComponent("grpc_bench_client.py").path
        for _ in 0..<runs {
            let output = try ChildProcess(python, [script, String(port), String(calls)], environment: ProcessInfo.processInfo.environment, directory: "/").collect()
            let words = output.output.split(whereSeparator: \.isWhitespace)
            guard output.status == 0, words.count == 4, let seconds = Double(words[3]) else {
                throw ValidationError("grpc_bench_client.py failed: \(output.errors)")
            }
            theirs.append(seconds)
        }
        let oursMedian = ours.sorted()[ours.count / 2]
        let theirsMedian = theirs.sorted()[theirs.count / 2]
        print("gRPC: \(calls) unary calls (routeguide.Probe/Echo) one after another over one connection to grpcio on 127.0.0.1, median of \(runs) runs")
        print("  apiexplorer (GRPCCalls)   \(String(format: "%.3f", oursMedian)) s   \(Int(Double(calls) / oursMedian)) calls/s   per call median \(formatNanoseconds(latencies.median)), p99 \(formatNanoseconds(latencies.percentile(99)))")
        print("  grpcio (Python) loop      \(String(format: "%.3f", theirsMedian)) s   \(Int(Double(calls) / theirsMedian)) calls/s")
    }

    /// An EchoRequest with `text` (field 1).
    static func request(_ text: String) -> [UInt8] {
        ProtobufFields([(1, .text(text))]).encoded
    }
}
