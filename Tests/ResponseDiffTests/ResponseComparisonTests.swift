import Foundation
import JSONSupport
import ResponseDiff
import Testing
import TestTraits

/// Two responses compared: paths added, removed and changed; volatile headers and ignore rules
/// set apart; arrays by index or by key; Diffy's noise filter.
@Suite(.offPool) struct ResponseComparisonTests {
    func response(_ json: String, status: Int = 200, headers: [(name: String, value: String)] = []) -> ComparedResponse {
        ComparedResponse(status: status, headers: headers, body: Data(json.utf8))
    }

    @Test func structuralDifferencesByPath() {
        let left = response(#"{"pet":{"name":"Rex","owner":"ann","tags":["a","b"]},"n":1.0}"#)
        let right = response(#"{"n":1,"pet":{"tags":["a","c","d"],"name":"Max","new field":true}}"#)
        let comparison = ResponseComparison(left, right, rules: CompareRules())
        #expect(comparison.differences.map(\.location) == ["$.pet.name", "$.pet.owner", "$.pet.tags[1]", "$.pet.tags[2]", "$.pet['new field']"])
        #expect(comparison.differences.map(\.kind) == [.changed, .removed, .changed, .added, .added])
        #expect(comparison.differences[0].left == #""Rex""#)
        #expect(comparison.differences[0].right == #""Max""#)
        #expect(comparison.differ)
    }

    @Test func volatileHeadersAreSetApartUnlessAsked() {
        let left = response("{}", headers: [("Date", "Mon"), ("X-Version", "1"), ("Set-Cookie", "a=1"), ("Set-Cookie", "b=2")])
        let right = response("{}", headers: [("date", "Tue"), ("X-Version", "2"), ("X-New", "y")])
        let comparison = ResponseComparison(left, right, rules: CompareRules())
        #expect(comparison.differences.map(\.location) == ["header X-Version", "header X-New"])
        #expect(comparison.ignored.map(\.location) == ["header Date", "header Set-Cookie"])
        #expect(comparison.ignored[1].left == "a=1, b=2")
        let strict = ResponseComparison(left, right, rules: CompareRules(comparesVolatileHeaders: true))
        #expect(strict.differences.count == 4)
    }

    @Test func ignoreRulesCoverLocationsAndWhatLiesBelowThem() {
        let left = response(#"{"meta":{"id":1,"at":"x"},"items":[{"id":1,"updatedAt":"a","v":1}],"deep":{"x":{"traceId":"t1"}}}"#, status: 200)
        let right = response(#"{"meta":{"id":2,"at":"y"},"items":[{"id":1,"updatedAt":"b","v":2}],"deep":{"x":{"traceId":"t2"}}}"#, status: 201)
        let rules = CompareRules(ignore: ["$.meta", "items[*].updatedAt", "$..traceId", "status"])
        let comparison = ResponseComparison(left, right, rules: rules)
        #expect(comparison.differences.map(\.location) == ["$.items[0].v"])
        #expect(Set(comparison.ignored.map(\.location)) == ["status", "$.meta.id", "$.meta.at", "$.items[0].updatedAt", "$.deep.x.traceId"])
    }

    @Test func arraysByKeyIgnoreTheirOrder() {
        let left = response(#"{"items":[{"id":1,"v":"a"},{"id":2,"v":"b"},{"id":3,"v":"c"}]}"#)
        let right = response(#"{"items":[{"id":3,"v":"c"},{"id":1,"v":"a"},{"id":2,"v":"B"},{"id":4,"v":"d"}]}"#)
        let byIndex = ResponseComparison(left, right, rules: CompareRules())
        #expect(byIndex.differences.count > 3)
        let byKey = ResponseComparison(left, right, rules: CompareRules(arrays: [(location: "$.items", key: "id")]))
        #expect(byKey.differences.map(\.location) == ["$.items[id=2].v", "$.items[id=4]"])
        #expect(byKey.differences.map(\.kind) == [.changed, .added])
    }

    @Test func noiseIsWhatDiffersBetweenTwoResponsesOfTheSameSide() {
        let first = response(#"{"name":"Rex","nonce":"8f1c","list":[1,2]}"#)
        let again = response(#"{"name":"Rex","nonce":"a7d2","list":[1,2]}"#)
        let candidate = response(#"{"name":"Max","nonce":"0b9e","list":[1,2]}"#)
        let comparison = ResponseComparison(first, candidate, rules: CompareRules(), leftAgain: again)
        #expect(comparison.differences.map(\.location) == ["$.name"])
        #expect(comparison.noise.map(\.location) == ["$.nonce"])
    }

    @Test func otherBodiesAsBytesAndCutBodiesNotAtAll() {
        let text = ResponseComparison(response("hello"), response("hullo"), rules: CompareRules())
        #expect(text.differences.map(\.location) == ["body"])
        #expect(text.differences.first?.left == "5 bytes")
        var cut = response(#"{"a":1}"#)
        cut.bodyIsComplete = false
        let partial = ResponseComparison(cut, response(#"{"a":2}"#), rules: CompareRules())
        #expect(!partial.differ)
        #expect(partial.notes.count == 1)
    }

    @Test func patternsReadTheirFormsAndRefuseOthers() throws {
        #expect(try LocationPattern("$['odd name'].x").description == "$['odd name'].x")
        #expect(CompareRules(ignore: ["$.a[", "header:Date", "$..", "ok.fine"]).problems.count == 2)
        let pattern = try LocationPattern("$.a[*].b")
        #expect(pattern.matches(JSONLocation([.member("a"), .keyed(key: "id", value: "1"), .member("b")])))
        #expect(!pattern.matches(JSONLocation([.member("a"), .member("b")])))
        #expect(pattern.covers(JSONLocation([.member("a"), .index(0), .member("b"), .member("c")])))
    }
}
