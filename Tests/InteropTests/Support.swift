import Foundation
import SystemSupport
import TestSupport
import Testing

/// Runs the built `apiexplorer` binary.
enum CLI {
    typealias Result = ChildProcess.Captured

    /// The binary beside the test bundle (`.build/debug/apiexplorer`), or `$APIEXPLORER_BINARY`.
    static let binary: URL = {
        if let path = ProcessInfo.processInfo.environment["APIEXPLORER_BINARY"] { return URL(fileURLWithPath: path) }
        return BuiltProducts.executable(named: "apiexplorer")
    }()

    /// Runs `apiexplorer arguments…` with `state` as the XDG state home; no proxies, no inherited
    /// catalog, no controlling terminal (a question cannot wait for the person running the tests).
    /// A `--catalog` folder is trusted (`--trust`: the test wrote it) unless `trusting` is false.
    static func run(
        _ arguments: [String], state: TemporaryDirectory, in directory: URL? = nil, environment extra: [String: String] = [:], trusting: Bool = true
    ) async throws -> Result {
        try await start(arguments, state: state, in: directory, environment: extra, trusting: trusting).finish()
    }

    /// `run`, ending the program with SIGKILL if it has not ended after `limit` (a generous bound:
    /// only a program that hangs meets it); `hung` says whether it had to.
    static func run(
        _ arguments: [String], state: TemporaryDirectory, environment extra: [String: String] = [:], trusting: Bool = true, killedAfter limit: Duration
    ) async throws -> (result: Result, hung: Bool) {
        let spawned = try start(arguments, state: state, environment: extra, trusting: trusting)
        let watchdog = Task {
            guard (try? await Task.sleep(for: limit)) != nil else { return false }
            spawned.kill()
            return true
        }
        let result = await spawned.finish()
        watchdog.cancel()
        return (result, await watchdog.value)
    }

    /// Starts `apiexplorer arguments…` as `run` does.
    static func start(
        _ arguments: [String], state: TemporaryDirectory, in directory: URL? = nil, environment extra: [String: String] = [:], trusting: Bool = true
    ) throws -> ChildProcess {
        var arguments = arguments
        if trusting, let index = arguments.firstIndex(of: "--catalog") { arguments.insert("--trust", at: index) }
        var environment = ProcessInfo.processInfo.environment
        for name in ["APIEXPLORER_CATALOG", "http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"] {
            environment[name] = nil
        }
        environment["XDG_STATE_HOME"] = state.path
        environment.merge(extra) { $1 }
        return try ChildProcess(binary.path, arguments, environment: environment, directory: (directory ?? state.url).path, newSession: true)
    }
}

/// Reads JSON output as Foundation objects for field checks.
func jsonObject(_ data: Data) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
}

/// A catalog of one service with a live `local` environment (no retries) and `endpoints`, each
/// line indented under `endpoints:`.
func liveCatalog(_ service: String, baseURL: String, endpoints: [String]) -> String {
    """
    service: \(service)
    environments:
      local:
        baseURL: \(baseURL)
        fixtures: never
        retry: none
    endpoints:
    \(endpoints.map { "  " + $0 }.joined(separator: "\n"))
    """
}
