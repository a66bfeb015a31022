import JSONSchema
import JSONSupport
import Testing
import TestTraits

@Suite(.offPool) struct JSONSchemaTests {
    let document: JSONValue = try! JSONValue.parse(
        #"""
        {
          "components": { "schemas": {
            "Pet": { "type": "object", "required": ["id", "name"],
                     "properties": { "id": { "type": "integer", "minimum": 1 },
                                     "name": { "type": "string", "minLength": 1, "pattern": "^[A-Z]" },
                                     "tag": { "type": "string", "nullable": true },
                                     "a/b~c": { "type": "boolean" } },
                     "additionalProperties": false },
            "Pets": { "type": "array", "items": { "$ref": "#/components/schemas/Pet" }, "maxItems": 3, "uniqueItems": true } } }
        }
        """#)

    func pets(_ dialect: SchemaDialect = .openAPI30) throws -> JSONSchema {
        try #require(JSONSchema(document: document, pointer: "/components/schemas/Pets", dialect: dialect))
    }

    @Test func aConformingValueHasNoViolations() throws {
        let value: JSONValue = [["id": 1, "name": "Rex", "tag": nil], ["id": 2, "name": "Tom", "a/b~c": true]]
        #expect(try pets().validate(value) == [])
    }

    @Test func eachViolationNamesTheInstancePointerTheSchemaLocationAndWhy() throws {
        let value: JSONValue = [["id": 0, "name": "rex"], ["name": "", "a/b~c": 1, "extra": 1]]
        let violations = try pets().validate(value)
        #expect(violations.map(\.instancePointer) == ["/0/id", "/0/name", "/1/name", "/1/name", "/1/a~1b~0c", "/1/extra", "/1"])
        #expect(violations.map(\.schemaLocation) == [
            "#/components/schemas/Pet/properties/id/minimum", "#/components/schemas/Pet/properties/name/pattern",
            "#/components/schemas/Pet/properties/name/minLength", "#/components/schemas/Pet/properties/name/pattern",
            "#/components/schemas/Pet/properties/a~1b~0c/type", "#/components/schemas/Pet/additionalProperties",
            "#/components/schemas/Pet/required",
        ])
        #expect(violations[0].message == "0 is less than the minimum 1")
        #expect(violations[1].message == #""rex" does not match the pattern "^[A-Z]""#)
        #expect(violations[4].message == "expected boolean, found integer")
        #expect(violations[5].message == #"the member "extra" is not allowed (additionalProperties is false)"#)
        #expect(violations[6].message == #"the member "id" is required but missing"#)
        #expect(violations[0].description == "/0/id: 0 is less than the minimum 1 [#/components/schemas/Pet/properties/id/minimum]")
    }

    @Test func arrayKeywordsAndEqualityByValue() throws {
        let pet: JSONValue = ["id": 1, "name": "A"]
        let same: JSONValue = .object(JSONObject([("name", "A"), ("id", .number("1.0"))]))
        let violations = try pets().validate([pet, same, pet, pet])
        #expect(violations.map(\.message) == [
            "the array has 4 elements, more than maxItems 3", "elements 0 and 1 are equal; uniqueItems requires every element to differ",
        ])
        #expect(violations.allSatisfy { $0.instancePointer == "" })
    }

    @Test func openAPI30NullableAndRefReplacingItsSiblings() {
        let nullable = JSONSchema(["type": "string", "nullable": true], dialect: .openAPI30)
        #expect(nullable.isValid(nil) && nullable.isValid("x") && !nullable.isValid(1))
        #expect(!JSONSchema(["type": "string", "nullable": true], dialect: .draft2020_12).isValid(nil))
        let document: JSONValue = ["$defs": ["s": ["type": "string"]], "properties": ["a": ["$ref": "#/$defs/s", "maxLength": 1]]]
        #expect(JSONSchema(document, dialect: .openAPI30).isValid(["a": "long"]))
        #expect(!JSONSchema(document, dialect: .draft2020_12).isValid(["a": "long"]))
        let exclusive: JSONValue = ["maximum": 3, "exclusiveMaximum": true]
        #expect(!JSONSchema(exclusive, dialect: .openAPI30).isValid(3) && JSONSchema(exclusive, dialect: .openAPI30).isValid(2.5))
    }

    @Test func numbersAreComparedByValueExactly() {
        #expect(JSONSchema(["multipleOf": 0.01]).isValid(.number("19.99")))
        #expect(!JSONSchema(["multipleOf": 0.01]).isValid(.number("19.999")))
        #expect(JSONSchema(["type": "integer"]).isValid(.number("1.0e3")))
        #expect(!JSONSchema(["type": "integer"]).isValid(.number("1.5")))
        #expect(!JSONSchema(["maximum": .number("9007199254740993")]).isValid(.number("9007199254740994")))
        #expect(JSONSchema(["enum": [1, "a"]]).isValid(.number("1.00")))
    }

    @Test func patternsAreSearchedNotAnchoredAndDigitsAreASCII() {
        #expect(JSONSchema(["pattern": "b+"]).isValid("abbc"))
        #expect(!JSONSchema(["pattern": "^\\d+$"]).isValid("١٢"))
        #expect(JSONSchema(["maxLength": 2]).isValid("🇳🇴"))  // two code points: one grapheme cluster, four UTF-16 units
        let broken = JSONSchema(["pattern": "(unclosed"]).validate("x")
        #expect(broken.map(\.message) == [#"the pattern "(unclosed" is not a regular expression this validator reads (unclosed '(')"#])
    }

    @Test func combinatorsSayWhichFailed() {
        let schema = JSONSchema(["oneOf": [["type": "integer"], ["minimum": 0]], "not": ["const": 7]])
        #expect(schema.validate(5).map(\.message) == ["matches more than one schema of oneOf (0 and 1); it must match exactly one"])
        #expect(schema.validate(7).map(\.schemaLocation) == ["#/oneOf", "#/not"])
        #expect(schema.validate(-1.5).map(\.message) == ["matches none of the 2 schemas of oneOf"])
        #expect(JSONSchema(["anyOf": [["type": "string"], ["type": "null"]]]).validate(1).map(\.message) == ["matches none of the 2 schemas of anyOf"])
    }

    @Test func aReferenceThatCannotBeFollowedIsSaidSo() {
        let violations = JSONSchema(["$ref": "other.json#/Pet"]).validate(1)
        #expect(violations.map(\.message) == [#"the $ref "other.json#/Pet" cannot be followed (only pointers into the same document, #/…, are)"#])
        #expect(JSONSchema(document: ["a": 1], pointer: "/b", dialect: .draft2020_12) == nil)
    }

    @Test func referenceCyclesAndHostileSchemasEndInABoundedWay() {
        let cycle = JSONSchema(["$ref": "#"]).validate(1)
        #expect(cycle.count == 1 && cycle[0].message.contains("a cycle"))
        let mutual = JSONSchema(["$defs": ["a": ["$ref": "#/$defs/b"], "b": ["allOf": [["$ref": "#/$defs/a"]]]], "$ref": "#/$defs/a"]).validate([1])
        #expect(mutual.last?.message.contains("gave up") == true)
        // A value nested as deep as the parser allows against a recursive schema: the depth limit answers.
        var deep: JSONValue = 1
        for _ in 0..<500 { deep = [deep] }
        let recursive = JSONSchema(["items": ["$ref": "#"]]).validate(deep)
        #expect(recursive.last?.message.contains("nest deeper than") == true)
        // anyOf inside anyOf, 40 levels: 2^40 evaluations without the step limit.
        var exponential: JSONValue = ["type": "string"]
        for _ in 0..<40 { exponential = ["anyOf": [exponential, exponential], "not": ["const": 0]] }
        let limited = JSONSchema(exponential).validate(1, limits: ValidationLimits(steps: 100_000))
        #expect(limited.last?.message.contains("gave up after 100000") == true)
    }

    @Test func violationsStopAtTheLimit() {
        let many: JSONValue = .array(Array(repeating: "x", count: 500))
        let violations = JSONSchema(["items": ["type": "integer"]]).validate(many, limits: ValidationLimits(violations: 10))
        #expect(violations.count == 10 && violations.last?.instancePointer == "/9")
    }
}
