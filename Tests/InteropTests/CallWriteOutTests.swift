import Foundation
import SystemSupport
import TestSupport
import Testing
import TestTraits

/// `call --write-out` beside `curl -w` on the same server, which delays its phases on purpose:
/// the same names, the same counts and addresses, and times in the same phases and order. Lower
/// bounds only: the machine may be loaded.
@Suite(.offPool) struct CallWriteOutTests {
    /// One scenario: what the server delays, and what the figures must at least show.
    struct Scenario: Sendable, CustomTestStringConvertible {
        var name: String
        var delays: PhaseServer.Delays
        var tls = false
        var path = "/"
        /// Where each delay must show, in seconds (curl's cumulative figures): variable → at least.
        var atLeast: [String: Double]
        var testDescription: String { name }
    }

    static let scenarios = [
        Scenario(name: "first byte late, body trickled", delays: PhaseServer.Delays(head: 200, trickle: 300),
                 atLeast: ["time_starttransfer": 0.2, "time_total": 0.5]),
        Scenario(name: "slow TLS handshake", delays: PhaseServer.Delays(handshake: 200), tls: true,
                 atLeast: ["time_appconnect": 0.2, "time_pretransfer": 0.2, "time_starttransfer": 0.2]),
        Scenario(name: "accepted late over TLS", delays: PhaseServer.Delays(accept: 200), tls: true, atLeast: ["time_appconnect": 0.2]),
        Scenario(name: "two redirects", delays: PhaseServer.Delays(head: 100), path: "/redirect/2",
                 atLeast: ["time_starttransfer": 0.1, "time_total": 0.1]),
    ]

    /// A catalog `conf` of one live environment on `baseURL` (with `environment`'s lines) and one endpoint.
    static func catalog(_ baseURL: String, environment: String, endpoint: String) -> String {
        """
        service: conf
        environments:
          local:
            baseURL: \(baseURL)
            fixtures: never
            \(environment)
        endpoints:
          \(endpoint)
        """
    }

    /// The figures of a `%{json}` output.
    static func figures(_ output: String) throws -> [String: Any] {
        try jsonObject(Data(output.utf8))
    }

    @Test(arguments: scenarios)
    func sameFiguresAsCurl(_ scenario: Scenario) async throws {
        let server = try PhaseServer(scenario.delays, tls: scenario.tls)
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        let tls = scenario.tls ? "\n    tls: { ca: ca.pem }" : ""
        try folder.write("ca.pem", try Data(contentsOf: TestCertificates.ca.certificateURL))
        try folder.write("conf.yaml", Self.catalog(server.baseURL, environment: "retry: none" + tls, endpoint: "phases: { path: \"\(scenario.path)\" }"))
        let state = try TemporaryDirectory()
        let body = state.url.appendingPathComponent("body").path
        let ours = try await CLI.run(
            ["call", "conf/phases", "--live", "--catalog", folder.path, "--no-history", "-o", body, "--force", "-w", "%{json}"], state: state)
        #expect(ours.status == 0, "\(ours.errors)")
        var curlArguments = ["-s", "-L", "-o", "/dev/null", "-w", "%{json}"]
        if scenario.tls { curlArguments += ["--cacert", TestCertificates.ca.certificateURL.path] }
        let curl = try await CurlCapture.curl(curlArguments + [server.baseURL + scenario.path], in: folder.url)
        #expect(curl.status == 0, "\(curl.errors)")
        let (a, b) = (try Self.figures(ours.output), try Self.figures(curl.output))
        for name in ["http_code", "num_redirects", "num_connects", "size_download", "size_upload", "remote_ip", "remote_port", "url_effective", "scheme", "http_version", "method"] {
            #expect("\(a[name] ?? "nil")" == "\(b[name] ?? "nil")", "\(name): apiexplorer \(a[name] ?? "nil"), curl \(b[name] ?? "nil")")
        }
        let phases = ["time_namelookup", "time_connect", "time_appconnect", "time_pretransfer", "time_starttransfer", "time_total"]
        for figures in [a, b] {
            let times = phases.map { figures[$0] as? Double ?? -1 }
            // curl's order (appconnect is 0 without TLS); every delay where the scenario put it.
            let ordered = times.enumerated().filter { !(phases[$0.offset] == "time_appconnect" && !scenario.tls) }.map { $0.element }
            #expect(ordered == ordered.sorted(), "\(zip(phases, times).map { "\($0) \($1)" })")
            for (name, least) in scenario.atLeast {
                #expect((figures[name] as? Double ?? 0) >= least, "\(name) \(figures[name] ?? "nil") < \(least)")
            }
        }
        if scenario.path.hasPrefix("/redirect") {
            #expect(a["time_redirect"] as? Double ?? 0 > 0)
            #expect(b["time_redirect"] as? Double ?? 0 > 0)
        }
    }

