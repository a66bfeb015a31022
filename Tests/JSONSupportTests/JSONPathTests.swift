import Testing

@testable import JSONSupport
import TestTraits

@Suite(.offPool) struct JSONPathTests {
    let store: JSONValue = [
        "errors": [["message": "name is required"], ["message": "age must be positive"]],
        "books": [
            ["title": "A", "price": 8, "tag": "x"],
            ["title": "B", "price": 12],
            ["title": "C", "price": 30, "tag": "y"],
        ],
        "owner": ["name": "Ann", "address": ["city": "Oslo"]],
        "weird key": 1,
    ]

    func select(_ expression: String) throws -> [JSONValue] {
        try JSONPath(expression).evaluate(store)
    }

    @Test func selectsMembersAndElements() throws {
        #expect(try select("$.owner.name") == ["Ann"])
        #expect(try select("$['owner']['address'].city") == ["Oslo"])
        #expect(try select("$.books[1].title") == ["B"])
        #expect(try select("$.books[-1].title") == ["C"])
        #expect(try select("$[\"weird key\"]") == [1])
        #expect(try select("$") == [store])
    }

    /// A dotted name starts with a letter, `_` or any non-ASCII scalar (RFC 9535's name-first),
    /// then may hold digits and `-` too; anything else there is an error.
    @Test func dottedNamesStartAsRFC9535Says() throws {
        let names: JSONValue = ["_id": 1, "Zeta": 2, "école": 3, "名前": 4, "a-1": 5]
        #expect(try JSONPath("$._id").evaluate(names) == [1])
        #expect(try JSONPath("$.Zeta").evaluate(names) == [2])
        #expect(try JSONPath("$.école").evaluate(names) == [3])
        #expect(try JSONPath("$.名前").evaluate(names) == [4])
        #expect(try JSONPath("$.a-1").evaluate(names) == [5])
        for invalid in ["$.1a", "$.-a", "$.@", "$.`"] {
            #expect(throws: JSONPathError.self, "\(invalid)") { try JSONPath(invalid) }
        }
    }

    @Test func gathersWithWildcards() throws {
        #expect(try select("$.errors[*].message") == ["name is required", "age must be positive"])
        #expect(try select("errors[*].message") == ["name is required", "age must be positive"])
        #expect(try select("$.owner.*").count == 2)
    }

    @Test func descendsRecursively() throws {
        #expect(try select("$..city") == ["Oslo"])
        #expect(try select("$..title") == ["A", "B", "C"])
        #expect(try select("$..[0].title") == ["A"])
    }

    @Test func slicesAndUnions() throws {
        #expect(try select("$.books[0:2].title") == ["A", "B"])
        #expect(try select("$.books[::2].title") == ["A", "C"])
        #expect(try select("$.books[::-1].title") == ["C", "B", "A"])
        #expect(try select("$.books[0,2].title") == ["A", "C"])
        #expect(try select("$.owner['name','missing']") == ["Ann"])
    }

    @Test func filtersByComparisonAndExistence() throws {
        #expect(try select("$.books[?(@.price < 10)].title") == ["A"])
        #expect(try select("$.books[?(@.price >= 12)].title") == ["B", "C"])
        #expect(try select("$.books[?(@.tag)].title") == ["A", "C"])
        #expect(try select("$.books[?(@.tag == 'y')].title") == ["C"])
        #expect(try select("$.books[?@.title != \"A\"].title") == ["B", "C"])
    }

    @Test func missingPartsSelectNothing() throws {
        #expect(try select("$.nothing.here") == [])
        #expect(try select("$.books[10]") == [])
        #expect(try select("$.owner[0]") == [])
    }

    @Test func singularPathsAreRecognised() throws {
        #expect(try JSONPath("$.a.b[0]").isSingular)
        #expect(try !JSONPath("$.a[*]").isSingular)
        #expect(try !JSONPath("$..a").isSingular)
    }

    @Test(arguments: ["", "$.", "$[", "$[?(@.a == )]", "$.a[1:2:3:4]", "#"])
    func rejectsMalformedPaths(_ expression: String) {
        #expect(throws: JSONPathError.self) { try JSONPath(expression) }
    }
}
