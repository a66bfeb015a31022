import ArgumentParser
import Catalog
import DispatcherCore
import Foundation
import Sessions
import TestRunner

/// What the test runner adds per step over a plain in-process call: a flow of N steps (each with
/// three `expect:` checks and a capture) run by `TestRunner`, against the same N requests sent
/// by `EndpointCaller` alone, both in stub mode so no network time hides the difference.
struct RunnerBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "runner", abstract: "apiexplorer test's runner: overhead per flow step over a plain in-process call.")

    @Option(help: "Steps in the flow.") var steps = 200
    @Option(help: "Rounds per side (alternating).") var rounds = 20

    func run() async throws {
        warnIfDebugBuild()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("runner-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Self.catalog(steps: steps).write(to: folder.appendingPathComponent("bench.yaml"), atomically: true, encoding: .utf8)
        let catalog = CatalogLoader.load(CatalogSource(origin: .option, directory: folder, displayPath: "bench"), trust: .everything)
        guard catalog.diagnostics.isEmpty, let service = catalog.services.first, let endpoint = service.endpoint("pet"),
            let environment = service.environments.first
        else { throw ValidationError("the benchmark catalog did not load: \(catalog.diagnostics)") }
        let caller = EndpointCaller(catalog: catalog, secrets: SecretStore(processEnvironment: [:]), transport: nil)
        let runner = TestRunner(caller: caller, mode: .stub)
        let testCase = TestCase(service: service, environment: environment, kind: .flow("long"))
        let selection = EndpointSelection(service: service, endpoint: endpoint, environment: environment)

        // Warm-up, and a check that the flow passes (a failing step would stop it early).
        let check = await runner.run(testCase)
        guard check.status == .passed, check.steps.count == steps else { throw ValidationError("the flow did not pass: \(check.summary ?? "")") }
        var plain = Measurements()
        var run = Measurements()
        for _ in 0..<rounds {
            let plainStart = ContinuousClock.now
            for _ in 0..<steps { _ = await caller.call(selection, mode: .stub) }
            plain.add((ContinuousClock.now - plainStart).nanoseconds / Double(steps))
            let runStart = ContinuousClock.now
            _ = await runner.run(testCase)
            run.add((ContinuousClock.now - runStart).nanoseconds / Double(steps))
        }
        print("Per step, stub mode, a flow of \(steps) steps (3 checks and a capture each), \(rounds) rounds alternating (median):")
        print("  plain EndpointCaller.call: \(formatNanoseconds(plain.median))  (p90 \(formatNanoseconds(plain.percentile(90))))")
        print("  TestRunner flow step:      \(formatNanoseconds(run.median))  (p90 \(formatNanoseconds(run.percentile(90))))")
        print("  runner overhead per step:  \(formatNanoseconds(run.median - plain.median))")
    }

    static func catalog(steps: Int) -> String {
        var text = """
            service: bench
            environments:
              local:
                baseURL: http://127.0.0.1:9
            endpoints:
              pet:
                path: /pet/{{petId}}
                parameters: { petId: "7" }
                captures: { petId: $.id }
                stub: { body: { id: 7, name: Rex, status: available, tags: [a, b] } }
                expect:
                  status: 200
                  body: { $.name: Rex, $.tags: { count: 2 } }
            flows:
              long:
                steps:

            """
        for index in 0..<steps { text += "      - { endpoint: pet, name: step\(index) }\n" }
        return text
    }
}