    @Test func formatsEscapesAndAFileFormat() async throws {
        let server = try PhaseServer(PhaseServer.Delays())
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        try folder.write("conf.yaml", liveCatalog("conf", baseURL: server.baseURL, endpoints: ["plain: { path: / }"]))
        try folder.write("format.txt", "code=%{http_code}\\nsize=%{size_download}%{stderr}on stderr %{nonsense}")
        let state = try TemporaryDirectory()
        let run = try await CLI.run(
            ["call", "conf/plain", "--catalog", folder.path, "--no-history", "-o", state.url.appendingPathComponent("b").path, "-w", "@format.txt"],
            state: state, in: folder.url)
        #expect(run.status == 0)
        #expect(run.output == "code=200\nsize=600")
        #expect(run.errors.contains("on stderr "))
        #expect(run.errors.contains("warning: unknown --write-out variable: 'nonsense'"))
        // A missing format file sends nothing.
        let missing = try await CLI.run(["call", "conf/plain", "--catalog", folder.path, "-w", "@nowhere.txt"], state: state, in: folder.url)
        #expect(missing.status == 2)
        #expect(missing.errors.contains("nothing was sent"))
    }

    @Test func aRetriedAttemptIsKeptWithItsPhasesInTheJSONAndTheHistory() async throws {
        let server = try PhaseServer(PhaseServer.Delays(head: 50, dropsFirstRequest: true))
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        try folder.write(
            "conf.yaml",
            Self.catalog(server.baseURL, environment: "retry: { limit: 1, networkErrors: [networkConnectionLost], backoff: 0.01 }", endpoint: "again: { path: / }"))
        let state = try TemporaryDirectory()
        let run = try await CLI.run(["call", "conf/again", "--catalog", folder.path, "--json"], state: state)
        #expect(run.status == 0, "\(run.errors)")
        let entry = try jsonObject(run.stdout)
        let timing = try #require(entry["timing"] as? [String: Any])
        let attempts = try #require(timing["attempts"] as? [[[String: Any]]])
        #expect(attempts.count == 2)
        #expect(attempts[0][0]["status"] == nil)
        #expect(attempts[0][0]["requestSentMs"] != nil)
        #expect(attempts[1][0]["status"] as? Int == 200)
        #expect(attempts[1][0]["firstByteMs"] as? Double ?? 0 >= 50)
        #expect(timing["time_starttransfer"] as? Double ?? 0 >= 0.05)
        #expect(timing["remote_ip"] as? String == "127.0.0.1")
        #expect(timing["size_download"] as? Int == 600)
        // The history keeps the same figures, and --stats reads them.
        let history = try await CLI.run(["history", "--json"], state: state)
        let kept = try #require(try JSONSerialization.jsonObject(with: history.stdout) as? [[String: Any]])
        #expect((kept.last?["timing"] as? [String: Any])?["attempts"] as? [[[String: Any]]] != nil)
        let stats = try await CLI.run(["history", "--stats", "conf/again"], state: state)
        #expect(stats.status == 0)
        #expect(stats.output.hasPrefix("conf/again  "))
        #expect(stats.output.contains("p50 "))
        #expect(stats.output.contains("200 ×1"))
    }
}
