import Catalog
import CatalogAuthoring
import CatalogTestSupport
import DispatcherCore
import Foundation
import RequestExport
import Sessions
import SystemSupport
import TestSupport
import Testing
import TestTraits

/// Code export: the generated Python and JavaScript programs, run against a server on
/// 127.0.0.1, send the request `call` would send; secrets are masked unless revealed.
@Suite(.offPool) struct RequestCodeTests {
    static let catalog = """
        service: shop
        environments:
          local:
            baseURL: BASE
            fixtures: immediate
            headers: { Accept: application/json }
            secretDefaults: { SHOP_TOKEN: code-export-token }
        groups:
          signedIn: { headers: { Authorization: "Bearer {{secret.SHOP_TOKEN}}" } }
        endpoints:
          createItem:
            method: POST
            group: signedIn
            path: /items/{{id}}
            query: { dry run: "yes & no", page: "2" }
            headers: { X-Trace: "t-1" }
            parameters: { id: "7" }
            body: { name: "Lamp \\"desk\\"", tags: [a, "é"] }
        """

    /// The request `call` sends for shop/createItem against `base`.
    static func request(base: String) async throws -> Request {
        let folder = try TemporaryDirectory()
        try folder.write("shop.yaml", catalog.replacing("BASE", with: base))
        let loaded = CatalogLoader.load(folder.catalogSource, trust: .everything)
        #expect(!loaded.hasErrors, "\(loaded.diagnostics)")
        let service = try #require(loaded.service("shop"))
        let selection = EndpointSelection(service: service, endpoint: try #require(service.endpoint("createItem")), environment: service.environments[0])
        return await EndpointCaller(catalog: loaded, transport: nil).call(selection, mode: .stub).exchange.request
    }

    /// Runs `code` with `tool` (from PATH) against a test server; the request it received.
    /// Skips (saying so) when `tool` is not on PATH or `probe` (its arguments) fails: a missing module.
    static func run(_ tool: String, probe: [String], file name: String, code: RequestCode) async throws -> (sent: Request, received: TestRequest)? {
        try await run(tool, probe: probe, file: name) { code.render($0, redactor: nil) }
    }

    /// `tool` from PATH and an environment without proxies, when it is there and `probe` (its
    /// arguments) succeeds; nil, said, otherwise (a missing module).
    static func available(_ tool: String, probe: [String]) async throws -> (path: String, environment: [String: String])? {
        var environment = ProcessInfo.processInfo.environment
        for proxy in ["http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"] { environment[proxy] = nil }
        let directories = (environment["PATH"] ?? "/usr/bin").split(separator: ":").map(String.init)
        guard let path = directories.map({ "\($0)/\(tool)" }).first(where: { FileManager.default.isExecutableFile(atPath: $0) }),
            await (try ChildProcess(path, probe, environment: environment, directory: "/")).finish().status == 0
        else {
            print("skipped: \(tool) (\(probe.joined(separator: " "))) is not available")
            return nil
        }
        return (path, environment)
    }

    /// Runs the program `render` writes for the request with `tool` against a test server.
    static func run(_ tool: String, probe: [String], file name: String, render: (Request) -> String) async throws -> (sent: Request, received: TestRequest)? {
        guard let (path, environment) = try await available(tool, probe: probe) else { return nil }
        return try await withTestHTTPServer(handler: { _ in .ok() }) { server in
            let sent = try await request(base: server.url("/api").absoluteString)
            let folder = try TemporaryDirectory()
            try folder.write(name, render(sent))
            let result = await (try ChildProcess(path, [folder.url.appendingPathComponent(name).path], environment: environment, directory: folder.path)).finish()
            #expect(result.status == 0, "\(result.errors)")
            #expect(result.output.contains("200"), "\(result.output)")
            return (sent, try #require(server.lastRequest))
        }
    }

    static func expectSame(_ sent: Request, _ received: TestRequest) {
        #expect(received.method.rawValue == "POST")
        #expect(received.uri == "/api/items/7?" + (sent.url.query ?? ""))
        #expect(received.bodyData == sent.body)
        for field in sent.headers {
            #expect(received.header(field.name) == field.value, "\(field.name)")
        }
    }

    @Test func curlSendsTheSameRequest() async throws {
        // The command as `export curl` prints it, with curl told to print only the status.
        guard let (sent, received) = try await Self.run("sh", probe: ["-c", "command -v curl"], file: "request.sh", render: {
            $0.curlCommand(redactor: nil) + " -s -o /dev/null -w '%{http_code}'"
        }) else { return }
        Self.expectSame(sent, received)
        #expect(received.header("Authorization") == "Bearer code-export-token")
    }

    @Test func httpieSendsTheSameRequest() async throws {
        guard let (sent, received) = try await Self.run("sh", probe: ["-c", "command -v http"], file: "request.sh", render: {
            RequestCode.httpie.render($0, redactor: nil).trimmingCharacters(in: .newlines) + " --print=h"
        }) else { return }
        Self.expectSame(sent, received)
    }

    @Test func pythonSendsTheSameRequest() async throws {
        guard let (sent, received) = try await Self.run("python3", probe: ["-c", "import requests"], file: "request.py", code: .python) else { return }
        Self.expectSame(sent, received)
        #expect(received.header("Authorization") == "Bearer code-export-token")
    }

    @Test func javaScriptSendsTheSameRequest() async throws {
        guard let (sent, received) = try await Self.run("node", probe: ["-e", "fetch"], file: "request.mjs", code: .javascript) else { return }
        Self.expectSame(sent, received)
    }

    @Test func secretsAreMaskedUnlessRevealed() async throws {
        let request = try await Self.request(base: "http://127.0.0.1:9/api")
        for code in RequestCode.allCases {
            let masked = code.render(request)
            #expect(masked.contains("Bearer ••••"), "\(code)")
            #expect(!masked.contains("code-export-token"), "\(code)")
            #expect(code.render(request, redactor: nil).contains("code-export-token"), "\(code)")
        }
        #expect(RequestCode.httpie.render(request).hasPrefix("http --ignore-stdin POST 'http://127.0.0.1:9/api/items/7?dry%20run=yes%20%26%20no&page=2' \\\n  Accept:application/json \\\n"))
    }
}
