import Foundation
import JSONSupport
import Testing

@testable import BodyViewer
import TestTraits

@Suite(.offPool) struct JSONLayoutTests {
    @Test func prettyPrintsLikeTheJSONPrinter() throws {
        let samples = [
            #"{"a":1,"b":[true,false,null],"c":{"d":"x","e":[]},"f":{},"g":-1.5e3}"#,
            #"[1,[2,[3,[4]]],{"k":{"l":{}}}]"#,
            #"  {  "spaced" :  [ 1 , 2 ] ,"empty" : [ ] , "obj": { } }  "#,
            #""just a string""#,
            "42",
            #"{"unicode":"héllo wörld ✓","escaped":"a\"b\\c\nd\u00e9"}"#,
            "\u{FEFF}[1]",
        ]
        for sample in samples {
            let body = document(sample)
            #expect(body.kind == .json, "\(sample)")
            let expected = try JSONValue.parse(sample.replacingOccurrences(of: "\u{FEFF}", with: "")).prettyText()
            // Strings are shown as written (escapes kept), so compare against the printer only where it agrees.
            if !sample.contains("\\") {
                #expect(allLines(body) == expected, "\(sample)")
            }
        }
    }

    @Test func keepsEscapesAsWritten() {
        let body = document(#"{"escaped":"a\"b\\c\nd\u00e9"}"#)
        #expect(allLines(body) == """
            {
              "escaped": "a\\"b\\\\c\\nd\\u00e9"
            }
            """)
    }

    @Test func rendersRolesAndLineNumbers() {
        let body = document(#"{"a":"s","b":[1,true,null]}"#)
        let rows = body.renderVisible(BodyViewState(viewportHeight: 10, viewportWidth: 40))
        #expect(rows.map(\.text) == [
            "1 {", "2   \"a\": \"s\",", "3   \"b\": [", "4     1,", "5     true,", "6     null", "7   ]", "8 }",
        ])
        #expect(rows[1].runs == [
            BodyTextRun("2 ", .lineNumber), BodyTextRun("  ", .plain), BodyTextRun("\"a\"", .key),
            BodyTextRun(": ", .punctuation), BodyTextRun("\"s\"", .string), BodyTextRun(",", .punctuation),
        ])
        #expect(rows[3].runs.map(\.role) == [.lineNumber, .plain, .number, .punctuation])
        #expect(rows[4].runs.map(\.role) == [.lineNumber, .plain, .bool, .punctuation])
        #expect(rows[5].runs.map(\.role) == [.lineNumber, .plain, .null])
        #expect(rows[0].isCursorLine && !rows[1].isCursorLine)
    }

    @Test func readsNDJSONAsASequenceOfValues() {
        let body = document("{\"a\":1}\n{\"a\":2}\n[]\n", contentType: "application/x-ndjson")
        #expect(body.kind == .json)
        #expect(body.rootCount == 3)
        #expect(allLines(body) == "{\n  \"a\": 1\n}\n{\n  \"a\": 2\n}\n[]")
    }
}
