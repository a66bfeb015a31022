import Foundation
import NIOHTTP1
import TestSupport
import Testing
import TestTraits

/// Issue 49, item 1, as it was found: hostile servers whose transfers fail after a `200` head.
/// `test` reports each as an error (exit 3, "errored" in the JSON report) whatever `expect:` says,
/// and `call` reports the same kind (exit 1): the one rule they share (`Exchange.failedTransfer`).
@Suite(.offPool) struct FailedTransferTests {
    /// `path`, the kind `call` and `test` report, and what the server does.
    static let cases: [(path: String, kind: String)] = [
        ("/reset", "connectionLost"),  // a reset after 1,000 of 100,000 bytes
        ("/deadline", "timeout"),  // the total deadline after 15 bytes
        ("/declared", "bodyTooLarge"),  // a declared 5 GB body
        ("/chunked", "bodyTooLarge"),  // a chunked body past the cap
        ("/gzip", "bodyTooLarge"),  // a gzip body decoding past the cap
    ]

    static func answer(_ request: TestRequest) -> TestResponse {
        let json: HTTPHeaders = ["Content-Type": "application/json"]
        switch request.path {
        case "/reset":
            var body = Array(#"{"ok":true,"padding":""#.utf8)
            body += [UInt8](repeating: UInt8(ascii: "x"), count: 1000 - body.count)
            return TestResponse(headers: json, behaviour: .truncated(declaredLength: 100_000, sent: body, ending: .reset))
        case "/deadline":
            return TestResponse(headers: json, behaviour: .truncated(declaredLength: 1000, sent: Array(#"{"ok":true,"p":1"#.utf8), ending: .stall))
        case "/declared":
            return TestResponse(headers: json, behaviour: .truncated(declaredLength: 5_000_000_000, sent: [], ending: .stall))
        case "/chunked":
            return .chunked(totalBytes: 1 << 20, chunkSize: 16 << 10, headers: json)
        case "/gzip":
            return TestResponse(
                headers: ["Content-Type": "application/json", "Content-Encoding": "gzip"],
                behaviour: .body(TestCompression.gzip(repeating: UInt8(ascii: " "), count: 1 << 20)))
        default:
            return .json(#"{"ok":true}"#)
        }
    }

    static func catalog(_ baseURL: String) -> String {
        liveCatalog(
            "h", baseURL: baseURL,
            endpoints: [
                "reset: { path: /reset, expect: { status: 200, bodySize: { greaterThan: 10 } } }",
                "deadline: { path: /deadline, timeouts: { total: 1s }, expect: { status: 200 } }",
                "declared: { path: /declared, expect: { status: 200, headers: { Content-Type: application/json } } }",
                "chunked: { path: /chunked, expect: { status: 200, bodySize: { greaterThan: 10 } } }",
                "gzip: { path: /gzip, expect: { status: 200, time: { lessThan: 60s } } }",
                "fine: { path: /fine, expect: { status: 200, body: { $.ok: true } } }",
            ])
    }

    @Test func aFailedTransferIsAnErrorWhateverItExpected() async throws {
        try await withTestHTTPServer(handler: { Self.answer($0) }) { server in
            let folder = try TemporaryDirectory()
            try folder.write("h.yaml", Self.catalog(server.baseURL.absoluteString))
            let state = try TemporaryDirectory()
            let report = state.url.appendingPathComponent("report.json").path
            let run = try await CLI.run(
                ["test", "h", "--live", "--catalog", folder.path, "--max-body-size", "256KiB", "--report", "json:\(report)"], state: state)
            #expect(run.status == 3, "\(run.output) \(run.errors)")
            let json = try jsonObject(Data(contentsOf: URL(fileURLWithPath: report)))
            let tests = try #require(json["tests"] as? [[String: Any]])
            var statuses: [String: String] = [:]
            var messages: [String: String] = [:]
            for test in tests {
                let name = try #require(test["name"] as? String)
                statuses[name] = test["status"] as? String
                messages[name] = test["message"] as? String
            }
            #expect(statuses["fine"] == "passed")
            for (path, kind) in Self.cases {
                let name = String(path.dropFirst())
                #expect(statuses[name] == "errored", "\(name): \(statuses[name] ?? "-")")
                #expect(messages[name]?.hasPrefix("\(kind):") == true, "\(name): \(messages[name] ?? "-")")
            }
            let summary = try #require(json["summary"] as? [String: Any])
            #expect(summary["passed"] as? Int == 1)
            #expect(summary["errors"] as? Int == Self.cases.count)
            #expect(summary["exitStatus"] as? Int == 3)

            // `call` says the same of each, by the same rule.
            for (path, kind) in Self.cases {
                let call = try await CLI.run(
                    ["call", "h/\(path.dropFirst())", "--live", "--json", "--no-history", "--catalog", folder.path, "--max-body-size", "256KiB"],
                    state: state)
                #expect(call.status == 1, "\(path): \(call.errors)")
                let object = try jsonObject(call.stdout)
                let error = try #require(object["error"] as? [String: Any], "\(path)")
                #expect(error["kind"] as? String == kind, "\(path)")
                if let response = object["response"] as? [String: Any], let body = response["body"] as? [String: Any] {
                    #expect(body["truncated"] as? Bool == true, "\(path): what arrived before the failure is part of a body")
                }
            }
        }
    }
}
