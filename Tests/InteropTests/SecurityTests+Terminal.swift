import Catalog
import Foundation
import StateStore
import SystemSupport
import TestSupport
import Testing

extension BinaryTests.SecurityTests {
    /// Runs `apiexplorer arguments…` on a pseudo-terminal (its output and errors are a terminal,
    /// as a person's are) with `state` as the XDG state home; returns its status and every byte it wrote.
    static func runOnTerminal(_ arguments: [String], state: TemporaryDirectory, environment extra: [String: String] = [:]) throws -> (status: Int32, output: [UInt8]) {
        var environment = ProcessInfo.processInfo.environment
        for name in ["APIEXPLORER_CATALOG", "http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"] { environment[name] = nil }
        environment["XDG_STATE_HOME"] = state.path
        environment["TERM"] = "xterm-256color"
        environment.merge(extra) { $1 }
        return try PseudoTerminal(CLI.binary.path, arguments: arguments, environment: environment).finish()
    }

    /// A title, a server's error message, the history, a header in `export curl`, a WebSocket close
    /// reason, a body: written to a terminal, none reaches it as control characters (OSC 52 would
    /// rewrite the clipboard, OSC 0 the title); they show in caret notation instead. Piped, a body
    /// is written as received, unless `--safe`.
    @Test func controlSequencesReachNoTerminal() async throws {
        let osc52 = "\u{1B}]52;c;cHduZWQ=\u{07}"
        try await withTestHTTPServer(handler: { request in
            request.path == "/fail"
                ? .json(#"{"message":"denied \u001b]52;c;cHduZWQ=\u0007 by the server"}"#, status: .forbidden)
                : .text("body \(osc52) end")
        }) { server in
            let folder = try TemporaryDirectory()
            let state = try TemporaryDirectory()
            try folder.write("evil.yaml", """
                service: evil
                title: "Evil \\e]0;pwned\\a catalog"
                environments:
                  local: { baseURL: "\(server.baseURL.absoluteString)", fixtures: never }
                endpoints:
                  fail: { path: /fail, title: "Fail \\e]52;c;dGl0bGU=\\a" }
                  exported: { path: /x, headers: { X-Note: "\\e]52;c;aGVhZGVy\\a" } }
                  body: { path: /body }
                  chat:
                    path: /chat
                    websocket: { script: [{ close: 4000, reason: "bye \\e]52;c;d2Vic29ja2V0\\a" }] }
                """)
            let catalog = ["--trust", "--catalog", folder.path]
            let runs: [(String, [String])] = [
                ("call (a server's error message)", ["call", "evil/fail"] + catalog),
                ("call --include (a body, safe on a terminal)", ["call", "evil/body", "--include"] + catalog),
                ("history", ["history"]),
                ("list", ["list"] + catalog),
                ("export curl", ["export", "curl", "evil/exported"] + catalog),
                ("call on a WebSocket (its close reason)", ["call", "evil/chat", "--stub", "--include", "--listen", "0"] + catalog),
            ]
            for (what, arguments) in runs {
                let (status, output) = try Self.runOnTerminal(arguments, state: state)
                #expect(status < 128, "\(what) ended by a signal")
                #expect(!output.contains(0x1B), "\(what): \(String(decoding: output, as: UTF8.self))")
                #expect(!output.contains(0x07), "\(what)")
                #expect(String(decoding: output, as: UTF8.self).contains("^[]"), "\(what): shown, not dropped: \(String(decoding: output, as: UTF8.self))")
            }
            // Piped (a program reads it), the body is the server's bytes, as curl writes them; --safe cleans it there too.
            let raw = try await CLI.run(["call", "evil/body"] + catalog, state: state)
            #expect(raw.output == "body \(osc52) end")
            let safe = try await CLI.run(["call", "evil/body", "--safe"] + catalog, state: state)
            #expect(safe.output == "body ^[]52;c;cHduZWQ=^G end")
            // On a terminal, --no-safe writes it as received.
            let (_, unsafe) = try Self.runOnTerminal(["call", "evil/body", "--no-safe"] + catalog, state: state)
            #expect(String(decoding: unsafe, as: UTF8.self).contains(osc52))
        }
    }

    /// A server that speaks only TLS 1.0 and 1.1 is refused; an environment that accepts it with
    /// `tls.minimumVersion` is warned about on every call, as `tls.insecure` is.
    @Test func aServerSpeakingOnlyTLS11IsRefusedAndAWeakenedEnvironmentWarned() async throws {
        try await withTestHTTPServer(tls: TestServerTLS.trusted.oldTLSOnly(), handler: { _ in .ok("old") }) { server in
            let folder = try TemporaryDirectory()
            let state = try TemporaryDirectory()
            try FileManager.default.copyItem(at: TestCertificates.ca.certificateURL, to: folder.url.appendingPathComponent("ca.pem"))
            func write(_ tls: String) throws {
                try folder.write("old.yaml", """
                    service: old
                    environments:
                      local: { baseURL: "\(server.baseURL.absoluteString)", fixtures: never, retry: none, tls: { ca: ca.pem\(tls) } }
                    endpoints:
                      get: { path: / }
                    """)
            }
            try write("")
            let refused = try await CLI.run(["call", "old/get", "--catalog", folder.path], state: state)
            #expect(refused.status == 1)
            #expect(refused.errors.contains("error: tlsFailure"), "\(refused.errors)")
            #expect(server.requestCount == 0)
            try write(", minimumVersion: \"1.1\"")
            let accepted = try await CLI.run(["call", "old/get", "--catalog", folder.path], state: state)
            #expect(accepted.status == 0, "\(accepted.errors)")
            #expect(accepted.output == "old")
            #expect(accepted.errors.contains("warning: in local, TLS 1.1 is accepted (tls.minimumVersion)"), "\(accepted.errors)")
            try write(", minimumVersion: \"1.1\", insecure: true")
            let insecure = try await CLI.run(["call", "old/get", "--catalog", folder.path], state: state)
            #expect(insecure.errors.contains("warning: in local, certificate verification is off (tls.insecure)"), "\(insecure.errors)")
        }
    }

    /// Two explorers share a state folder, each makes a draft, both are killed with SIGKILL:
    /// both drafts are there. A temporary file a killed write left behind is gone at the next start.
    @Test func twoExplorersKilledKeepBothDrafts() async throws {
        let folder = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        try folder.write("two.yaml", """
            service: two
            environments:
              local: { baseURL: "http://127.0.0.1:1" }
            endpoints:
              first: { path: /first }
              second: { path: /second }
            """)
        let stateFolder = state.url.appendingPathComponent("apiexplorer")
        try FileManager.default.createDirectory(at: stateFolder, withIntermediateDirectories: true)
        // What a writer killed before its rename leaves, named with its (now gone) pid.
        let gone = try ChildProcess("/bin/true", [], environment: [:])
        _ = gone.wait()
        let leftovers = [stateFolder.appendingPathComponent(".drafts.json.\(gone.pid).Ab12Cd"), folder.url.appendingPathComponent(".two.yaml.\(gone.pid).Ef34Gh")]
        for file in leftovers { try Data("half".utf8).write(to: file) }

        var environment = ProcessInfo.processInfo.environment
        environment["APIEXPLORER_CATALOG"] = nil
        environment["XDG_STATE_HOME"] = state.path
        environment["TERM"] = "xterm-256color"
        let arguments = ["--catalog", folder.path, "--no-mouse"]
        let drafts = ExplorerStateFiles.drafts(inFolder: stateFolder.path)
        let environmentKey = EnvironmentKey(try #require(CatalogLoader.load(.folder(folder.path), trust: .everything).service("two")), environment: "local")
        func waitFor(_ what: String, _ condition: () -> Bool) async throws {
            let deadline = ContinuousClock.now + .seconds(60)
            while !condition() {
                guard ContinuousClock.now < deadline else { throw CancellationError() }
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        let first = try PseudoTerminal(CLI.binary.path, arguments: arguments, environment: environment)
        let second = try PseudoTerminal(CLI.binary.path, arguments: arguments, environment: environment)
        defer {
            kill(first.pid, SIGKILL)
            kill(second.pid, SIGKILL)
            _ = first.finish(timeout: .seconds(5))
            _ = second.finish(timeout: .seconds(5))
        }
        // Started: the leftovers are cleaned (the first explorer to start does it).
        try await waitFor("the leftovers cleaned") { leftovers.allSatisfy { !FileManager.default.fileExists(atPath: $0.path) } }
        // Both show their catalogs (and read the empty drafts) before either writes; then each
        // changes its endpoint's method in the Edit tab.
        #expect(first.waitForOutput(containing: "second"))
        #expect(second.waitForOutput(containing: "second"))
        try await Task.sleep(for: .milliseconds(300))
        first.type("\t6\r\u{15}PUT\r")
        try await waitFor("the first draft") { drafts.load()[environmentKey]?["first"] != nil }
        second.type("j\t6\r\u{15}DELETE\r")
        try await waitFor("the second draft") { drafts.load()[environmentKey]?["second"] != nil }
        kill(first.pid, SIGKILL)
        kill(second.pid, SIGKILL)
        let kept = drafts.load()[environmentKey] ?? [:]
        #expect(kept["first"]?.method == .put, "\(kept)")
        #expect(kept["second"]?.method == .delete, "\(kept)")
    }
}
