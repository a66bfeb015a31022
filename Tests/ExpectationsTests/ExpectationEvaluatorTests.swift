import DispatcherCore
import Foundation
import JSONSupport
import Testing

@testable import Expectations
import TestTraits

@Suite(.offPool) struct ExpectationEvaluatorTests {
    let body = Data(#"{"id":7,"name":"Rex","status":"available","tags":["a","b","c"],"owner":{"name":"Ann","token":"tok-123456"},"price":12.5,"nick":null}"#.utf8)

    func facts(status: Int = 200, headers: [(String, String)] = [("Content-Type", "application/json"), ("X-Request-Id", "abc-1")], time: Duration = .milliseconds(120)) -> ResponseFacts {
        ResponseFacts(status: status, headers: headers.map { HeaderField(name: $0.0, value: $0.1, origin: .server) }, body: body, time: time)
    }

    func check(_ subject: Subject, _ predicate: ValuePredicate, _ facts: ResponseFacts? = nil, redactor: Redactor = .standard) -> AssertionOutcome {
        var evaluator = ExpectationEvaluator(facts ?? self.facts(), redactor: redactor)
        return evaluator.evaluate(Assertion(subject, predicate))
    }

    func path(_ text: String) throws -> Subject { .body(try JSONPath(text)) }

    @Test func statusValueListAndClass() {
        #expect(check(.status, .statusIn([.code(200)])).passed)
        #expect(!check(.status, .statusIn([.code(201)])).passed)
        #expect(check(.status, .statusIn([.code(201), .code(200)])).passed)
        #expect(check(.status, .statusIn([.hundreds(2)])).passed)
        #expect(!check(.status, .statusIn([.hundreds(4)]), facts(status: 500)).passed)
        #expect(check(.status, .lessThan(300)).passed)
        let failed = check(.status, .statusIn([.hundreds(2)]), facts(status: 404))
        #expect(failed.message == "status: expected is 2xx, got 404")
    }

    @Test func statusPatternsRead() {
        #expect(StatusPattern("2xx") == .hundreds(2))
        #expect(StatusPattern("4XX") == .hundreds(4))
        #expect(StatusPattern("204") == .code(204))
        #expect(StatusPattern("6xx") == nil)
        #expect(StatusPattern("99") == nil)
    }

    @Test func headersPresentEqualsMatches() {
        #expect(check(.header("x-request-id"), .exists(true)).passed)
        #expect(check(.header("X-Missing"), .exists(false)).passed)
        #expect(!check(.header("X-Missing"), .exists(true)).passed)
        #expect(check(.header("Content-Type"), .equals("application/json")).passed)
        #expect(!check(.header("Content-Type"), .equals("text/plain")).passed)
        #expect(check(.header("Content-Type"), .matches("^application/(.+\\+)?json")).passed)
        #expect(!check(.header("Content-Type"), .matches("^text/")).passed)
        #expect(check(.header("Content-Type"), .startsWith("application/")).passed)
        #expect(check(.header("X-Request-Id"), .notEquals("abc-2")).passed)
        #expect(check(.header("X-Missing"), .equals("x")).actual == "absent")
    }

    @Test func headerNumbersCompareAsNumbers() {
        let withLength = facts(headers: [("Content-Length", "42")])
        #expect(check(.header("Content-Length"), .lessThan(100), withLength).passed)
        #expect(check(.header("Content-Length"), .equals(.number("42")), withLength).passed)
        #expect(!check(.header("Content-Length"), .greaterThan(100), withLength).passed)
    }

    @Test func bodyEqualsAndNot() throws {
        #expect(check(try path("$.id"), .equals(.number("7"))).passed)
        #expect(check(try path("$.id"), .equals(.number("7.0"))).passed)
        #expect(!check(try path("$.id"), .equals(.string("7"))).passed)
        #expect(check(try path("$.name"), .equals("Rex")).passed)
        #expect(check(try path("$.status"), .notEquals("sold")).passed)
        #expect(!check(try path("$.status"), .notEquals("available")).passed)
        #expect(check(try path("$.owner"), .equals(["name": "Ann", "token": "tok-123456"])).passed)
        #expect(check(try path("$.tags"), .equals(["a", "b", "c"])).passed)
        #expect(!check(try path("$.tags"), .equals(["a", "c", "b"])).passed)
        let failed = check(try path("$.id"), .equals(.number("8")))
        #expect(failed.message == "$.id: expected equals 8, got 7")
    }

    @Test func bodyComparisons() throws {
        #expect(check(try path("$.price"), .lessThan(13)).passed)
        #expect(check(try path("$.price"), .greaterThan(12)).passed)
        #expect(check(try path("$.price"), .greaterThanOrEqual(12.5)).passed)
        #expect(check(try path("$.price"), .lessThanOrEqual(12.5)).passed)
        #expect(!check(try path("$.price"), .lessThan(12.5)).passed)
        #expect(!check(try path("$.name"), .lessThan(10)).passed)
    }

    @Test func aCatastrophicPatternFailsInsteadOfHanging() throws {
        // `^(a+)+$` on 40 a's and a b backtracks for hours in Swift's Regex; the bounded search answers at once.
        let hostile = ResponseFacts(status: 200, headers: [], body: Data(#"{"name":"\#(String(repeating: "a", count: 40))b"}"#.utf8), time: .zero)
        let started = ContinuousClock.now
        let outcome = check(try path("$.name"), .matches("^(a+)+$"), hostile)
        #expect(!outcome.passed)
        #expect(ContinuousClock.now - started < .seconds(20))
    }

    @Test func bodyMatchesExistsAndTypes() throws {
        #expect(check(try path("$.name"), .matches("^R.x$")).passed)
        #expect(!check(try path("$.name"), .matches("^x")).passed)
        #expect(check(try path("$.nick"), .exists(true)).passed)
        #expect(check(try path("$.missing"), .exists(false)).passed)
        #expect(!check(try path("$.missing"), .exists(true)).passed)
        #expect(!check(try path("$.missing"), .notEquals(1)).passed)
        #expect(check(try path("$.id"), .isKind(.integer)).passed)
        #expect(check(try path("$.id"), .isKind(.number)).passed)
        #expect(!check(try path("$.price"), .isKind(.integer)).passed)
        #expect(check(try path("$.tags"), .isKind(.array)).passed)
        #expect(check(try path("$.owner"), .isKind(.object)).passed)
        #expect(check(try path("$.nick"), .isKind(.null)).passed)
        #expect(check(try path("$.name"), .isKind(.string)).passed)
        #expect(!check(try path("$.name"), .isKind(.boolean)).passed)
    }

    @Test func bodyCountContainsIncludes() throws {
        #expect(check(try path("$.tags"), .count(.equals(3))).passed)
        #expect(check(try path("$.tags"), .count(.greaterThan(2))).passed)
        #expect(!check(try path("$.tags"), .count(.equals(2))).passed)
        #expect(check(try path("$.tags[*]"), .count(.equals(3))).passed)
        #expect(check(try path("$.tags"), .contains("b")).passed)
        #expect(!check(try path("$.tags"), .contains("z")).passed)
        #expect(check(try path("$.name"), .contains("ex")).passed)
        #expect(check(try path("$.tags"), .includesAll(["c", "a"])).passed)
        #expect(!check(try path("$.tags"), .includesAll(["c", "z"])).passed)
        #expect(check(try path("$.name"), .endsWith("ex")).passed)
    }

    @Test func sizeAndTime() {
        #expect(check(.bodySize, .equals(.integer(body.count))).passed)
        #expect(check(.bodySize, .lessThan(1000)).passed)
        #expect(check(.time, .lessThan(500)).passed)
        let slow = check(.time, .lessThan(500), facts(time: .seconds(2)))
        #expect(!slow.passed)
        #expect(slow.actual == "2000 ms")
    }

    @Test func aBodyThatIsNotJSONFailsEveryPathButAbsence() throws {
        let text = ResponseFacts(status: 200, body: Data("plain".utf8))
        let outcome = check(try path("$.id"), .exists(true), text)
        #expect(!outcome.passed)
        #expect(outcome.actual == "a body that is not JSON")
        #expect(check(try path("$.id"), .exists(false), text).passed)
    }

    @Test func secretsAreMaskedInFailures() throws {
        // A secret-named member, a secret header and a known secret value are all masked.
        let member = check(try path("$.owner.token"), .equals("other"))
        #expect(!member.passed)
        #expect(!member.message.contains("tok-123456"))
        let object = check(try path("$.owner"), .equals(["name": "Bob"]))
        #expect(!object.message.contains("tok-123456"))
        #expect(!object.diff.joined().contains("tok-123456"))
        #expect(object.diff.contains { $0.hasPrefix("-") && $0.contains("Bob") })
        let cookie = facts(headers: [("Set-Cookie", "session=s3cr3t-value; Path=/")])
        let header = check(.header("Set-Cookie"), .equals("nothing"), cookie)
        #expect(!header.message.contains("s3cr3t-value"))
        let known = Redactor.standard.adding(secretValues: ["available"])
        let value = check(try path("$.status"), .equals("sold"), redactor: known)
        #expect(!value.passed)
        #expect(value.actual == "\"••••\"")
    }

    @Test func shortDiffShowsChangedLinesWithContext() {
        let lines = ShortDiff.lines(expected: "a\nb\nc\nd\ne", actual: "a\nb\nX\nd\ne")
        #expect(lines == ["  b", "- c", "+ X", "  d"])
    }
}
