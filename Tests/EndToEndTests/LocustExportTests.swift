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
            let prefix = folder.appendingPathComponent("stats").path
            let run = try ChildProcess(
                locust,
                ["-f", file.path, "--headless", "-u", "2", "-r", "2", "-t", "3s", "--host", String(host), "--only-summary", "--csv", prefix],
                environment: ProcessInfo.processInfo.environment.merging([
                    "APIEXPLORER_SECRET_PETSTORE_TOKEN": "demo-token", "APIEXPLORER_SECRET_PETSTORE_PASSWORD": "demo-password",
                ]) { $1 },
                directory: folder.path)
            let result = await run.finish()
            let log = String(decoding: result.stdout, as: UTF8.self)
            #expect(result.status == 0, "\(log)")
            let stats = try String(contentsOfFile: prefix + "_stats.csv", encoding: .utf8)
            let aggregated = try #require(stats.split(whereSeparator: \.isNewline).first { $0.hasPrefix(",Aggregated,") }, "\(stats)")
            let columns = aggregated.split(separator: ",", omittingEmptySubsequences: false)
            #expect(Int(columns[2]) ?? 0 > 0, "no request was sent: \(stats)")
            #expect(columns[3] == "0", "\(stats)\n\(log)")
            // Every step of the flow was sent.
            for step in ["login", "addPet", "findPet", "getInventory", "listPets"] {
                #expect(stats.contains("adopt/\(step),"), "\(stats)")
            }
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
            let prefix = folder.appendingPathComponent("stats").path
            let run = try ChildProcess(
                locust, ["-f", file.path, "--headless", "-u", "1", "-r", "1", "-t", "5s", "--host", String(host), "--only-summary", "--csv", prefix],
                environment: ProcessInfo.processInfo.environment.merging([
                    "APIEXPLORER_SECRET_PETSTORE_TOKEN": "t", "APIEXPLORER_SECRET_PETSTORE_PASSWORD": "p",
                ]) { $1 },
                directory: folder.path)
            let result = await run.finish()
            let log = String(decoding: result.stdout, as: UTF8.self)
            #expect(result.status == 1, "\(log)")
            let failures = try String(contentsOfFile: prefix + "_failures.csv", encoding: .utf8)
            #expect(failures.contains("adopt/addPet"), "\(failures)\n\(log)")
            #expect(failures.contains("expected status is 418"), "\(failures)")
            // The flow stops at the failing step: findPet never ran without the id addPet should have captured.
            let stats = try String(contentsOfFile: prefix + "_stats.csv", encoding: .utf8)
            #expect(!stats.contains("adopt/findPet,"), "\(stats)")
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
