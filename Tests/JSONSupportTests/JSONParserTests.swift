import Foundation
import Testing

@testable import JSONSupport
import TestTraits

@Suite(.offPool) struct JSONParserTests {
    @Test func parsesEveryKindOfValue() throws {
        let value = try JSONValue.parse(#"{"a": [1, -2.5e3, true, false, null], "b": "x\ny\u00e9\ud83d\ude00", "c": {}}"#)
        #expect(value["a"] == [1, .number("-2.5e3"), true, false, nil])
        #expect(value["b"]?.stringValue == "x\nyé😀")
        #expect(value["c"] == .object(JSONObject()))
    }

    @Test func keepsKeyOrderAndNumberLiterals() throws {
        let value = try JSONValue.parse(#"{"z": 1, "a": 12345678901234567890, "m": 1.50}"#)
        guard case .object(let object) = value else { Issue.record("not an object"); return }
        #expect(object.keys == ["z", "a", "m"])
        #expect(value.compactText == #"{"z":1,"a":12345678901234567890,"m":1.50}"#)
    }

    @Test func aLaterDuplicateKeyReplacesTheValueInTheFirstPlaceSmallOrLarge() throws {
        #expect(try JSONValue.parse(#"{"a": 1, "b": 2, "a": 3}"#) == ["a": 3, "b": 2])
        // Past 16 members duplicates are found by hashing: the same result as one member at a time.
        for count in [3, 16, 17, 40, 300] {
            let members = (0..<count).map { index in (key: "k\(index % (count / 3 + 1))", value: JSONValue.integer(index)) }
            var expected = JSONObject()
            for member in members { expected[member.key] = member.value }
            let object = JSONObject(members)
            #expect(object == expected)
            #expect(object.keys == expected.keys)
            #expect(object.keys.count == Set(members.map(\.key)).count)
            for member in members { #expect(object[member.key] == expected[member.key]) }
        }
    }

    @Test func aDuplicateKeyIsAnErrorWhenAsked() throws {
        #expect(throws: JSONParseError(reason: #"the key "a" is given twice in one object"#, line: 2, column: 3, offset: 26)) {
            try JSONValue.parse(Data(#"{"a": 1, "b": {"a": 2},\#n  "a": 3}"#.utf8), rejectingDuplicateKeys: true)
        }
        // The same key in two objects is no duplicate.
        #expect(try JSONValue.parse(Data(#"{"a": {"a": 1}, "b": [{"a": 2}, {"a": 3}]}"#.utf8), rejectingDuplicateKeys: true)["b"]?[1] == ["a": 3])
        #expect(try JSONValue.parse(Data(#"{"a": 1, "a": 2}"#.utf8), rejectingDuplicateKeys: false) == ["a": 2])
    }

    @Test func reportsLineAndColumnOfAnError() {
        #expect(throws: JSONParseError(reason: "expected ',' or '}' in the object", line: 3, column: 3, offset: 11)) {
            try JSONValue.parse("{\n\"a\": 1\n  \"b\": 2}")
        }
    }

    @Test(arguments: ["", "{", "[1,]", "tru", "\"abc", "01", "1.", "{\"a\" 1}", "[1] x", "\"\\q\""])
    func rejectsInvalidText(_ text: String) {
        #expect(throws: JSONParseError.self) { try JSONValue.parse(text) }
    }

    @Test func rejectsNestingBeyondTheLimitWithoutCrashing() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONParseError.self) { try JSONValue.parse(deep) }
    }

    @Test func skipsAByteOrderMark() throws {
        #expect(try JSONValue.parse(Data([0xEF, 0xBB, 0xBF]) + Data("[1]".utf8)) == [1])
    }

    @Test func prettyPrintsWithIndentation() throws {
        let value: JSONValue = ["name": "Rex", "tags": ["a"], "empty": [], "o": [:]]
        #expect(value.prettyText() == """
            {
              "name": "Rex",
              "tags": [
                "a"
              ],
              "empty": [],
              "o": {}
            }
            """)
    }

    @Test func escapesControlCharactersWhenPrinting() {
        #expect(JSONValue.string("a\"b\\c\u{01}").compactText == #""a\"b\\c\u0001""#)
    }

    @Test(arguments: [
        ("", #""""#), ("plain é 😀", #""plain é 😀""#), ("\"", #""\"""#), ("é\n", #""é\n""#), ("\t\r\u{08}\u{0C}\u{1F}", #""\t\r\b\f\u001f""#),
        ("a\\b\"c", #""a\\b\"c""#), ("\u{7F}", "\"\u{7F}\""),
    ])
    func quotesTheSameAsTextAndAsBytes(text: String, quoted: String) {
        var asText = "x"
        JSONValue.writeQuoted(text, to: &asText)
        #expect(asText == "x" + quoted)
        var asBytes: [UInt8] = [UInt8(ascii: "x")]
        JSONValue.writeQuoted(text, to: &asBytes)
        #expect(asBytes == Array(("x" + quoted).utf8))
    }

    @Test func roundTripsThroughCodable() throws {
        let value: JSONValue = ["a": [1, 2.5, "x", nil, true]]
        let data = try JSONEncoder().encode(value)
        #expect(try JSONDecoder().decode(JSONValue.self, from: data) == value)
    }
}
