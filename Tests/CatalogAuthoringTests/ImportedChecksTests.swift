import Catalog
@testable import CatalogAuthoring
import CatalogTestSupport
import Foundation
import Testing
import TestTraits

/// Tests brought in on import: Postman's `pm.test` checks and Hurl's asserts become `expect:`,
/// and what is not understood is named in the notes with its place.
@Suite(.offPool) struct ImportedChecksTests {
    @Test func postmanTestScriptChecksBecomeExpect() throws {
        let result = try PostmanImporter.catalog(
            collection: try interopResource("postman/pm-tests.postman_collection.json"), documentName: "pets.postman_collection.json")
        let (_, catalog) = try loadWritten(result)
        let endpoint = try #require(catalog.service("pets")?.endpoint("getPet"))
        #expect(endpoint.expectations.assertions.map(\.description) == [
            "status is 200", "header Content-Type exists", "$.name equals \"Rex\"", "$.tags[0]['label'] equals \"good\"", "time < 200",
        ])
        let notes = result.notes.map(\.description)
        #expect(notes.contains("pets.postman_collection.json /item/0/event/0/script/exec: 'Get pet': 5 checks of its test script became expect:"))
        // Each check not understood is named with the item and its line in the script; other statements are not checks.
        #expect(notes.contains(
            "pets.postman_collection.json /item/0/event/0/script/exec/16: `pm.expect(jsonData.items).to.have.lengthOf(3);` is not a check apiexplorer reads; it stays a comment"),
            "\(notes)")
        #expect(!notes.contains { $0.contains("exec/15:") })
        #expect(!notes.contains { $0.contains("exec/4:") || $0.contains("exec/3:") || $0.contains("exec/14:") })
    }

    @Test func postmanStatementsOutsideTheSimplePatternsAreNotGuessed() {
        var expect = ExpectDraft()
        // A value that is not a literal, a root that is not the parsed body, a deep-equal on something else.
        #expect(!PostmanScriptChecks.read("pm.expect(jsonData.id).to.eql(pm.environment.get(\"id\"))", jsonNames: ["jsonData"], into: &expect))
        #expect(!PostmanScriptChecks.read("pm.expect(other.id).to.eql(7)", jsonNames: ["jsonData"], into: &expect))
        #expect(PostmanScriptChecks.read("pm.expect(pm.response.json().items[2].id).to.equal(7)", jsonNames: [], into: &expect))
        #expect(PostmanScriptChecks.statement("pm.test('ok', () => { pm.response.to.have.status(201); });") == "pm.response.to.have.status(201)")
    }

    @Test func hurlAssertsBecomeExpect() throws {
        let text = String(decoding: try interopResource("http/hurl-asserts.http"), as: UTF8.self)
        let result = try HTTPFileImporter.catalog(text: text, documentName: "api.http")
        let (_, catalog) = try loadWritten(result)
        let service = try #require(catalog.service("api"))
        let getPet = try #require(service.endpoint("getAPet"))
        #expect(getPet.expectations.assertions.map(\.description) == [
            "status equals 200", "status < 300", "header Content-Type equals \"application/json\"", "header X-Request-Id exists",
            "$.name equals \"Rex\"", "$.tags count equals 3", "$.age > 2", "$.status matches /^(available|sold)$/", "$.owner does not exist",
            "time < 1000",
        ])
        #expect(service.endpoint("add")?.expectations.assertions.map(\.description) == ["status is 201"])
        let notes = result.notes.map(\.description)
        #expect(notes.contains("api.http:16: getAPet: `body contains \"Rex\"` is not an assert expect: can say; it is not checked"))
        #expect(notes.contains("api.http:17: getAPet: `xpath \"string(//title)\" == \"x\"` is not an assert expect: can say; it is not checked"))
        #expect(notes.contains("api.http:19: getAPet: `pet_id: jsonpath \"$.id\"` ([Captures]) is not brought in"))
    }
}
