import Catalog
import Foundation
import StateStore
import SystemSupport
import TestSupport
import Testing

/// Issue 35, "a catalog from a stranger can't hurt you": one test per attack tried on a shared
/// catalog, each of which worked before the fix. Tests of the real binary are here; those of the
/// explorer's reducer and runtime are in `SecurityTests+Explorer.swift`.
extension BinaryTests {
    @Suite struct SecurityTests {
        // MARK: Files a catalog reads or writes

        /// `bodyFile: "{{f}}"` and a multipart `file: "{{g}}"` with the catalog's own values
        /// pointing out of its folder are errors at load (validate says where); a run-time value
        /// or a link that leads out is refused when the request is about to be sent: nothing is sent.
        @Test func aTemplatedPathUploadsNoFileFromOutsideTheCatalogFolder() async throws {
            let outside = try TemporaryDirectory()
            try outside.write("shadow", "root:canary-shadow-hash:19000")
            try await withTestHTTPServer(handler: { _ in .ok("stored") }) { server in
                let folder = try TemporaryDirectory()
                let state = try TemporaryDirectory()
                try folder.write("files/notes.txt", "a file of the catalog's own")
                try FileManager.default.createSymbolicLink(
                    atPath: folder.url.appendingPathComponent("files/link").path, withDestinationPath: outside.url.appendingPathComponent("shadow").path)
                try folder.write("up.yaml", """
                    service: up
                    variables: { f: "\(outside.path)/shadow", g: "../\(outside.url.lastPathComponent)/shadow" }
                    environments:
                      local: { baseURL: "\(server.baseURL.absoluteString)", fixtures: never }
                    endpoints:
                      upload: { method: PUT, path: /u, bodyFile: "{{f}}" }
                      form:
                        method: POST
                        path: /f
                        multipart: [{ name: doc, file: "{{g}}" }]
                      byName: { method: PUT, path: /n, bodyFile: "files/{{name}}" }
                    """)
                let validate = try await CLI.run(["validate", folder.path], state: state, trusting: false)
                #expect(validate.status == 1)
                #expect(validate.output.contains("up.yaml:6:46: error: the file '{{f}}' of endpoint 'upload' becomes '\(outside.path)/shadow'"), "\(validate.output)")
                #expect(validate.output.contains("up.yaml:10:36: error: the file '{{g}}' of endpoint 'form' becomes"), "\(validate.output)")
                #expect(validate.output.contains("up.yaml:11:46: warning: the file 'files/{{name}}' of endpoint 'byName' is named by {{name}}"), "\(validate.output)")

                // Trusted (so the request may go out at all), with values that lead out: refused.
                for name in ["../../\(outside.url.lastPathComponent)/shadow", "link"] {
                    let call = try await CLI.run(["call", "up/byName", "--var", "name=\(name)", "--catalog", folder.path], state: state)
                    #expect(call.status == 2, "\(name): \(call.errors)")
                    #expect(call.errors.contains("is outside the catalog folder") && call.errors.contains("nothing was sent"), "\(call.errors)")
                }
                #expect(server.requestCount == 0)
                // A file of its own goes.
                let own = try await CLI.run(["call", "up/byName", "--var", "name=notes.txt", "--catalog", folder.path], state: state)
                #expect(own.status == 0, "\(own.errors)")
                #expect(server.requests.map(\.bodyText) == ["a file of the catalog's own"])
            }
        }

        /// A catalog's `download:` goes in the downloads folder, confined to it, and replaces no
        /// file unless `--force`.
        @Test func aDownloadNeitherLeavesTheDownloadsFolderNorReplacesAFile() async throws {
            try await withTestHTTPServer(handler: { _ in .text("the server's report") }) { server in
                let folder = try TemporaryDirectory()
                let state = try TemporaryDirectory()
                let downloads = try TemporaryDirectory()
                let elsewhere = try TemporaryDirectory()
                try downloads.write("report.txt", "my own report")
                try FileManager.default.createSymbolicLink(atPath: downloads.url.appendingPathComponent("out").path, withDestinationPath: elsewhere.path)
                try folder.write("d.yaml", """
                    service: d
                    environments:
                      local: { baseURL: "\(server.baseURL.absoluteString)", fixtures: never }
                    endpoints:
                      report: { path: /r, download: report.txt }
                      climb: { path: /r, download: ../climbed.txt }
                      absolute: { path: /r, download: "\(elsewhere.path)/absolute.txt" }
                      linked: { path: /r, download: out/linked.txt }
                    """)
                let environment = [DownloadsFolder.environmentVariable: downloads.path]
                func call(_ endpoint: String, _ extra: [String] = []) async throws -> CLI.Result {
                    try await CLI.run(["call", "d/\(endpoint)", "--catalog", folder.path] + extra, state: state, environment: environment)
                }
                let kept = try await call("report")
                #expect(kept.status == 2)
                #expect(kept.errors.contains("\(downloads.path)/report.txt exists; --force replaces it"), "\(kept.errors)")
                #expect(try String(contentsOfFile: downloads.url.appendingPathComponent("report.txt").path, encoding: .utf8) == "my own report")
                for endpoint in ["climb", "absolute", "linked"] {
                    let refused = try await call(endpoint)
                    #expect(refused.status == 2, "\(endpoint)")
                    #expect(refused.errors.contains("the download"), "\(endpoint): \(refused.errors)")
                }
                #expect(server.requestCount == 0)
                #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).isEmpty)
                #expect(!FileManager.default.fileExists(atPath: downloads.url.deletingLastPathComponent().appendingPathComponent("climbed.txt").path))

                let replaced = try await call("report", ["--force"])
                #expect(replaced.status == 0, "\(replaced.errors)")
                #expect(try String(contentsOfFile: downloads.url.appendingPathComponent("report.txt").path, encoding: .utf8) == "the server's report")
                // Written under a temporary name, then renamed: nothing half-written is left.
                #expect(try FileManager.default.contentsOfDirectory(atPath: downloads.path).sorted() == ["out", "report.txt"])
            }
        }

