import Catalog
import DispatcherCore
import Foundation
import Sessions
import SystemSupport
import TestSupport
import Testing

@testable import TestReports
import TestRunner
import TestTraits

@Suite(.offPool) struct TestReportTests {
    static let catalog = """
        service: shop
        environments:
          local:
            baseURL: http://127.0.0.1:9
            headers: { Authorization: "Bearer {{secret.TOKEN}}" }
        endpoints:
          good:
            path: /good
            stub: { body: { id: 1 } }
            expect: { status: 200 }
          bad:
            path: /bad
            stub: { body: { id: 1, owner: { name: Ann, password: hunter2-secret }, note: "<&>" } }
            expect: { body: { $.owner: { equals: { name: Bob } }, $.note: "x" } }
          gone:
            path: /gone/{{missing}}
            expect: { status: 200 }
          pick:
            path: /pick
            examples:
              other: { status: 404, expect: { status: 404 } }
        """

    /// Results of a stub run over the catalog, the example run live so it is skipped.
    func results() async throws -> [TestResult] {
        let folder = try TemporaryDirectory(prefix: "report-tests")
        try folder.write("shop.yaml", Self.catalog)
        let catalog = CatalogLoader.load(CatalogSource(origin: .option, directory: folder.url, displayPath: "cat"), trust: .everything)
        #expect(catalog.diagnostics.isEmpty, "\(catalog.diagnostics)")
        let secrets = SecretStore(processEnvironment: ["APIEXPLORER_SECRET_TOKEN": "tok-very-secret"])
        let runner = TestRunner(caller: EndpointCaller(catalog: catalog, secrets: secrets, transport: nil), mode: .stub)
        var results = await runner.run(try TestSelection.cases(["shop/good", "shop/bad", "shop/gone"], environment: nil, in: catalog))
        let live = TestRunner(caller: EndpointCaller(catalog: catalog, secrets: secrets, transport: nil), mode: .live)
        results += await live.run(try TestSelection.cases(["shop/pick#other"], environment: nil, in: catalog))
        #expect(results.map(\.status) == [.passed, .failed, .errored, .skipped])
        return results
    }

    @Test func detailsShowExpectedActualDiffAndCurlWithSecretsMasked() async throws {
        let results = try await results()
        let text = TestReport.details(results[1])
        #expect(text.contains("$.owner equals {\"name\":\"Bob\"}  (cat/shop.yaml:"))
        #expect(text.contains("expected: equals {\"name\":\"Bob\"}"))
        #expect(text.contains("actual:   {\"name\":\"Ann\",\"password\":\"••••\"}"))
        #expect(text.contains("-   \"name\": \"Bob\""))
        #expect(text.contains("+   \"name\": \"Ann\","))
        #expect(text.contains("request:\n    curl \\\n      http://127.0.0.1:9/bad \\\n"))
        #expect(text.contains("Authorization: Bearer ••••"))
        for report in [text] + TestReportFormat.allCases.map({ $0.render(results) }) {
            #expect(!report.contains("hunter2-secret"))
            #expect(!report.contains("tok-very-secret"))
        }
        let table = TestReport.summaryTable(results)
        #expect(table.contains("PASS   shop/good"))
        #expect(table.contains("FAIL   shop/bad"))
        #expect(table.contains("ERROR  shop/gone"))
        #expect(table.contains("SKIP   shop/pick#other"))
        #expect(table.hasSuffix("4 tests: 1 passed, 1 failed, 1 errors, 1 skipped\n"))
    }

    @Test func junitIsReadByJunitparser() async throws {
        let xml = TestReport.junit(try await results())
        let folder = try TemporaryDirectory(prefix: "junit")
        try folder.write("report.xml", xml)
        guard let python = Self.python(withModule: "junitparser") else { return }
        let script = """
            from sys import argv
            from junitparser import JUnitXml, Failure, Error, Skipped
            xml = JUnitXml.fromfile(argv[1])
            for suite in xml:
                print("suite", suite.name, suite.tests, suite.failures, suite.errors, suite.skipped)
                for case in suite:
                    kinds = [type(r).__name__ for r in case.result]
                    print("case", case.classname, case.name, ",".join(kinds) or "passed")
                    for r in case.result:
                        if isinstance(r, (Failure, Error)): print("message", r.message)
            """
        try folder.write("check.py", script)
        let result = await (try ChildProcess(python, [folder.url.appendingPathComponent("check.py").path, folder.url.appendingPathComponent("report.xml").path], environment: ProcessInfo.processInfo.environment, directory: folder.path)).finish()
        #expect(result.status == 0, "\(result.errors)")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.contains("suite shop 4 1 1 1"))
        #expect(lines.contains("case shop good passed"))
        #expect(lines.contains("case shop bad Failure"))
        #expect(lines.contains("case shop gone Error"))
        #expect(lines.contains("case shop pick#other Skipped"))
        #expect(lines.contains { $0.hasPrefix("message $.owner: expected equals {\"name\":\"Bob\"}") })
    }

