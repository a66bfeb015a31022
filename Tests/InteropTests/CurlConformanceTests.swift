import Foundation
import NIOHTTP1
import SystemSupport
import TestSupport
import Testing
import TestTraits

/// curl as the oracle: each scenario is sent once by `apiexplorer call` and once by `curl` with
/// the equivalent flags to a capture server, and what arrived must be the same at every hop of the
/// chain: the request line, the header names in order with their values, the body bytes, and the
/// cookies sent. The few headers that differ on purpose are in `CurlCapture.documentedDifferences`
/// and in docs/cli.md ("Where apiexplorer differs from curl").
@Suite(.offPool) struct CurlConformanceTests {
    @Test(arguments: CurlScenario.all)
    func sameOnTheWireAsCurl(_ scenario: CurlScenario) async throws {
        let port = LockedValue(0)
        try await withTestHTTPServer(handler: { request in scenario.respond(request, port.withLock { $0 }) }) { server in
            port.withLock { $0 = server.port }
            let folder = try TemporaryDirectory()
            try scenario.files(folder)
            // Through a proxy, the capture server is the proxy and the origin is the scenario's own.
            let proxy = scenario.origin == nil ? [:] : ["http_proxy": "http://127.0.0.1:\(server.port)", "https_proxy": "http://127.0.0.1:\(server.port)"]
            let baseURL = scenario.baseURL(server: server.baseURL.absoluteString)
            try folder.write("conf.yaml", scenario.catalog(baseURL: baseURL))
            let state = try TemporaryDirectory()

            // apiexplorer: each step a `call`, sharing a cookies.txt between them.
            let ourJar = state.url.appendingPathComponent("ours.txt").path
            var ourOutputs: [String] = []
            for (index, step) in scenario.steps.enumerated() {
                var arguments = ["call", "conf/\(step.endpoint)", "--live", "--catalog", folder.path, "--no-history", "-c", ourJar] + scenario.callFlags
                if index > 0 { arguments += ["-b", ourJar] }
                let run = try await CLI.run(arguments, state: state, in: folder.url, environment: proxy)
                #expect(run.status != 2, "apiexplorer \(arguments): \(run.errors)")
                ourOutputs.append(run.output)
            }
            let ours = server.requests.map(CurlCapture.init)

            // curl: the same steps with its cookie engine on (`-b ''` reads nothing, `-c` writes).
            let curlJar = state.url.appendingPathComponent("curl.txt").path
            var curlOutputs: [String] = []
            for (index, step) in scenario.steps.enumerated() {
                let url = baseURL + step.curlPath
                let output = scenario.comparesOutput == nil ? ["-o", "/dev/null"] : []
                let arguments = ["-s"] + output + ["-b", index == 0 ? "" : curlJar, "-c", curlJar] + step.curl + [url]
                let run = try await CurlCapture.curl(arguments, in: folder.url, environment: proxy)
                #expect(run.status == 0 || scenario.curlFails, "curl \(arguments): \(run.errors)")
                curlOutputs.append(run.output)
            }
            let theirs = server.requests.dropFirst(ours.count).map(CurlCapture.init)
            if let compare = scenario.comparesOutput {
                #expect(ourOutputs.map(compare) == curlOutputs.map(compare), "output:\n apiexplorer \(ourOutputs)\n curl        \(curlOutputs)")
            }

            #expect(ours.count == theirs.count, "hops: apiexplorer \(ours.map(\.line)), curl \(theirs.map(\.line))")
            for (hop, (mine, curl)) in zip(ours, theirs).enumerated() {
                let (a, b) = CurlCapture.comparable(mine, curl, boundaryAware: scenario.isMultipart, ignoring: scenario.differences)
                #expect(a.line == b.line, "hop \(hop): request line")
                #expect(a.headers == b.headers, "hop \(hop) headers:\n apiexplorer \(a.headers)\n curl        \(b.headers)")
                #expect(a.body == b.body, "hop \(hop) body: apiexplorer \(a.body.count) bytes, curl \(b.body.count) bytes")
            }
        }
    }
}

/// What one hop looked like on the wire.
struct CurlCapture: Sendable {
    var line: String
    var headers: [String]
    var body: [UInt8]

    init(_ request: TestRequest) {
        line = "\(request.method.rawValue) \(request.uri) HTTP/\(request.version.major).\(request.version.minor)"
        headers = request.headers.map { "\($0.name.lowercased()): \($0.value)" }
        body = request.body
    }

    /// Headers that differ between the two on purpose (docs/cli.md, "Where apiexplorer differs from curl"):
    /// - `user-agent`: each names itself;
    /// - `accept-encoding`: apiexplorer asks for `gzip, deflate` (and decodes them), curl for
    ///   nothing without `--compressed`.
    /// And curl's default `Accept: */*`, where apiexplorer sends the catalog's `Accept` only.
    static let documentedDifferences: Set<String> = ["user-agent", "accept-encoding"]

