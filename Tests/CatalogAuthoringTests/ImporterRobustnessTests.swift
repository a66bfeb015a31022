import Catalog
import CatalogAuthoring
import CatalogTestSupport
import Foundation
import TestSupport
import Testing
import TestTraits

/// Documents broken in the ways real ones are: every importer either refuses them with a reason
/// or makes catalogs the loader accepts; none crashes or loops.
@Suite(.offPool) struct ImporterRobustnessTests {
    static func expectLoadsOrRefuses(_ make: () throws -> CatalogImport) throws {
        do {
            let result = try make()
            if !result.drafts.isEmpty { _ = try loadWritten(result) }
        } catch let error as AuthoringError {
            #expect(!error.message.isEmpty)
        }
    }

    @Test func oddPostmanCollections() throws {
        let documents = [
            #"{"info": {"name": ""}, "item": [{"request": {}}, {"name": 5, "request": {"url": {"host": ["h", "example"], "path": "a/b"}}}, {"item": "x"}]}"#,
            #"{"info": {"name": "x"}, "item": [{"name": "a", "request": {"method": "BREW", "url": "http://h/a"}}, {"name": "b", "request": {"url": "/relative"}}]}"#,
            #"{"info": {"name": "x"}, "item": [{"name": "c", "request": {"url": "{{a}}{{b}}/x", "auth": {"type": "bearer", "bearer": "oops"}, "body": {"mode": "raw", "raw": 5}}}]}"#,
            #"{"info": {"name": "x"}, "item": [{"name": "d", "request": {"url": "https://h.example/é/ü?q=ä", "header": "none"}, "response": [{"code": "200", "body": null}]}]}"#,
        ]
        for document in documents {
            try Self.expectLoadsOrRefuses { try PostmanImporter.catalog(collection: Data(document.utf8), documentName: "odd.json") }
        }
    }

    @Test func insomniaGroupsThatAreTheirOwnParentsEnd() throws {
        let export = #"""
            {"_type": "export", "__export_format": 4, "resources": [
              {"_id": "wrk", "_type": "workspace", "name": "Loop"},
              {"_id": "fld", "_type": "request_group", "parentId": "fld", "name": "Self"},
              {"_id": "fa", "_type": "request_group", "parentId": "wrk", "name": "A"},
              {"_id": "fb", "_type": "request_group", "parentId": "fa", "name": "B"},
              {"_id": "fa", "_type": "request_group", "parentId": "fb", "name": "A again"},
              {"_id": "r", "_type": "request", "parentId": "fb", "name": "R", "method": "GET", "url": "https://h.example/r"}]}
            """#
        try Self.expectLoadsOrRefuses { try InsomniaImporter.catalog(export: Data(export.utf8), documentName: "loop.json") }
    }

    @Test func oddHARAndHTTPFiles() throws {
        let har = #"""
            {"log": {"entries": [{"request": {"method": "GET", "url": "https://h.example"}, "response": {"status": 0}},
              {"request": {"method": "GET", "url": "https://h.example/a//b/?"}, "response": {"status": 200, "content": {"text": "\u0000"}}},
              {"request": {"url": "https://h.example/x"}}, {}]}}
            """#
        try Self.expectLoadsOrRefuses { try HARImporter.catalog(har: Data(har.utf8), documentName: "odd.har") }
        for text in ["###\n###\n", "GET\n", "### a\nPOST https://h.example/ HTTP/2\nbroken header line\n\n\n", "@x=1\n@y\nhttps://h.example/{{x}}"] {
            try Self.expectLoadsOrRefuses { try HTTPFileImporter.catalog(text: text, documentName: "odd.http") }
        }
    }
}