    @Test func tapIsVersion13() async throws {
        let tap = TestReport.tap(try await results())
        let lines = tap.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "TAP version 13")
        #expect(lines[1] == "1..4")
        let tests = lines.filter { $0.hasPrefix("ok ") || $0.hasPrefix("not ok ") }
        #expect(tests == ["ok 1 - shop/good", "not ok 2 - shop/bad", "not ok 3 - shop/gone", "ok 4 - shop/pick_other # SKIP an example answers in stub mode only"])
        // Every YAML block is indented two spaces, opened by --- and closed by ... right after a failing test.
        var inBlock = false
        for (index, line) in lines.enumerated() where !line.isEmpty {
            if line == "  ---" {
                #expect(lines[index - 1].hasPrefix("not ok "))
                inBlock = true
            } else if line == "  ..." {
                inBlock = false
            } else if inBlock {
                #expect(line.hasPrefix("  "), "\(line)")
            } else {
                #expect(line.hasPrefix("ok ") || line.hasPrefix("not ok ") || line.hasPrefix("TAP ") || line.hasPrefix("1.."), "\(line)")
            }
        }
        #expect(!inBlock)
        #expect(tap.contains("  message: \"$.owner: expected equals {\\\"name\\\":\\\"Bob\\\"}, got {\\\"name\\\":\\\"Ann\\\",\\\"password\\\":\\\"••••\\\"}\""))
    }

    @Test func jsonHoldsEveryTestAndTheExitStatus() async throws {
        let text = TestReport.json(try await results())
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let summary = try #require(object["summary"] as? [String: Any])
        #expect(summary["exitStatus"] as? Int == 1)
        #expect(summary["failed"] as? Int == 1)
        let tests = try #require(object["tests"] as? [[String: Any]])
        #expect(tests.map { $0["id"] as? String } == ["shop/good", "shop/bad", "shop/gone", "shop/pick#other"])
        let checks = try #require((tests[1]["steps"] as? [[String: Any]])?.first?["checks"] as? [[String: Any]])
        #expect(checks.map { $0["passed"] as? Bool } == [false, false])
    }

    /// A poll that gave up says so in the JUnit and TAP messages, with its limit and what it saw last.
    @Test func anUntilTimeoutSaysWhatDidNotHoldWithinItsLimit() async throws {
        let folder = try TemporaryDirectory(prefix: "report-tests")
        try folder.write("shop.yaml", """
            service: shop
            environments:
              local:
                baseURL: http://127.0.0.1:9
            endpoints:
              job:
                path: /job
                stub: { body: { state: pending } }
            flows:
              wait:
                steps:
                  - endpoint: job
                    until: '$.state == "done"'
                    every: 1s
                    atMost: 1s
            """)
        let catalog = CatalogLoader.load(CatalogSource(origin: .option, directory: folder.url, displayPath: "cat"), trust: .everything)
        let clock = ManualClock()
        let runner = TestRunner(
            caller: EndpointCaller(catalog: catalog, secrets: SecretStore(processEnvironment: [:]), transport: nil), mode: .stub, clock: DispatchClock(clock))
        let cases = try TestSelection.cases(["shop/flow:wait"], environment: nil, in: catalog)
        let running = Task { await runner.run(cases) }
        try #require(await clock.waitForSleepers(1, timeout: .seconds(600)))
        clock.advance(by: .seconds(1))
        let results = await running.value
        let message = "step 'job': 'until' did not hold within 1 s (2 attempts): $.state: expected equals \"done\", got \"pending\""
        #expect(results.first?.summary == message)
        #expect(TestReport.junit(results).contains(#"<failure message="\#(TestReport.escape(message))""#))
        #expect(TestReport.tap(results).contains("  message: \(TestReport.yamlQuoted(message))"))
    }

    /// Every skip carries its reason into the table and each report.
    @Test func everySkipSaysWhy() async throws {
        let results = try await results()
        let reason = "an example answers in stub mode only"
        #expect(TestReport.summaryTable(results).contains("SKIP   shop/pick#other  local  0 ms  (\(reason))"))
        #expect(TestReport.junit(results).contains(#"<skipped message="\#(reason)"/>"#))
        #expect(TestReport.json(results).contains(#""note" : "\#(reason)""#) || TestReport.json(results).contains(#""note": "\#(reason)""#))
    }

    @Test func xmlEscapesMarkupAndShowsControls() {
        #expect(TestReport.escape("a<b>&\"c\u{1B}[31m\n") == "a&lt;b&gt;&amp;&quot;c^[[31m\n")
        // Bidi and C1 controls are shown too, not written for a viewer to act on.
        #expect(TestReport.escape("x\u{202E}y\u{9B}z") == "x&lt;U+202E&gt;y&lt;U+009B&gt;z")
    }

    /// python3 with `module`, installed with pip when missing; nil (saying why) when neither is possible.
    static func python(withModule module: String) -> String? {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
        guard let python = directories.map({ "\($0)/python3" }).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            print("skipped: python3 is not available to read the JUnit report with \(module)")
            return nil
        }
        if (try? Subprocess.run([python, "-c", "import \(module)"]))?.status == 0 { return python }
        guard (try? Subprocess.run([python, "-m", "pip", "install", "--quiet", module]))?.status == 0,
            (try? Subprocess.run([python, "-c", "import \(module)"]))?.status == 0
        else {
            print("skipped: \(module) is not installed and pip could not install it (scripts/install-dependencies installs it)")
            return nil
        }
        return python
    }
}