        // MARK: Memory

        /// 1 MB of valid YAML repeating a 1 MiB string through aliases (4 GB once expanded) fails
        /// at the first alias past 64 MiB, with its file:line:column, in bounded memory and time.
        @Test func aStringRepeatingAliasBombFailsFastInBoundedMemory() async throws {
            let folder = try TemporaryDirectory()
            let small = try TemporaryDirectory()
            let state = try TemporaryDirectory()
            try small.write("s.yaml", "environments: { local: { baseURL: \"http://127.0.0.1:1\" } }\nendpoints: { one: { path: /one } }\n")
            let string = String(repeating: "0123456789abcdef", count: 1 << 16)
            try folder.write("bomb.yaml", """
                environments: { local: { baseURL: "http://127.0.0.1:1" } }
                endpoints:
                  one:
                    path: /one
                    stub:
                      body:
                        big: &big "\(string)"
                        copies: [\(Array(repeating: "*big", count: 4_000).joined(separator: ", "))]

                """)
            let baseline = try await CLI.run(["validate", small.path], state: state, trusting: false)
            #expect(baseline.status == 0)
            let started = ContinuousClock.now
            let result = try await CLI.run(["validate", folder.path], state: state, trusting: false)
            let wall = ContinuousClock.now - started
            #expect(result.status == 1)
            #expect(
                result.output.contains("bomb.yaml:8:390: error: the alias *big makes the document larger than 64 MiB of text once its aliases are expanded"),
                "\(result.output)")
            let growth = result.peakMemory - baseline.peakMemory
            #expect(growth < 64 << 20, "grew \(growth >> 20) MiB (\(baseline.peakMemory >> 20) → \(result.peakMemory >> 20) MiB)")
            // Generous: the machine is shared; a 4 GB expansion takes minutes, a counted one milliseconds.
            #expect(wall < .seconds(20), "\(wall)")
        }

        // MARK: Secrets

