import ArgumentParser
import Catalog
import Foundation
import YAMLSupport

/// `apiexplorer-bench catalog`: loads a generated folder of catalog files (200 files, 10,000
/// endpoints by default) several times and reports the median, min and max. Target: ≤ 100 ms.
struct CatalogBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "Loads generated catalog files (200 files, 10,000 endpoints by default); target ≤ 100 ms.")

    @Option(help: "Catalog files to generate.")
    var files = 200

    @Option(help: "Endpoints in all, spread over the files.")
    var endpoints = 10_000

    @Option(help: "Timed loads (after one warm-up).")
    var runs = 10

    func validate() throws {
        guard files > 0, endpoints >= files, runs > 0 else {
            throw ValidationError("--files and --runs must be positive, and --endpoints at least --files.")
        }
    }

    func run() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apiexplorer-bench-catalog-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var bytes = 0
        for index in 0..<files {
            let count = endpoints / files + (index < endpoints % files ? 1 : 0)
            let text = CatalogBenchmark.catalogFile(index: index, endpoints: count)
            bytes += text.utf8.count
            try Data(text.utf8).write(to: folder.appendingPathComponent(String(format: "service-%03d.yaml", index)))
        }
        let source = CatalogSource(origin: .option, directory: folder, displayPath: "bench")

        let warmUp = CatalogLoader.load(source)
        guard warmUp.endpointCount == endpoints, warmUp.services.count == files, !warmUp.hasErrors else {
            throw ValidationError("the generated catalogs did not load cleanly: \(warmUp.summary) \(warmUp.diagnostics.prefix(3))")
        }
        let clock = ContinuousClock()
        var timings: [Duration] = []
        let cpuStart = CatalogBenchmark.processCPUTime()
        for _ in 0..<runs {
            let start = clock.now
            let loaded = CatalogLoader.load(source)
            timings.append(clock.now - start)
            precondition(loaded.endpointCount == endpoints)
        }
        let cpuPerLoad = (CatalogBenchmark.processCPUTime() - cpuStart) / runs
        // The YAML alone (parsed and made into the node tree), to say what decoding adds.
        let texts = try (0..<files).map { index in
            try String(contentsOf: folder.appendingPathComponent(String(format: "service-%03d.yaml", index)), encoding: .utf8)
        }
        let composeStart = CatalogBenchmark.processCPUTime()
        for _ in 0..<runs {
            for text in texts { _ = try YAMLComposer.compose(text, markingScalarsContaining: UInt8(ascii: "{")) }
        }
        let composeCPU = (CatalogBenchmark.processCPUTime() - composeStart) / runs
        timings.sort()
        func milliseconds(_ duration: Duration) -> String { String(format: "%.1f ms", duration.seconds * 1000) }
        let median = timings[timings.count / 2]
        print("catalog: \(files) files, \(endpoints) endpoints, \(String(format: "%.1f", Double(bytes) / 1_048_576)) MiB of YAML")
        print("load: median \(milliseconds(median)), min \(milliseconds(timings[0])), max \(milliseconds(timings[timings.count - 1])) over \(runs) runs (target ≤ 100 ms)")
        print("cpu: \(milliseconds(cpuPerLoad)) per load on \(ProcessInfo.processInfo.activeProcessorCount) cores (files are read and parsed in parallel)")
        print("  of which the YAML (parser and node tree): \(milliseconds(composeCPU)); the rest is reading the files and decoding the nodes")
    }

    /// CPU time used by the process so far (all threads).
    static func processCPUTime() -> Duration {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }

    /// A realistic catalog file: three environments, a group, error rules, auth, and endpoints
    /// with query, headers, bodies, stubs and examples.
    static func catalogFile(index: Int, endpoints: Int) -> String {
        var text = """
            service: service-\(index)
            title: Generated service \(index)
            variables: { tenant: t\(index), version: "2" }
            environments:
              local:
                type: development
                baseURL: http://127.0.0.1:4010/service-\(index)
                headers: { Accept: application/json, X-Tenant: "{{tenant}}" }
                fixtures: delayed(0.1)
                timeouts: { connect: 2, read: 10 }
                secretDefaults: { TOKEN_\(index): demo }
              staging:
                type: staging
                baseURL: https://staging.example.com/s\(index)
                retry: { limit: 2, statuses: [502, 503] }
              production:
                type: production
                baseURL: https://api.example.com/s\(index)
                fixtures: never
                tls: { pins: [sha256/47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=] }
            groups:
              signedIn: { headers: { Authorization: "Bearer {{secret.TOKEN_\(index)}}" } }
            auth:
              refresh: { endpoint: login, on: [401], token: $.token, into: TOKEN_\(index) }
            errors:
              - { status: 400, error: badRequest, message: "$.errors[*].message" }
              - { status: 2xx, when: $.error, error: applicationError, message: $.error.message }
            endpoints:
              login:
                method: POST
                path: /login
                body: { user: demo, password: "{{secret.PASSWORD}}" }
                stub: { body: { token: abc } }

            """
        for number in 1..<endpoints {
            let method = ["GET", "POST", "PUT", "DELETE"][number % 4]
            text += """
                  item\(number):
                    title: Item \(number) of service \(index)
                    group: signedIn
                    method: \(method)
                    path: /v{{version}}/items/{{id}}/part\(number)
                    query: { page: "1", filter: "{{filter}}" }
                    headers: { X-Request: "r\(number)" }
                    parameters: { id: "\(number)", filter: all }
                    body: { name: item \(number), tags: [a, b], count: \(number) }
                    stub:
                      status: 200
                      headers: { ETag: "v\(number)" }
                      body: { id: \(number), name: item \(number), ok: true }
                    examples:
                      notFound: { status: 404, body: { message: not found } }
                      offline: { networkError: notConnectedToInternet }

                """
        }
        return text
    }
}
