import Foundation
import TestSupport
import Testing
import TestTraits

/// `test`'s output and reports (issue 49, item 4): a report on standard output alone there, report
/// paths checked before anything is sent, help without a doubled default; `validate`'s warnings
/// about expectations nothing fills and passwords in clear.
@Suite(.offPool) struct TestCommandOutputTests {
    static func catalog(_ baseURL: String) -> String {
        liveCatalog("o", baseURL: baseURL, endpoints: ["one: { path: /one, expect: { status: 200 } }", #"two: { path: /two, expect: { status: 200, body: { $.n: "{{n}}" } } }"#])
    }

    @Test func aReportOnStandardOutputIsAloneThere() async throws {
        try await withTestHTTPServer(handler: { _ in .json(#"{"n":"5"}"#) }) { server in
            let folder = try TemporaryDirectory()
            try folder.write("o.yaml", Self.catalog(server.baseURL.absoluteString))
            let state = try TemporaryDirectory()
            for format in ["json", "tap", "junit"] {
                let run = try await CLI.run(["test", "o", "--live", "--var", "n=5", "--catalog", folder.path, "--report", "\(format):-"], state: state)
                #expect(run.status == 0, "\(run.errors)")
                switch format {
                case "json": #expect((try? jsonObject(run.stdout)) != nil, "\(run.output)")
                case "tap": #expect(run.output.hasPrefix("TAP version 13\n1..2\nok 1 - o/one\nok 2 - o/two\n"), "\(run.output)")
                default: #expect(run.output.hasPrefix(#"<?xml version="1.0" encoding="UTF-8"?>"#), "\(run.output)")
                }
                #expect(!run.output.contains("PASS "), "the table stays off standard output")
                #expect(run.errors.contains("PASS   o/one"), "\(run.errors)")
                #expect(run.errors.contains("2 tests: 2 passed"), "\(run.errors)")
            }
            let two = try await CLI.run(["test", "o", "--live", "--catalog", folder.path, "--report", "json:-", "--report", "tap:-"], state: state)
            #expect(two.status == 2)
            #expect(two.errors.contains("only one report can go to standard output"), "\(two.errors)")
        }
    }

    @Test func reportPathsAreCheckedBeforeAnythingIsSent() async throws {
        try await withTestHTTPServer(handler: { _ in .json("{}") }) { server in
            let folder = try TemporaryDirectory()
            try folder.write("o.yaml", Self.catalog(server.baseURL.absoluteString))
            let state = try TemporaryDirectory()
            let missing = state.url.appendingPathComponent("no/such/folder/report.xml").path
            let run = try await CLI.run(["test", "o", "--live", "--catalog", folder.path, "--report", "junit:\(missing)"], state: state)
            #expect(run.status == 2, "\(run.errors)")
            #expect(run.errors.contains("--report \(missing) cannot be written"), "\(run.errors)")
            let intoFolder = try await CLI.run(["test", "o", "--live", "--catalog", folder.path, "--report", "json:\(state.path)"], state: state)
            #expect(intoFolder.status == 2)
            #expect(intoFolder.errors.contains("is a folder"), "\(intoFolder.errors)")
            #expect(server.requestCount == 0, "nothing is sent before the reports can be written")
            // A path that can be written leaves nothing behind before the run writes it.
            let fine = state.url.appendingPathComponent("r.json").path
            let written = try await CLI.run(["test", "o/one", "--live", "--catalog", folder.path, "--report", "json:\(fine)"], state: state)
            #expect(written.status == 0, "\(written.errors)")
            #expect(FileManager.default.fileExists(atPath: fine))
            #expect(try FileManager.default.contentsOfDirectory(atPath: state.path).filter { $0.hasPrefix(".r.json") }.isEmpty)
        }
    }

    @Test func helpNamesEachDefaultOnce() async throws {
        let state = try TemporaryDirectory()
        let help = try await CLI.run(["test", "--help"], state: state)
        #expect(help.status == 0)
        let text = help.output.replacingOccurrences(of: "\n", with: " ").split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        #expect(!text.contains("(default 1)"), "\(help.output)")
        #expect(text.contains("(1 to 64). (default: 1)"), "\(help.output)")
    }

    @Test func validateWarnsAboutExpectationsNothingFillsAndPasswordsInClear() async throws {
        let folder = try TemporaryDirectory()
        try folder.write("o.yaml", Self.catalog("http://ann:s3cret@127.0.0.1:9"))
        let state = try TemporaryDirectory()
        let run = try await CLI.run(["validate", folder.path], state: state)
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("o.yaml:9:53: warning: '{{n}}' in the expect of o/two has no value in the catalog"), "\(run.output)")
        #expect(run.output.contains("o.yaml:4:14: warning: the baseURL of environment 'local' holds a password in clear"), "\(run.output)")
        #expect(run.output.contains("0 errors, 2 warnings"), "\(run.output)")
    }
}