    /// Both captures without the documented differences: `Content-Length` compared wherever it
    /// stands (curl puts it before a `Content-Type` it makes itself); the pairs of `Cookie` in one
    /// order (curl sends cookies of the same path length newest first, apiexplorer oldest first as
    /// RFC 6265 §5.4 says); a multipart body's boundary (random on both sides) replaced by one name.
    static func comparable(
        _ ours: CurlCapture, _ curl: CurlCapture, boundaryAware: Bool, ignoring: Set<String> = []
    ) -> (CurlCapture, CurlCapture) {
        let oursAccept = ours.headers.contains { $0.hasPrefix("accept:") }
        func cleaned(_ capture: CurlCapture) -> CurlCapture {
            var capture = capture
            capture.headers = capture.headers.filter { header in
                let name = String(header.prefix { $0 != ":" })
                return !documentedDifferences.contains(name) && !ignoring.contains(name) && (oursAccept || header != "accept: */*")
            }
            capture.headers = capture.headers.filter { !$0.hasPrefix("content-length:") } + capture.headers.filter { $0.hasPrefix("content-length:") }
            capture.headers = capture.headers.map { header in
                guard header.hasPrefix("cookie: ") else { return header }
                return "cookie: " + header.dropFirst(8).split(separator: "; ").sorted().joined(separator: "; ")
            }
            guard boundaryAware, let type = capture.headers.first(where: { $0.hasPrefix("content-type: multipart/form-data") }),
                let range = type.range(of: "boundary=")
            else { return capture }
            let boundary = String(type[range.upperBound...])
            capture.headers = capture.headers.map { $0.replacing(boundary, with: "BOUNDARY") }
            capture.body = Array(String(decoding: capture.body, as: UTF8.self).replacing(boundary, with: "BOUNDARY").utf8)
            // The lengths differ with the boundaries' lengths; the bodies are compared instead.
            capture.headers = capture.headers.filter { !$0.hasPrefix("content-length:") }
            return capture
        }
        return (cleaned(ours), cleaned(curl))
    }

    /// Runs curl with no proxy but `extra`'s and no configuration file of the person running the tests.
    static func curl(_ arguments: [String], in directory: URL, environment extra: [String: String] = [:]) async throws -> ChildProcess.Captured {
        var environment = ProcessInfo.processInfo.environment
        for name in ["http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY", "CURL_HOME"] {
            environment[name] = nil
        }
        environment.merge(extra) { $1 }
        environment["HOME"] = directory.path
        let spawned = try ChildProcess("/usr/bin/curl", ["-q"] + arguments, environment: environment, directory: directory.path)
        return await spawned.finish()
    }
}

/// One request of a scenario: the catalog endpoint `call` sends, and what curl is given for it.
struct CurlStep: Sendable {
    /// The endpoint's id in the scenario's catalog.
    var endpoint: String
    /// The path and query curl requests (as the endpoint's request target).
    var curlPath: String
    /// curl's flags besides the URL, the cookie files and the output.
    var curl: [String]
}

/// A scenario: a catalog, the curl steps equivalent to its calls, and how the server answers.
struct CurlScenario: Sendable, CustomTestStringConvertible {
    var name: String
    /// Endpoints as catalog YAML, each line indented under `endpoints:`.
    var endpoints: String
    /// Extra environment keys (`redirects: false` …).
    var environment: String = ""
    var steps: [CurlStep]
    /// Files the scenario sends, written beside the catalog.
    var attachments: [String: [UInt8]] = [:]
    var isMultipart = false
    /// Header names this scenario differs in on purpose (each listed in docs/cli.md).
    var differences: Set<String> = []
    /// The server's answer; `port` is its own, for redirects to another origin.
    var answer: @Sendable (TestRequest, Int) -> TestResponse = { _, _ in .ok("ok") }
    /// Credentials written in the base URL (`ann:p%40ss`), for curl's URL too.
    var userinfo: String?
    /// The origin both send to through the capture server as their proxy (`http_proxy`); nil:
    /// the capture server is the origin.
    var origin: String?
    /// Whether curl exits non-zero on purpose (a proxy refusing a tunnel).
    var curlFails = false
    /// `call`'s flags beyond the usual (`-i`), when the scenario compares what both print.
    var callFlags: [String] = []
    /// What of both outputs must be the same (the body, the status line), when compared.
    var comparesOutput: (@Sendable (String) -> String)?

    var testDescription: String { name }

    /// The base URL both use: the origin, with the userinfo when given.
    func baseURL(server: String) -> String {
        let base = origin ?? server
        guard let userinfo, let range = base.range(of: "://") else { return base }
        return base.replacingCharacters(in: range, with: "://\(userinfo)@")
    }

    func respond(_ request: TestRequest, _ port: Int) -> TestResponse { answer(request, port) }

    func files(_ folder: TemporaryDirectory) throws {
        for (name, bytes) in attachments { try Data(bytes).write(to: folder.url.appendingPathComponent(name)) }
    }

    func catalog(baseURL: String) -> String {
        """
        service: conf
        environments:
          local:
            baseURL: \(baseURL)
            fixtures: never
            retry: none
        \(environment.isEmpty ? "" : "    " + environment)
        endpoints:
        \(endpoints)
        """
    }
}
