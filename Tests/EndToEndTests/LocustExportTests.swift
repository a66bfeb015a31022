import Foundation
import SystemSupport
import TestSupport
import Testing
import TestTraits

extension EndToEnd {
    /// `apiexplorer export locust`: the bundled petstore's `adopt` flow as a locustfile, run
    /// headless by Locust (PyPI) against `apiexplorer mock` on a free port.
    @Suite(.offPool) struct LocustExportTests {
        @Test func theAdoptFlowRunsHeadlessAgainstTheMockWithoutFailures() async throws {
            guard let locust = Self.locust() else { return }
            let mocked = try MockedCatalogs()
            defer { mocked.remove() }
            let folder = mocked.catalog.directory
            let file = folder.appendingPathComponent("adopt_locustfile.py")
            let (status, output) = try await ProductProcess.run(
                ["export", "locust", "petstore/adopt", "--env", "local", "--catalog", folder.path, "--out", file.path])
            #expect(status == 0, "\(String(decoding: output, as: UTF8.self))")
            let text = try String(contentsOf: file, encoding: .utf8)
            // The demo secrets (secretDefaults) are not written; the file reads them from the environment.
            #expect(!text.contains("demo-token") && !text.contains("demo-password"))
            #expect(text.contains(#""Authorization": "Bearer {{secret.PETSTORE_TOKEN}}""#))
            #expect(text.contains(#""url": "/petstore/pet/{{petId}}""#))

            let host = try #require(text.firstMatch(of: /host = "(http:\/\/127\.0\.0\.1:\d+)"/)).1
            let steps = ["login", "addPet", "findPet", "getInventory", "listPets"].map { "adopt/\($0)" }
            let (result, stats) = try await Self.runUntilSeen(
                steps, locust: locust, file: file, host: String(host), users: 2, in: folder,
                secrets: ["APIEXPLORER_SECRET_PETSTORE_TOKEN": "demo-token", "APIEXPLORER_SECRET_PETSTORE_PASSWORD": "demo-password"])
            let log = String(decoding: result.stdout, as: UTF8.self)
            #expect(result.status == 0, "\(log)")
            // Every step of the flow was sent, and none failed.
            for step in steps {
                #expect((stats.requests[step]?.first ?? 0) > 0, "\(step) was not sent: \(stats)")
                #expect(stats.requests[step]?.last == 0, "\(stats)\n\(log)")
            }
        }

        /// Counts per request name ([sent, failed]) and errors ([name, message]), as Locust's
        /// stats hold them when it quits.
        struct Stats: Decodable, CustomStringConvertible {
            var requests: [String: [Int]]
            var errors: [[String]]
            var description: String { "requests \(requests), errors \(errors)" }
        }

        /// Runs the exported locustfile until every request named in `names` was made, with a
        /// second locustfile beside it that then stops Locust (as Ctrl-C would) and writes the
        /// stats as it quits. A fixed run time (`-t 3s`) could pass on a starved machine before
        /// anything was sent, and Locust's CSV files are written on a timer, not at the end;
        /// `-t` stays only as a cap.
        static func runUntilSeen(
            _ names: [String], locust: String, file: URL, host: String, users: Int, in folder: URL, secrets: [String: String]
        ) async throws -> (ChildProcess.Captured, Stats) {
            let stopper = folder.appendingPathComponent("stop_when_seen.py")
            try """
                from json import dump
                from os import environ, getpid, kill
                from signal import SIGTERM
                from locust import events

                wanted = set(environ["STOP_AFTER"].split(","))
                seen = set()
                environment = None

                @events.init.add_listener
                def keep_environment(environment, **kwargs):
                    globals()["environment"] = environment

                @events.request.add_listener
                def stop_when_seen(name, **kwargs):
                    seen.add(name)
                    if wanted <= seen:
                        kill(getpid(), SIGTERM)

                @events.quit.add_listener
                def write_stats(exit_code, **kwargs):
                    stats = environment.runner.stats
                    with open(environ["STATS_OUT"], "w") as file:
                        dump({
                            "requests": {entry.name: [entry.num_requests, entry.num_failures] for entry in stats.entries.values()},
                            "errors": [[error.name, str(error.error)] for error in stats.errors.values()],
                        }, file)
                """.write(to: stopper, atomically: true, encoding: .utf8)
            let output = folder.appendingPathComponent("stats.json")
            let run = try ChildProcess(
                locust,
                ["-f", "\(file.path),\(stopper.path)", "--headless", "-u", "\(users)", "-r", "\(users)", "-t", "300s", "--host", host, "--only-summary"],
                environment: ProcessInfo.processInfo.environment.merging(secrets) { $1 }.merging([
                    "STOP_AFTER": names.joined(separator: ","), "STATS_OUT": output.path,
                ]) { $1 },
                directory: folder.path)
            let result = await run.finish()
            let stats = try JSONDecoder().decode(Stats.self, from: Data(contentsOf: output))
            return (result, stats)
        }

        @Test func aCheckThatDoesNotHoldIsALocustFailure() async throws {
            guard let locust = Self.locust() else { return }
            let mocked = try MockedCatalogs()
            defer { mocked.remove() }
            let folder = mocked.catalog.directory
            // addPet answers 201; the flow's copy now expects 418.
            let catalogFile = folder.appendingPathComponent("petstore.yaml")
            let yaml = try String(contentsOf: catalogFile, encoding: .utf8)
            try yaml.replacingOccurrences(of: "    expect:\n      status: 201\n", with: "    expect:\n      status: 418\n")
                .write(to: catalogFile, atomically: true, encoding: .utf8)
            let file = folder.appendingPathComponent("adopt_locustfile.py")
            let (status, _) = try await ProductProcess.run(["export", "locust", "adopt", "--catalog", folder.path, "--out", file.path])
            #expect(status == 0)
            let text = try String(contentsOf: file, encoding: .utf8)
            let host = try #require(text.firstMatch(of: /host = "(http:\/\/127\.0\.0\.1:\d+)"/)).1
            let (result, stats) = try await Self.runUntilSeen(
                ["adopt/addPet"], locust: locust, file: file, host: String(host), users: 1, in: folder,
                secrets: ["APIEXPLORER_SECRET_PETSTORE_TOKEN": "t", "APIEXPLORER_SECRET_PETSTORE_PASSWORD": "p"])
            let log = String(decoding: result.stdout, as: UTF8.self)
            #expect(result.status == 1, "\(log)")
            let failures = stats.errors.filter { $0.first == "adopt/addPet" }.compactMap(\.last)
            #expect(failures.contains { $0.contains("expected status is 418") }, "\(stats)\n\(log)")
            // The flow stops at the failing step: findPet never ran without the id addPet should have captured.
            #expect(stats.requests["adopt/findPet"] == nil, "\(stats)")
        }

        /// `locust` on PATH, installed with pip when missing; nil (saying why) when neither is possible.
        static func locust() -> String? {
            func find() -> String? {
                let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
                return directories.map { "\($0)/locust" }.first { FileManager.default.isExecutableFile(atPath: $0) }
            }
            if let found = find() { return found }
            guard (try? Subprocess.run(["python3", "-m", "pip", "install", "--quiet", "locust"]))?.status == 0, let found = find() else {
                print("skipped: locust is not installed and pip could not install it (scripts/install-dependencies installs it)")
                return nil
            }
            return found
        }
    }
}
