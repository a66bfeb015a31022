import Foundation
import JSONSupport
import Testing

@testable import BodyViewer
import TestTraits

@Suite(.offPool) struct JSONPathIndexTests {
    static let store = #"""
        {"errors":[{"message":"name is required"},{"message":"age must be positive"}],
         "books":[{"title":"A","price":8,"tag":"x"},{"title":"B","price":12},{"title":"C","price":30,"tag":"y"}],
         "owner":{"name":"Ann","address":{"city":"Oslo"}},"weird key":1,"esc\"aped":{"a":{"a":2}},
         "empty":[],"nested":[[1,2],[3,[4,5]],{}],"flags":[true,false,null,"s",-1.5e2]}
        """#

    static let expressions = [
        "$", "$.owner.name", "$['owner']['address'].city", "$.books[1].title", "$.books[-1].title", "$[\"weird key\"]",
        "$.errors[*].message", "errors[*].message", "$.owner.*", "$..city", "$..title", "$..[0].title", "$..a",
        "$.books[0:2].title", "$.books[::2].title", "$.books[::-1].title", "$.books[-2:].price", "$.books[0,2].title",
        "$['owner','weird key']", "$.books[?(@.price < 10)].title", "$.books[?(@.tag)].title",
        "$.books[?(@.title == 'B')].price", "$.books[?(@.price >= 12)]", "$.books[?(@.tag != 'x')].title",
        "$['esc\"aped']", "$.empty[*]", "$.nested[1][1][0]", "$.nested..*", "$..*", "$.flags[*]", "$.missing",
        "$.books[7]", "$.owner[0]", "$.books.title", "$.flags[?(@ == true)]", "$.flags[?(@ < 0)]", "$.nested[*][*]",
    ]

    @Test(arguments: expressions)
    func agreesWithTheTreeEvaluator(_ expression: String) async throws {
        let body = document(Self.store)
        let path = try JSONPath(expression)
        let expected = path.evaluate(try JSONValue.parse(Self.store))
        let result = try await body.query(expression)
        #expect(result.count == expected.count)
        let value = try JSONValue.parse(result.document.data)
        if result.isSingleValue {
            #expect([value] == expected)
        } else {
            #expect(value == .array(expected))
        }
        #expect(result.document.kind == .json)
    }

    @Test func singularPathsGiveTheValueItself() async throws {
        let result = try await document(Self.store).query("$.owner.address")
        #expect(result.isSingleValue)
        #expect(allLines(result.document) == "{\n  \"city\": \"Oslo\"\n}")
        let none = try await document(Self.store).query("$.owner.zip")
        #expect(!none.isSingleValue && none.count == 0)
        #expect(allLines(none.document) == "[]")
    }

    @Test func sequencesAreQueriedValueByValue() async throws {
        let body = document("{\"id\":1}\n{\"id\":2}\n", contentType: "application/x-ndjson")
        let result = try await body.query("$.id")
        #expect(try JSONValue.parse(result.document.data) == [1, 2])
    }

    @Test func reportsPathErrorsWithTheirColumn() async {
        await #expect(throws: BodyQueryError.invalidPath(reason: "expected ',' or ']'", column: 10)) {
            try await document(Self.store).query("$.books[0")
        }
        await #expect(throws: BodyQueryError.notJSON) {
            try await document("plain", contentType: "text/plain").query("$")
        }
        await #expect(throws: BodyQueryError.resultTooLarge(limit: 10)) {
            try await document(Self.store).query("$..*", maximumResultBytes: 10)
        }
    }
}
