import CatalogTestSupport
import DispatcherCore
import Foundation
@testable import MockServer
import Sessions
import TestSupport
import Testing

@testable import Catalog
import TestTraits

/// An endpoint that declares no `stub:` has no fixture: stub mode and the mock say so, never an
/// invented empty `200` (issue 34, point 4).
@Suite(.offPool) struct NoFixtureCatalogTests {
    static let text = """
        service: shop
        environments:
          local: { baseURL: "http://127.0.0.1:9", fixtures: immediate }
        endpoints:
          bare:
            path: /bare
          withExamples:
            path: /some
            examples:
              empty: { status: 200, body: [] }
          declared:
            path: /declared
            stub: { status: 204 }
        """

    @Test func stubModeAnswersNoFixtureAndNamesTheWayOut() async throws {
        let service = try loadCleanService(Self.text)
        let bare = try #require(service.endpoint("bare"))
        #expect(!bare.stub.isFixture)
        #expect(try #require(service.endpoint("declared")).stub.isFixture)
        let session = ServiceSession(service: service, environment: service.environments[0], clock: .instant)
        let exchange = await session.send("bare")
        #expect(exchange.response == nil)
        #expect(exchange.error?.kind == .noFixture)
        #expect(bare.noFixtureAdvice(live: "--live") == "add a 'stub:' to bare (cat/test.yaml:5:3), or send it live (--live)")
        let withExamples = try #require(service.endpoint("withExamples"))
        #expect(withExamples.noFixtureAdvice(live: "s").contains("pick one of its examples (empty)"))
        #expect(await session.send("withExamples").error?.kind == .noFixture)
        #expect(await session.send("withExamples", options: RequestOptions(example: "empty")).response?.status == 200)
        #expect(await session.send("declared").response?.status == 204)
    }

    @Test func theMockAnswers501ForAnEndpointWithoutAFixture() async throws {
        let service = try loadCleanService(Self.text)
        let server = MockServer(services: [service], configuration: MockServer.Configuration(port: 0, honourDelays: false))
        try await server.start()
        let base = try #require(server.baseURL(of: "shop"))
        let answer = try? await MockServerTests.fetch(base.appendingPathComponent("bare"))
        let declared = try? await MockServerTests.fetch(base.appendingPathComponent("declared"))
        await server.stop()
        let (body, response) = try #require(answer)
        #expect(response.status == 501)
        #expect(response.headers["X-Mock-Error"] == "true")
        #expect(String(decoding: body, as: UTF8.self).contains("shop/bare has no fixture"))
        #expect(declared?.1.status == 204)
    }
}
