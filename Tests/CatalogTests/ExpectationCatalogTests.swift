import CatalogTestSupport
import DispatcherCore
import Expectations
import Foundation
import JSONSupport
import Testing

@testable import Catalog
import TestTraits

/// `expect:` in catalogs: every form, and its diagnostics with line and column.
@Suite(.offPool) struct ExpectationCatalogTests {
    func catalog(_ endpoint: String) -> String {
        """
        service: shop
        environments:
          local:
            baseURL: http://127.0.0.1:1
        endpoints:
          pet:
            path: /pet
        \(endpoint)
        """
    }

    func diagnose(_ endpoint: String) throws -> [String] {
        positions(try loadCatalog(catalog(endpoint)).catalog.diagnostics)
    }

    @Test func everyFormIsRead() throws {
        let service = try loadCleanService(catalog("""
                expect:
                  status: 2xx
                  headers:
                    Content-Type: { matches: "^application/json" }
                    X-Request-Id: { exists: true }
                    Cache-Control: no-cache
                  body:
                    $.id: 7
                    $.name: { equals: Rex, not: Max, startsWith: R, endsWith: x }
                    $.age: { lessThan: 30, greaterThan: 1, lessThanOrEqual: 29, greaterThanOrEqual: 2 }
                    $.tags: { count: 2, contains: a, includesAll: [a, b] }
                    $.items: { count: { greaterThan: 0 } }
                    $.nick: { exists: false, type: string }
                    "$.owner": { equals: { name: Ann } }
                  bodySize: { lessThan: 1000 }
                  time: { lessThan: 500ms }
            """))
        let assertions = try #require(service.endpoints.first).expectations.assertions
        let shown = assertions.map(\.description)
        #expect(shown == [
            "status is 2xx",
            "header Content-Type matches /^application/json/",
            "header X-Request-Id exists",
            "header Cache-Control equals \"no-cache\"",
            "$.id equals 7",
            "$.name equals \"Rex\"", "$.name is not \"Max\"", "$.name starts with \"R\"", "$.name ends with \"x\"",
            "$.age < 30", "$.age > 1", "$.age <= 29", "$.age >= 2",
            "$.tags count equals 2", "$.tags contains \"a\"", "$.tags includes all of [\"a\",\"b\"]",
            "$.items count > 0",
            "$.nick does not exist", "$.nick is of type string",
            "$.owner equals {\"name\":\"Ann\"}",
            "bodySize < 1000",
            "time < 500",
        ])
        #expect(assertions[0].place == "cat/test.yaml:9:15")
    }

    @Test func statusForms() throws {
        for (written, expected) in [("200", "status is 200"), ("[200, 201]", "status is one of 200, 201"), ("[2xx, 304]", "status is one of 2xx, 304"), ("{ lessThan: 400 }", "status < 400")] {
            let service = try loadCleanService(catalog("    expect: { status: \(written) }"))
            #expect(service.endpoints.first?.expectations.assertions.map(\.description) == [expected])
        }
    }

    @Test func anExampleHasItsOwn() throws {
        let service = try loadCleanService(catalog("""
                expect: { status: 200 }
                examples:
                  missing:
                    status: 404
                    expect: { status: 404, body: { $.code: notFound } }
            """))
        let endpoint = try #require(service.endpoints.first)
        #expect(endpoint.expectations.assertions.map(\.description) == ["status is 200"])
        #expect(endpoint.examples.first?.expectations.assertions.map(\.description) == ["status is 404", "$.code equals \"notFound\""])
    }

    @Test func mistakesAreDiagnosedWhereTheyAre() throws {
        let found = try diagnose("""
                expect:
                  stauts: 200
                  body:
                    $.id: { equal: 7 }
                    $.name: { type: text }
                    $.tags: { includesAll: a }
                    $.re: { matches: "a(" }
                    "$[": 1
                  headers:
                    "bad name": x
                  time: 500ms
            """)
        #expect(found.count == 8, "\(found)")
        #expect(found[0] == "9:7: error: unknown key 'stauts' in the expect of endpoint 'pet'; did you mean 'status'?")
        #expect(found[1].hasPrefix("11:17: error: unknown key 'equal' in $.id in the expect of endpoint 'pet' (comparisons: equals, not, "))
        #expect(found[1].hasSuffix("; did you mean 'equals'?"))
        #expect(found[2] == "12:25: error: 'type' of $.name in the expect of endpoint 'pet' must be one of string, number, integer, boolean, array, object, null, not 'text'")
        #expect(found[3] == "13:32: error: 'includesAll' of $.tags in the expect of endpoint 'pet' must be a list of values, not the text \"a\"")
        #expect(found[4].hasPrefix("14:26: error: 'matches' of $.re in the expect of endpoint 'pet' is not a regular expression"))
        #expect(found[5].hasPrefix("15:12: error: the key '$[' in 'body' of the expect of endpoint 'pet' is not a valid JSONPath"))
        #expect(found[6] == "17:9: error: 'bad name' is not a valid header name in the expect of endpoint 'pet'")
        #expect(found[7].contains("endpoint 'pet'"))
        // The endpoint with errors is left out; the file's other parts still load.
    }

    @Test func timeTakesAComparisonAndStatusAStatus() throws {
        let found = try diagnose("""
                expect:
                  time: 500ms
                  status: 2xy
            """)
        #expect(found == [
            "9:13: error: 'time' in the expect of endpoint 'pet' takes a comparison, like time: { lessThan: 500ms }",
            "10:15: error: 'status' in the expect of endpoint 'pet' must be a status (100 to 599) or a class of them (2xx), not '2xy'",
        ])
    }

    @Test func theStubTakesNoExpectations() throws {
        let found = try diagnose("""
                stub:
                  status: 200
                  expect: { status: 200 }
            """)
        #expect(found == ["10:7: error: 'expect' is not a key of the stub of endpoint 'pet'; it belongs under the endpoint, beside 'stub' (the stub's expectations are the endpoint's)"])
    }
}
