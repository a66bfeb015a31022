import Catalog
import DispatcherCore
import Foundation
import Sessions
import TestSupport
import Testing

@testable import TestRunner
import TestTraits

/// In stub mode a test of an endpoint without a fixture checked nothing: it is skipped, never
/// passed on an invented empty `200` (issue 34, point 4) — imported asserts included.
@Suite(.offPool) struct NoFixtureRunTests {
    static let catalog = """
        service: shop
        environments:
          local:
            baseURL: http://127.0.0.1:9
        endpoints:
          bare:
            path: /bare
            expect: { status: 200 }
          list:
            path: /pets
            stub: { body: [] }
        flows:
          browse:
            steps:
              - endpoint: list
              - endpoint: bare
        """

    func runner(_ catalog: CatalogSet, transport: (any Transport)? = nil, mode: RequestMode) -> TestRunner {
        TestRunner(caller: EndpointCaller(catalog: catalog, secrets: SecretStore(processEnvironment: [:]), transport: transport), mode: mode)
    }

    @Test func aTestWithoutAFixtureIsSkippedInStubModeAndRunsLive() async throws {
        let (catalog, _) = try loadCatalog(Self.catalog)
        let cases = try TestSelection.cases(["shop/bare", "shop/flow:browse"], environment: nil, in: catalog)
        let stub = await runner(catalog, mode: .stub).run(cases)
        #expect(stub.map(\.status) == [.skipped, .skipped])
        #expect(stub[0].summary?.contains("no fixture: shop/bare has no fixture") == true, "\(stub[0].summary ?? "")")
        #expect(stub[1].steps.map(\.status) == [.passed, .skipped])
        // Every skip says why: the flow names its step and the reason.
        #expect(stub[1].note?.hasPrefix("step 'bare': no fixture: shop/bare has no fixture") == true, "\(stub[1].note ?? "")")
        #expect(stub.allSatisfy { $0.summary != nil })
        #expect(TestTally(stub).exitStatus == 4, "nothing was checked")

        let transport = ScriptedTransport { request, _ in json(200, "[]") }
        let live = await runner(catalog, transport: transport, mode: .live).run(cases)
        #expect(live.map(\.status) == [.passed, .passed])
    }
}
