import Catalog
import DispatcherCore
import Foundation
import Sessions
import Testing

@testable import TestRunner
import TestTraits

/// `--contract` over a whole service (issue 49, item 3): every endpoint is an operation, its kept
/// schema the check of those without `expect:`; each one not checkable says why.
@Suite(.offPool) struct ContractRunTests {
    static let catalog = """
        service: shop
        environments:
          local:
            baseURL: http://127.0.0.1:9
            retry: none
        endpoints:
          good: { path: /good, stub: { body: { id: 1 } } }
          broken: { path: /broken, stub: { body: { id: "x" } } }
          missing: { path: /missing, stub: { status: 404, body: { code: gone } } }
          crash: { path: /crash, stub: { status: 500, body: { error: boom } } }
          html: { path: /html, stub: { status: 200, headers: { Content-Type: text/html }, body: "<p>" } }
          noSchema: { path: /none, stub: { body: {} } }
          input: { path: "/owners/{{ownerId}}", stub: { body: { id: 1 } } }
          bare: { path: /bare }
        """

    /// Schemas for every endpoint but `noSchema`: `{id: integer}` for 200, and 404 documented.
    static let checking = ContractChecking(
        hasSchemas: { _, endpoint in endpoint != "noSchema" },
        check: { _, _, response in
            switch (response.status, response.mediaType) {
            case (200, "application/json"):
                return response.text.contains(#""id":1"#) || response.text.contains(#""id": 1"#) ? .checked([]) : .checked(["/id: expected integer"])
            case (404, _): return .checked([])
            default: return .noSchema("no schema for status \(response.status) \(response.mediaType ?? "")")
            }
        })

    @Test func everyEndpointIsAnOperationCheckedOrSaidWhyNot() async throws {
        let (catalog, _) = try loadCatalog(Self.catalog)
        let cases = try TestSelection.cases(["shop"], environment: nil, everyEndpoint: true, in: catalog)
        #expect(cases.count == 8, "without --contract only endpoints with expect: run; with it, every one")
        #expect(try TestSelection.cases(["shop"], environment: nil, in: catalog).isEmpty)
        var runner = TestRunner(caller: EndpointCaller(catalog: catalog, secrets: SecretStore(processEnvironment: [:]), transport: nil), mode: .stub)
        runner.contract = Self.checking
        let results = await runner.run(cases)
        let byName = Dictionary(uniqueKeysWithValues: results.map { ($0.testCase.name, $0) })
        #expect(byName["good"]?.status == .passed)
        #expect(byName["broken"]?.status == .failed)
        #expect(byName["broken"]?.summary == "the response breaks its schema at /id: expected integer")
        // A documented 404 is an answer, not a failure, when only the schema is the check.
        #expect(byName["missing"]?.status == .passed, "\(byName["missing"]?.summary ?? "")")
        #expect(byName["crash"]?.status == .failed)
        #expect(byName["crash"]?.summary == "a server error (status 500), which no kept schema describes")
        #expect(byName["html"]?.status == .skipped)
        #expect(byName["html"]?.summary == "no schema for its answer: no schema for status 200 text/html")
        #expect(byName["noSchema"]?.summary == "no schema: the import kept no response schema for it")
        #expect(byName["input"]?.summary == "needs input: {{ownerId}} has no value (--var ownerId=…)")
        #expect(byName["bare"]?.summary?.hasPrefix("no fixture: ") == true)

        let tally = try #require(ContractTally(results))
        #expect(tally.operations == 8)
        #expect(tally.checked == 4)
        #expect(tally.broken == 2)
        #expect(tally.notCheckable == [.noSchema: 1, .needsInput: 1, .noFixture: 1, .noSchemaForAnswer: 1])
        #expect(tally.line == "Contract: 8 operations; 4 checked, 2 broke their schema; 4 not checkable: 1 no schema, 1 no fixture, 1 needs input, 1 no schema for its answer")
        // A value for the input makes it checkable.
        runner.values = ["ownerId": "7"]
        let given = await runner.run(try #require(cases.first { $0.name == "input" }))
        #expect(given.status == .passed)
        #expect(given.steps.first?.contract == .checked(findings: 0))
    }
}