        /// A catalog reads no environment variable it names: an untrusted one none at all, a
        /// trusted one `APIEXPLORER_SECRET_NAME` or the variable it declares.
        @Test func anUntrustedCatalogHarvestsNoEnvironmentVariable() async throws {
            try await withTestHTTPServer(handler: { request in .ok(request.header("Authorization") ?? "") }) { server in
                let folder = try TemporaryDirectory()
                let state = try TemporaryDirectory()
                let catalog = """
                    service: harvest
                    environments:
                      local: { baseURL: "\(server.baseURL.absoluteString)", fixtures: never }
                    groups:
                      sneaky: { headers: { Authorization: "Bearer {{secret.GITHUB_TOKEN}}", X-Aws: "{{secret.AWS_SECRET_ACCESS_KEY}}" } }
                    endpoints:
                      steal:
                        path: /steal
                        group: sneaky
                        examples: { echo: { echo: true } }
                    """
                try folder.write("harvest.yaml", catalog)
                let environment = ["GITHUB_TOKEN": "canary-github-token", "AWS_SECRET_ACCESS_KEY": "canary-aws-secret"]
                func call(_ arguments: [String], trusting: Bool) async throws -> CLI.Result {
                    try await CLI.run(["call", "harvest/steal", "--catalog", folder.path] + arguments, state: state, environment: environment, trusting: trusting)
                }
                // Untrusted, live: nothing goes, and what it would read is said.
                let live = try await call([], trusting: false)
                #expect(live.status == 2)
                #expect(live.errors.contains("harvest.yaml is not trusted"), "\(live.errors)")
                #expect(live.errors.contains("reads secret GITHUB_TOKEN from $APIEXPLORER_SECRET_GITHUB_TOKEN"), "\(live.errors)")
                // Untrusted, stub: the environment is not read.
                let stub = try await call(["--stub", "--example", "echo"], trusting: false)
                #expect(stub.status == 2)
                #expect(stub.errors.contains("the catalog is not trusted, so no secret is read from the environment"), "\(stub.errors)")
                // Trusted: still only what it declares.
                let trusted = try await call([], trusting: true)
                #expect(trusted.status == 2)
                #expect(trusted.errors.contains("set $APIEXPLORER_SECRET_GITHUB_TOKEN in the environment"), "\(trusted.errors)")
                #expect(server.requestCount == 0)
                for result in [live, stub, trusted] { #expect(!(result.output + result.errors).contains("canary")) }

                // Declared and trusted (`apiexplorer trust`): read.
                try folder.write(
                    "harvest.yaml", catalog + "\nsecrets: { GITHUB_TOKEN: { env: GITHUB_TOKEN }, AWS_SECRET_ACCESS_KEY: { env: AWS_SECRET_ACCESS_KEY } }\n")
                let trust = try await CLI.run(["trust", folder.path], state: state, trusting: false)
                #expect(trust.status == 0, "\(trust.errors)")
                #expect(trust.output.contains("reads secret GITHUB_TOKEN from $GITHUB_TOKEN or $APIEXPLORER_SECRET_GITHUB_TOKEN"), "\(trust.output)")
                #expect(trust.output.contains("sends requests to \(server.baseURL.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/")))"), "\(trust.output)")
                let sent = try await call([], trusting: false)
                #expect(sent.status == 0, "\(sent.errors)")
                #expect(server.lastRequest?.header("Authorization") == "Bearer canary-github-token")
                // The server echoed it: masked.
                #expect(!sent.output.contains("canary"))
                // Any change to the file makes it a stranger's again.
                try folder.write("harvest.yaml", catalog + "\n# changed\n")
                #expect(try await call([], trusting: false).status == 2)
                #expect(server.requestCount == 1)
            }
        }

        /// `call --include` masks `Set-Cookie` (as the Headers tab does), and a cookie's value echoed
        /// in the body is masked like every secret the request carries.
        @Test func cookiesAreMaskedInHeadersAndBodiesOfCall() async throws {
            try await withTestHTTPServer(handler: { _ in
                .json(#"{"session":"canary-cookie-7777","note":"hello"}"#).withHeader("Set-Cookie", "session=canary-cookie-7777; Path=/; HttpOnly")
            }) { server in
                let folder = try TemporaryDirectory()
                let state = try TemporaryDirectory()
                try folder.write("c.yaml", """
                    service: c
                    environments:
                      local: { baseURL: "\(server.baseURL.absoluteString)", fixtures: never }
                    endpoints:
                      login: { path: /login }
                    """)
                let result = try await CLI.run(["call", "c/login", "--include", "--catalog", folder.path], state: state)
                #expect(result.status == 0, "\(result.errors)")
                #expect(result.output.contains("Set-Cookie: session=••••; Path=/; HttpOnly"), "\(result.output)")
                #expect(result.output.contains(#""session":"••••""#), "\(result.output)")
                #expect(!result.output.contains("canary"))
            }
        }

        // MARK: Concurrency

        /// Twenty `call`s capturing at once all keep what they captured.
        @Test func twentyParallelCapturesAreAllKept() async throws {
            let folder = try TemporaryDirectory()
            let state = try TemporaryDirectory()
            var text = "service: cap\nenvironments:\n  local: { baseURL: \"http://127.0.0.1:1\" }\nendpoints:\n"
            for index in 1...20 {
                text += "  e\(index): { path: /e\(index), captures: { v\(index): $.id }, stub: { body: { id: \(index) } } }\n"
            }
            try folder.write("cap.yaml", text)
            let results = try await withThrowingTaskGroup(of: CLI.Result.self) { group in
                for index in 1...20 {
                    group.addTask { try await CLI.run(["call", "cap/e\(index)", "--no-history", "--catalog", folder.path], state: state) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.allSatisfy { $0.status == 0 })
            let captured = ExplorerStateFiles.captured(inFolder: state.url.appendingPathComponent("apiexplorer").path).load()
            let values = captured[EnvironmentKey(try #require(CatalogLoader.load(.folder(folder.path), trust: .everything).service("cap")), environment: "local")]?.stub ?? [:]
            #expect(values.count == 20, "kept \(values.keys.sorted())")
            #expect((1...20).allSatisfy { values["v\($0)"]?.value == "\($0)" })
        }
    }
}
