import Foundation
import JSONSchema
import JSONSupport
import Testing
import TestTraits

/// One group of the official JSON-Schema-Test-Suite (Resources/JSON-Schema-Test-Suite, see its
/// README): a schema and the instances it must accept or refuse.
struct SuiteGroup: Sendable, CustomTestStringConvertible {
    var file: String
    var dialect: SchemaDialect
    var description: String
    var schema: JSONValue
    var tests: [(description: String, data: JSONValue, valid: Bool)]

    var testDescription: String { "\(file): \(description)" }

    /// Groups left out, each with the feature it needs that the validator does not have: it follows
    /// `$ref`s only as pointers within the document (`$id`, anchors, URNs and remote documents are
    /// not read) and collects no annotations (`unevaluated*`).
    static let leftOut: [String: String] = [
        "draft2020-12/not.json: collect annotations inside a 'not', even if collection is disabled": "unevaluated*",
        "draft2020-12/ref.json: $id must be resolved against nearest parent, not just immediate parent": "$id",
        "draft2020-12/ref.json: Recursive references between schemas": "$id",
        "draft2020-12/ref.json: URN base URI with URN and JSON pointer ref": "a URN base URI",
        "draft2020-12/ref.json: URN base URI with URN and anchor ref": "$anchor",
        "draft2020-12/ref.json: URN ref with nested pointer ref": "a URN base URI",
        "draft2020-12/ref.json: order of evaluation: $id and $anchor and $ref": "$anchor",
        "draft2020-12/ref.json: order of evaluation: $id and $ref": "$id",
        "draft2020-12/ref.json: order of evaluation: $id and $ref on nested schema": "$id",
        "draft2020-12/ref.json: ref creates new scope when adjacent to keywords": "unevaluated*",
        "draft2020-12/ref.json: ref to else": "$id",
        "draft2020-12/ref.json: ref to if": "$id",
        "draft2020-12/ref.json: ref to then": "$id",
        "draft2020-12/ref.json: ref with absolute-path-reference": "$id",
        "draft2020-12/ref.json: refs with relative uris and defs": "$id",
        "draft2020-12/ref.json: relative refs with absolute uris and defs": "$id",
        "draft2020-12/ref.json: remote ref, containing refs itself": "a remote $ref",
        "draft2020-12/ref.json: simple URN base URI with $ref via the URN": "a URN base URI",
        "draft4/ref.json: $ref prevents a sibling id from changing the base uri": "$id",
        "draft4/ref.json: Location-independent identifier": "$id",
        "draft4/ref.json: Location-independent identifier with base URI change in subschema": "$id",
        "draft4/ref.json: Recursive references between schemas": "$id",
        "draft4/ref.json: id must be resolved against nearest parent, not just immediate parent": "$id",
        "draft4/ref.json: remote ref, containing refs itself": "a remote $ref",
    ]

    static func all(includingLeftOut: Bool = false) throws -> [SuiteGroup] {
        let root = try #require(Bundle.module.url(forResource: "Resources/JSON-Schema-Test-Suite", withExtension: nil))
        var groups: [SuiteGroup] = []
        for (folder, dialect) in [("draft2020-12", SchemaDialect.draft2020_12), ("draft4", .openAPI30)] {
            let files = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path).sorted()
            for file in files where file.hasSuffix(".json") {
                let value = try JSONValue.parse(try Data(contentsOf: root.appendingPathComponent(folder).appendingPathComponent(file)))
                guard case .array(let entries) = value else { continue }
                for entry in entries {
                    guard let description = entry["description"]?.stringValue, let schema = entry["schema"], case .array(let tests)? = entry["tests"] else { continue }
                    let name = "\(folder)/\(file)"
                    guard includingLeftOut || !leftOut.keys.contains("\(name): \(description)") else { continue }
                    groups.append(
                        SuiteGroup(
                            file: name, dialect: dialect, description: description, schema: schema,
                            tests: tests.map { ($0["description"]?.stringValue ?? "", $0["data"] ?? .null, $0["valid"] == .bool(true)) }))
                }
            }
        }
        return groups
    }
}

@Suite(.offPool) struct JSONSchemaSuiteTests {
    @Test(arguments: try SuiteGroup.all())
    func officialCase(_ group: SuiteGroup) {
        let schema = JSONSchema(group.schema, dialect: group.dialect)
        for test in group.tests {
            let violations = schema.validate(test.data)
            #expect(violations.isEmpty == test.valid, "\(test.description): \(violations.map(\.description))")
        }
    }

    @Test func theSuiteIsThereAndEveryGroupLeftOutIsInIt() throws {
        let all = try SuiteGroup.all(includingLeftOut: true)
        #expect(try SuiteGroup.all().count > 350)
        #expect(Set(SuiteGroup.leftOut.keys).subtracting(all.map(\.testDescription)).isEmpty)
    }
}
