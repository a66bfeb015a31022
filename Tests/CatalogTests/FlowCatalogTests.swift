import CatalogTestSupport
import DispatcherCore
import Expectations
import Foundation
import Testing

@testable import Catalog
import TestTraits

/// `flows:` in catalogs.
@Suite(.offPool) struct FlowCatalogTests {
    func catalog(_ flows: String) -> String {
        """
        service: shop
        environments:
          local:
            baseURL: http://127.0.0.1:1
        endpoints:
          addPet:
            method: POST
            path: /pet
            captures: { petId: $.id }
          getPet:
            path: /pet/{{petId}}
            examples:
              sold: { body: { status: sold } }
          listPets:
            path: /pets
        flows:
        \(flows)
        """
    }

    @Test func stepsParallelAndPolling() throws {
        let service = try loadCleanService(catalog("""
              adopt:
                title: Adopt a pet
                steps:
                  - endpoint: addPet
                    body: { name: Rex }
                    captures: { location: header Location }
                  - parallel:
                      - endpoint: getPet
                        variables: { verbose: "true" }
                      - endpoint: listPets
                        expect: { status: 200 }
                  - endpoint: getPet
                    name: waitForSale
                    example: sold
                    until: '$.status == "sold"'
                    every: 250ms
                    atMost: 5s
            """))
        let flow = try #require(service.flow("adopt"))
        #expect(flow.title == "Adopt a pet")
        #expect(flow.steps.map(\.name) == ["addPet", "getPet", "listPets", "waitForSale"])
        guard case .parallel(let group) = flow.stages[1] else { Issue.record("not parallel"); return }
        #expect(group.map(\.endpoint) == ["getPet", "listPets"])
        let add = flow.steps[0]
        #expect(add.body == .text(#"{"name":"Rex"}"#, isJSON: true))
        #expect(add.captures.map(\.name) == ["location"])
        #expect(flow.steps[1].values == ["verbose": "true"])
        #expect(flow.steps[1].expectations == nil)
        #expect(flow.steps[2].expectations?.assertions.map(\.description) == ["status is 200"])
        let poll = flow.steps[3]
        #expect(poll.example == "sold")
        #expect(poll.until?.assertions.map(\.description) == ["$.status equals \"sold\""])
        #expect(poll.interval == .milliseconds(250))
        #expect(poll.limit == .seconds(5))
    }

    @Test func mistakesAreDiagnosedAndOnlyThatFlowIsLeftOut() throws {
        let (loaded, _) = try loadCatalog(catalog("""
              good:
                steps: [{ endpoint: listPets }]
              bad:
                steps:
                  - endpoint: getPets
                  - endpoint: getPet
                    example: sould
                  - endpoint: listPets
                    every: 1s
                  - endpoint: listPets
                    name: second
                    until: "$.x ~ 1"
                  - endpoint: listPets
                    name: third
                    expekt: {}
            """))
        let found = positions(loaded.diagnostics)
        #expect(found == [
            "21:19: error: a step of flow 'bad' names endpoint 'getPets', which the service does not have (or which has errors); did you mean 'getPet'?",
            "23:18: error: endpoint 'getPet' has no example 'sould'; did you mean 'sold'?",
            "25:9: error: 'every' of a step of flow 'bad' goes with 'until' (poll until a condition holds)",
            "28:16: error: 'until' of a step of flow 'bad': '$.x ~ 1' has no comparison: write SUBJECT == VALUE (==, !=, <, <=, >, >=) or SUBJECT exists",
            "31:9: error: unknown key 'expekt' in a step of flow 'bad'; did you mean 'expect'?",
        ])
        let service = try #require(loaded.services.first)
        #expect(service.flows.map(\.id) == ["good"])
    }

    @Test func stepNamesAreUnique() throws {
        let (loaded, _) = try loadCatalog(catalog("""
              twice:
                steps: [{ endpoint: listPets }, { endpoint: listPets }]
            """))
        #expect(positions(loaded.diagnostics) == ["18:37: error: flow 'twice' has two steps named 'listPets': give one a 'name'"])
    }

    @Test func conditionsRead() throws {
        let cases: [(String, String)] = [
            (#"$.status == "done""#, #"$.status equals "done""#),
            ("$.status == done", #"$.status equals "done""#),
            ("$.status == 'done'", #"$.status equals "done""#),
            ("status == 200", "status equals 200"),
            ("$.count >= 3", "$.count >= 3"),
            ("$.items[?@.state == 'x'] != []", "$.items[?@.state == 'x'] is not []"),
            ("header ETag exists", "header ETag exists"),
        ]
        for (text, expected) in cases {
            let assertion = try Condition.parse(text).get()
            #expect(assertion.description == expected, "\(text)")
        }
        #expect(throws: ConditionError.self) { try Condition.parse("$.a < done").get() }
        #expect(throws: ConditionError.self) { try Condition.parse("body == 1").get() }
    }
}
