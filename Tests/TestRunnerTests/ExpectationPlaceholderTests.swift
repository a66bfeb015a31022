import Catalog
import DispatcherCore
import Foundation
import Sessions
import Testing

@testable import TestRunner
import TestTraits

/// Placeholders in `expect:` are filled as the request's are (issue 49, item 4), and `validate`
/// warns about one nothing in the catalog fills.
@Suite(.offPool) struct ExpectationPlaceholderTests {
    static let catalog = """
        service: shop
        environments:
          local:
            baseURL: http://127.0.0.1:9
            fixtures: never
            retry: none
            variables: { owner: Ann }
        endpoints:
          echo:
            path: /get
            query: { n: "{{i}}" }
            parameters: { petId: "42" }
            expect:
              body:
                $.args.n: "{{i}}"
                $.id: "{{petId}}"
                $.owner: { startsWith: "{{owner}}" }
                $.label: "pet {{petId}} of {{owner}}"
          other:
            path: /other
            expect: { body: { $.n: "{{nowhere}}" } }
        flows:
          chain:
            steps:
              - endpoint: echo
                captures: { seen: $.id }
              - endpoint: other
                variables: { nowhere: "1" }
                expect: { body: { $.n: "{{seen}}" } }
        """

    static let body = #"{"args":{"n":"5"},"id":42,"owner":"Ann Smith","label":"pet 42 of Ann","n":42}"#

    /// Runs `target` live against a transport answering `body`; the result and the transport.
    func run(_ target: String, values: [String: String]) async throws -> (TestResult, ScriptedTransport) {
        let (catalog, _) = try loadCatalog(Self.catalog)
        let transport = ScriptedTransport { _, _ in json(200, Self.body) }
        let testCase = try #require(TestSelection.cases([target], environment: nil, in: catalog).first)
        let runner = TestRunner(
            caller: EndpointCaller(catalog: catalog, secrets: SecretStore(processEnvironment: [:]), transport: transport), mode: .live,
            values: values)
        return (await runner.run(testCase), transport)
    }

    @Test func placeholdersInExpectAreFilledLikeTheRequest() async throws {
        let (passed, _) = try await run("shop/echo", values: ["i": "5"])
        #expect(passed.status == .passed, "\(passed.summary ?? "")")
        #expect(passed.steps.first?.outcomes.count == 4)
        // The failure shows the value filled in, not the placeholder.
        let (failed, _) = try await run("shop/echo", values: ["i": "6"])
        #expect(failed.status == .failed)
        #expect(failed.summary == #"$.args.n: expected equals "6", got "5""#)
    }

    @Test func aPlaceholderWithoutAValueErrsBeforeSending() async throws {
        let (result, transport) = try await run("shop/other", values: [:])
        #expect(result.status == .errored)
        #expect(result.summary?.contains("expect uses {{nowhere}}, which has no value") == true, "\(result.summary ?? "")")
        #expect(transport.paths.isEmpty, "nothing is sent when an expected value cannot be filled")
    }

    @Test func capturesOfEarlierStepsFillLaterExpectations() async throws {
        let (result, _) = try await run("shop/flow:chain", values: ["i": "5"])
        #expect(result.status == .passed, "\(result.summary ?? "")")
    }

    @Test func validateWarnsAboutAPlaceholderNothingFills() throws {
        let (catalog, _) = try loadCatalog(Self.catalog)
        let warnings = ExpectationPlaceholders.warnings(in: catalog)
        // `{{i}}` (a --var), `{{nowhere}}` on the endpoint; the flow's step gives `nowhere` and `seen` is captured.
        #expect(warnings.map(\.message).map { String($0.prefix(40)) } == ["'{{i}}' in the expect of shop/echo has n", "'{{nowhere}}' in the expect of shop/othe"])
        #expect(warnings.allSatisfy { $0.severity == .warning && $0.file.hasSuffix("shop.yaml") && $0.line > 1 })
    }
}
