import ArgumentParser
import DispatcherCore
import Foundation
import JSONSupport
import Synchronization

/// One stub request through the whole dispatcher pipeline: five plugins, the interceptor (an
/// adapter and the retry policy) and the error filter with a catalog rule that looks inside 2xx bodies.
struct CoreBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "core", abstract: "Dispatcher overhead: one immediate stub request through the full pipeline.")

    @Option(help: "Requests per batch.") var batch = 1_000
    @Option(help: "Batches measured (after warm-up).") var batches = 300

    func run() async throws {
        warnIfDebugBuild()
        print("Dispatcher core: one immediate stub request through the pipeline (\(batches) batches of \(batch))")
        let bare = Dispatcher<Target>(environment: Self.environment)
        try await measure("bare: no plugins, no rules", bare)
        try await measure("full: 5 plugins (activity, logger, bearer, API key, signing), interceptor, error rule", Self.makeDispatcher())
    }

    private func measure(_ label: String, _ dispatcher: Dispatcher<Target>) async throws {
        let target = Target(
            .get, "/pet/{{petId}}", identifier: "petstore/findPet", query: [QueryItem(name: "expand", value: "owner")],
            headers: ["Accept": "application/json"], group: "authenticated",
            sampleResponse: .response(
                status: 200, headers: Headers([("Content-Type", "application/json")], origin: .server),
                body: Data(#"{"id":7,"name":"Rex","status":"available","tags":["dog"]}"#.utf8)))

        for _ in 0..<20 { _ = try await dispatcher.request(target) }  // warm-up

        var perRequest = Measurements()
        let clock = ContinuousClock()
        for _ in 0..<batches {
            let start = clock.now
            for _ in 0..<batch { _ = try await dispatcher.request(target) }
            perRequest.add((clock.now - start).nanoseconds / Double(batch))
        }
        print("  \(label)")
        print("    median \(formatNanoseconds(perRequest.median)) per request, p90 \(formatNanoseconds(perRequest.percentile(90))), min \(formatNanoseconds(perRequest.minimum))")
    }

    static let environment = Environment(
        name: "local", type: .development, baseURL: URL(string: "http://127.0.0.1:8080/v3")!,
        headers: Headers([("User-Agent", "apiexplorer-bench"), ("Accept-Language", "en")], origin: .endpoint),
        groupHeaders: ["authenticated": Headers([("X-Client", "bench")], origin: .endpoint)],
        variables: ["petId": "7"], fixtures: .immediate, retry: RetryPolicy())

    static func makeDispatcher() -> Dispatcher<Target> {
        let lines = Atomic<Int>(0)
        let plugins: [any Plugin] = [
            NetworkActivityPlugin(),
            NetworkLoggerPlugin(options: .standard) { _ in lines.add(1, ordering: .relaxed) },
            BearerAuthPlugin(store: CredentialStore(token: "bench-token")),
            APIKeyAuthPlugin(key: "bench-key", placement: .header("X-API-Key")),
            SigningPlugin(),
        ]
        let rules = [
            ErrorRule(
                name: "hidden", statuses: .range(200...299), when: try! JSONPath("$.error"), kind: .custom("applicationError"),
                message: .path(try! JSONPath("$.error.message")))
        ]
        return Dispatcher(
            environment: Self.environment, plugins: plugins,
            interceptor: Interceptor(adapters: [.header("X-Request-Source", "bench", name: "source")]),
            errorFilter: ErrorFilter(rules: rules))
    }
}

/// A plugin that does a little work per request, like a signing or metrics plugin would.
private struct SigningPlugin: Plugin {
    func prepare(_ request: inout Request, target: any TargetType) {
        request.headers.set("X-Signature", String(request.url.absoluteString.utf8.count, radix: 16), origin: .plugin("signing"))
    }
}
