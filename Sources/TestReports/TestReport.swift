import Expectations
import JSONSupport
import TestRunner
import TextSupport

/// The report formats `--report FORMAT:FILE` writes.
package enum TestReportFormat: String, Sendable, CaseIterable {
    /// JUnit XML as Jenkins and GitLab read it (`testsuites/testsuite/testcase/failure`).
    case junit
    /// TAP version 13.
    case tap
    /// One JSON object.
    case json

    /// The report of `results`.
    package func render(_ results: [TestResult]) -> String {
        switch self {
        case .junit: TestReport.junit(results)
        case .tap: TestReport.tap(results)
        case .json: TestReport.json(results)
        }
    }
}

/// Renders results: the terminal's summary and failure details, and the report files. Every
/// text in them was masked by the runner (secret headers, members and known values).
package enum TestReport {
    // MARK: Terminal

    /// `✓ shop/getPet  12 ms` and the like, one line per test, then the counts.
    package static func summaryTable(_ results: [TestResult]) -> String {
        let width = min(60, results.map(\.testCase.id.count).max() ?? 0)
        var lines = results.map { result in
            let mark = switch result.status {
            case .passed: "PASS "
            case .failed: "FAIL "
            case .errored: "ERROR"
            case .skipped: "SKIP "
            }
            let name = result.testCase.id.padding(to: width)
            let environment = result.testCase.environment.name
            // A skip says why on its line (a failure's reason follows in its details).
            let reason = result.status == .skipped ? result.summary.map { "  (\($0))" } ?? "" : ""
            return "\(mark)  \(name)  \(environment)  \(milliseconds(result.duration)) ms\(reason)"
        }
        let tally = TestTally(results)
        lines.append("")
        lines.append("\(tally.total) test\(tally.total == 1 ? "" : "s"): \(tally.passed) passed, \(tally.failed) failed, \(tally.errored) errors, \(tally.skipped) skipped")
        return lines.joined(separator: "\n") + "\n"
    }

    /// What went wrong in one test: per failing step, each failed check with the catalog's place,
    /// expected and actual, a short diff, and the request as curl.
    package static func details(_ result: TestResult) -> String {
        var lines = ["\(result.status == .errored ? "ERROR" : "FAIL") \(result.testCase.id) (\(result.testCase.environment.name))"]
        if let note = result.note { lines.append("  \(note)") }
        for step in result.steps where step.status == .failed || step.status == .errored {
            let indent = step.name == result.testCase.name ? "  " : "    "
            if indent.count == 4 { lines.append("  step '\(step.name)'\(step.responseStatus.map { " (status \($0))" } ?? "")") }
            if let problem = step.problem { lines.append(indent + problem) }
            if step.schemaViolations.count > 1 { lines += step.schemaViolations.map { "\(indent)  \($0)" } }
            for failure in step.failures {
                let place = failure.assertion.place.isEmpty ? "" : "  (\(failure.assertion.place))"
                lines.append("\(indent)\(failure.assertion)\(place)")
                lines.append("\(indent)  expected: \(failure.expected)")
                lines.append("\(indent)  actual:   \(failure.actual)")
                lines += failure.diff.map { "\(indent)    \($0)" }
            }
            if let curl = step.curl {
                lines.append("\(indent)request:")
                lines += curl.split(separator: "\n").map { "\(indent)  \($0)" }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func milliseconds(_ duration: Duration) -> Int {
        Int(duration.milliseconds.rounded())
    }

    static func seconds(_ duration: Duration) -> String {
        let ms = milliseconds(duration)
        let fraction = String(ms % 1000)
        return "\(ms / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }

    /// The text of a failure: the summary line and the details, for reports.
    static func failureText(_ result: TestResult) -> String { details(result) }

    // MARK: JUnit

    /// JUnit XML: one `testsuite` per service, one `testcase` per test (`classname` the service,
    /// `name` the test's name), `failure`, `error` and `skipped` as JUnit consumers expect.
    package static func junit(_ results: [TestResult]) -> String {
        var services: [String] = []
        for result in results where !services.contains(result.testCase.service.id) { services.append(result.testCase.service.id) }
        let tally = TestTally(results)
        let total = results.reduce(Duration.zero) { $0 + $1.duration }
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml += #"<testsuites name="apiexplorer" tests="\#(tally.total)" failures="\#(tally.failed)" errors="\#(tally.errored)" skipped="\#(tally.skipped)" time="\#(seconds(total))">"# + "\n"
        for service in services {
            let members = results.filter { $0.testCase.service.id == service }
            let counts = TestTally(members)
            let time = members.reduce(Duration.zero) { $0 + $1.duration }
            xml += #"  <testsuite name="\#(escape(service))" tests="\#(counts.total)" failures="\#(counts.failed)" errors="\#(counts.errored)" skipped="\#(counts.skipped)" time="\#(seconds(time))">"# + "\n"
            for result in members {
                let open = #"    <testcase classname="\#(escape(service))" name="\#(escape(result.testCase.name))" time="\#(seconds(result.duration))""#
                switch result.status {
                case .passed:
                    xml += open + "/>\n"
                case .skipped:
                    xml += open + ">\n" + #"      <skipped message="\#(escape(result.summary ?? "skipped"))"/>"# + "\n    </testcase>\n"
                case .failed, .errored:
                    let element = result.status == .failed ? "failure" : "error"
                    xml += open + ">\n"
                    xml += #"      <\#(element) message="\#(escape(result.summary ?? result.status.rawValue))" type="\#(element)">"#
                    xml += escape(details(result)) + "</\(element)>\n    </testcase>\n"
                }
            }
            xml += "  </testsuite>\n"
        }
        xml += "</testsuites>\n"
        return xml
    }

    /// Text for XML: markup escaped, controls shown as a terminal shows them (`^[`, `<U+202E>`:
    /// `TerminalText`), and characters XML 1.0 cannot hold left out.
    static func escape(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for scalar in TerminalText.cleaned(text).unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "\n", "\t", "\r": output.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value) { continue }
                output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    // MARK: TAP

    /// TAP version 13: a plan, `ok`/`not ok` per test, `# SKIP` directives, and a YAML block
    /// (`---` … `...`) with what failed.
    package static func tap(_ results: [TestResult]) -> String {
        var lines = ["TAP version 13", "1..\(results.count)"]
        for (index, result) in results.enumerated() {
            let number = index + 1
            let description = tapText(result.testCase.id)
            switch result.status {
            case .passed: lines.append("ok \(number) - \(description)")
            case .skipped: lines.append("ok \(number) - \(description) # SKIP \(tapText(result.summary ?? "skipped"))")
            case .failed, .errored:
                lines.append("not ok \(number) - \(description)")
                lines.append("  ---")
                lines.append("  severity: \(result.status == .failed ? "fail" : "error")")
                lines.append("  message: \(yamlQuoted(result.summary ?? result.status.rawValue))")
                lines.append("  details: |")
                lines += details(result).split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { "    \($0)" }
                lines.append("  ...")
            }
        }
        // Controls from a server or a catalog are shown, not passed on (`TerminalText`).
        return TerminalText.cleaned(lines.joined(separator: "\n") + "\n")
    }

    /// A TAP description: one line, without `#` (which starts a directive).
    static func tapText(_ text: String) -> String {
        String(text.map { $0 == "\n" || $0 == "\r" ? " " : $0 == "#" ? "_" : $0 })
    }

    static func yamlQuoted(_ text: String) -> String {
        JSONValue.string(text).compactText
    }

    // MARK: JSON

    /// `{ "tests": [...], "summary": {...} }`: each test with its status, steps, checks and curl.
    package static func json(_ results: [TestResult]) -> String {
        let tally = TestTally(results)
        let tests: [JSONValue] = results.map { result in
            var members: [(key: String, value: JSONValue)] = [
                ("id", .string(result.testCase.id)), ("service", .string(result.testCase.service.id)),
                ("name", .string(result.testCase.name)), ("environment", .string(result.testCase.environment.name)),
                ("status", .string(result.status.rawValue)), ("milliseconds", .integer(milliseconds(result.duration))),
            ]
            if let note = result.note { members.append(("note", .string(note))) }
            if let summary = result.summary { members.append(("message", .string(summary))) }
            members.append(("steps", .array(result.steps.map(stepJSON))))
            return .object(JSONObject(members))
        }
        var summary: JSONValue = [
            "total": .integer(tally.total), "passed": .integer(tally.passed), "failed": .integer(tally.failed),
            "errors": .integer(tally.errored), "skipped": .integer(tally.skipped), "exitStatus": .integer(Int(tally.exitStatus)),
        ]
        if let contract = ContractTally(results), case .object(var members) = summary {
            let reasons = ContractOutcome.NotCheckable.allCases.compactMap { reason in
                contract.notCheckable[reason].map { (key: reason.rawValue, value: JSONValue.integer($0)) }
            }
            members["contract"] = [
                "operations": .integer(contract.operations), "checked": .integer(contract.checked), "broken": .integer(contract.broken),
                "findings": .integer(contract.findings), "notCheckable": .object(JSONObject(reasons)),
            ]
            summary = .object(members)
        }
        let text = JSONValue.object(JSONObject([("tests", .array(tests)), ("summary", summary)])).prettyText() + "\n"
        // Such characters occur only inside strings, where `\u` escapes keep their value and show them.
        return TerminalText.escapingInvisibleControls(text, TestReport.jsonEscape)
    }

    /// `\u202e`.
    static func jsonEscape(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16)
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    static func stepJSON(_ step: StepResult) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("name", .string(step.name)), ("status", .string(step.status.rawValue)), ("attempts", .integer(step.attempts)),
            ("milliseconds", .integer(milliseconds(step.duration))),
        ]
        if let status = step.responseStatus { members.append(("responseStatus", .integer(status))) }
        if let problem = step.problem { members.append(("problem", .string(problem))) }
        members.append((
            "checks",
            .array(step.outcomes.map { outcome in
                var check: [(key: String, value: JSONValue)] = [
                    ("assertion", .string(outcome.assertion.description)), ("passed", .bool(outcome.passed)),
                    ("expected", .string(outcome.expected)), ("actual", .string(outcome.actual)),
                ]
                if !outcome.assertion.place.isEmpty { check.append(("place", .string(outcome.assertion.place))) }
                if !outcome.diff.isEmpty { check.append(("diff", .array(outcome.diff.map(JSONValue.string)))) }
                return .object(JSONObject(check))
            })
        ))
        if let curl = step.curl { members.append(("curl", .string(curl))) }
        return .object(JSONObject(members))
    }
}

extension String {
    func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
