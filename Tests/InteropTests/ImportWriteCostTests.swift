import Foundation
import SystemSupport
import TestSupport
import Testing

extension BinaryTests {
    /// Issue 50, item 7: writing an import made every file's folders from `/` down (25,478 `mkdir`s
    /// of folders that existed for the 659-operation document) and ended with `sync(2)`, which
    /// flushes every file system of the machine. Counted with `strace` (counts, not time): each
    /// folder of the written catalog is made once, and nothing syncs more than the files written.
    @Suite struct ImportWriteCostTests {
        /// An OpenAPI document of `count` operations, each with an example response (a fixture file).
        static func document(operations count: Int) -> String {
            let paths = (0..<count).map { index in
                #""/items/\#(index)": {"get": {"operationId": "getItem\#(index)", "tags": ["group\#(index % 4)"], "responses": {"200": {"description": "ok", "content": {"application/json": {"example": {"id": \#(index), "name": "item \#(index)"}}}}}}}"#
            }
            return #"{"openapi": "3.0.3", "info": {"title": "Costs", "version": "1"}, "servers": [{"url": "http://127.0.0.1:4010"}], "paths": {\#(paths.joined(separator: ", "))}}"#
        }

        /// `strace -c`'s calls per system call, from its summary table.
        static func calls(in summary: String) -> [String: Int] {
            var calls: [String: Int] = [:]
            for line in summary.split(whereSeparator: \.isNewline) {
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                guard fields.count >= 5, let count = Int(fields[3]), let name = fields.last, name != "total" else { continue }
                calls[String(name)] = count
            }
            return calls
        }

        @Test func eachFolderIsMadeOnceAndNothingSyncsTheMachine() async throws {
            let documents = try TemporaryDirectory()
            let out = try TemporaryDirectory()
            let state = try TemporaryDirectory()
            try documents.write("costs.json", Self.document(operations: 120))
            let summary = documents.url.appendingPathComponent("strace.txt").path
            var environment = ProcessInfo.processInfo.environment
            environment["XDG_STATE_HOME"] = state.path
            environment["APIEXPLORER_CATALOG"] = nil
            // strace is a test dependency (scripts/install-dependencies): missing, the test fails saying so.
            let child = try ChildProcess(
                "/usr/bin/env",
                ["strace", "-f", "-c", "-e", "trace=mkdir,mkdirat,sync,syncfs", "-o", summary, CLI.binary.path, "import", "openapi",
                 documents.url.appendingPathComponent("costs.json").path, "--out", out.url.appendingPathComponent("catalog").path],
                environment: environment, directory: state.path, newSession: true)
            let result = await child.finish()
            try #require(result.status == 0, "strace apiexplorer import: \(result.errors)")
            let calls = Self.calls(in: try String(contentsOfFile: summary, encoding: .utf8))
            // What was written: the catalog's folder and every folder under it.
            var folders = 1
            let enumerator = FileManager.default.enumerator(atPath: out.url.appendingPathComponent("catalog").path)
            while enumerator?.nextObject() != nil {
                if enumerator?.fileAttributes?[.type] as? FileAttributeType == .typeDirectory { folders += 1 }
            }
            let files = out.fileNames(in: "catalog/fixtures/costs").count
            #expect(files >= 120, "\(out.fileNames(in: "catalog"))")
            // Each folder once in the staging folder, the staging folder itself, the output folder
            // and its parents' checks, the state folder's: a handful beyond the folders written.
            let made = (calls["mkdir"] ?? 0) + (calls["mkdirat"] ?? 0)
            #expect(made <= folders + 12, "\(made) mkdir calls for \(folders) folders (\(files) fixture files): \(calls)")
            #expect(calls["sync"] == nil && calls["syncfs"] == nil, "\(calls)")
        }
    }
}
