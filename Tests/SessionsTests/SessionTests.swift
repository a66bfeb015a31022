import CatalogTestSupport
import DispatcherCore
import Foundation
import JSONSupport
import MockServer
import Sessions
import Synchronization
import Testing

@testable import Catalog
import TestTraits

/// `ServiceSession`: the one wiring of catalog, dispatcher, error rules and token refresh.
@Suite(.offPool) struct SessionTests {
    static let catalog = SessionCatalog.text

    let service: Service

    init() throws {
        service = try loadCleanService(Self.catalog)
    }

    func session(
        _ environment: String = "local", transport: (any Transport)? = nil, secrets: [String: String] = [:], plugins: [any Plugin] = []
    ) -> ServiceSession {
        ServiceSession(
            service: service, environment: service.environment(named: environment) ?? service.environments[0],
            secrets: SecretStore(processEnvironment: secrets), transport: transport, plugins: plugins, clock: .instant)
    }

    /// A server that accepts only `Bearer fresh`, and whose login returns `fresh`.
    static func strictServer(loginStatus: Int = 200) -> RecordingTransport {
        RecordingTransport { request in
            if request.url.path.hasSuffix("/login") {
                return .json(loginStatus, loginStatus == 200 ? #"{"data":{"token":"fresh"}}"# : #"{"message":"login down"}"#)
            }
            let authorized = request.headers["Authorization"] == "Bearer fresh" || request.url.query?.contains("access_token=fresh") == true
            return authorized ? .json(200, #"{"name":"Ann"}"#) : .json(401, #"{"message":"bad token"}"#)
        }
    }

    @Test func cookiesSetByOneResponseGoWithTheNextRequestsOfTheSameSessionOnly() async throws {
        let server = RecordingTransport { request in
            var response = Response.json(200, #"{"name":"Ann"}"#)
            if request.url.path.hasSuffix("/login") { response.headers.add("Set-Cookie", "session=c00kie; Path=/api; HttpOnly", origin: .server) }
            return response
        }
        let live = session(transport: server)
        _ = await live.send("login", options: RequestOptions(stubBehavior: .never))
        let me = await live.send("me", options: RequestOptions(stubBehavior: .never))
        #expect(server.requests.last?.headers["Cookie"] == "session=c00kie")
        #expect(me.request.headers.first { $0.name == "Cookie" }?.origin == .plugin("cookie jar"))
        #expect(!live.redactor.header(name: "Cookie", value: "session=c00kie").contains("c00kie"), "shown masked")
        // Another session (the other mode, another environment) has a jar of its own.
        _ = await session(transport: server).send("me", options: RequestOptions(stubBehavior: .never))
        #expect(server.requests.last?.headers["Cookie"] == nil)
    }

    @Test func stubModeAnswersWithTheFixtureAndRendersTheToken() async throws {
        let exchange = await session().send("me")
        let response = try exchange.result.get()
        #expect(response.status == 200)
        #expect(response.text == #"{"name":"Ann"}"#)
        #expect(exchange.request.headers["Authorization"] == "Bearer old-token")
        #expect(exchange.request.url.absoluteString == "http://127.0.0.1:1/api/me")
        #expect(exchange.isStubbed)
    }

    @Test func errorRulesOfTheCatalogApply() async {
        let session = session()
        let invalid = await session.send("me", options: RequestOptions(example: "invalid"))
        #expect(invalid.error?.kind == .badRequest)
        #expect(invalid.error?.message == "one; two")
        let hidden = await session.send("me", options: RequestOptions(example: "hidden"))
        #expect(hidden.error?.kind == .custom("applicationError"))
        #expect(hidden.error?.message == "quota exceeded")
    }

    @Test func liveRefreshResumesWithTheNewToken() async throws {
        let server = Self.strictServer()
        let session = session(transport: server)
        let exchange = await session.send("me", options: RequestOptions(stubBehavior: .never))
        #expect(try exchange.result.get().status == 200)
        #expect(server.requests.map(\.url.path) == ["/api/me", "/api/login", "/api/me"])
        #expect(server.requests.map { $0.headers["Authorization"] } == ["Bearer old-token", nil, "Bearer fresh"])
        #expect(server.requests[1].body == Data(#"{"password":"pw"}"#.utf8))
        #expect(session.credentials.token == "fresh")
        #expect(exchange.trace.contains { if case .resumed = $0.kind { true } else { false } })
        #expect(session.refreshHandler?.refreshCount == 1)

        // The next request carries the new token at once.
        _ = await session.send("me", options: RequestOptions(stubBehavior: .never))
        #expect(server.requests.count == 4)
        #expect(server.requests[3].headers["Authorization"] == "Bearer fresh")
    }

    @Test func aTokenInTheQueryIsReplacedToo() async throws {
        let server = Self.strictServer()
        let exchange = await session(transport: server).send("search", options: RequestOptions(stubBehavior: .never))
        #expect(try exchange.result.get().status == 200)
        #expect(server.requests.map { $0.url.query ?? "" } == ["access_token=old-token&q=pets", "", "access_token=fresh&q=pets"])
    }

    @Test func withoutATokenTheHeaderIsLeftOutAndTheRefreshGetsOne() async throws {
        let server = Self.strictServer()
        let exchange = await session("bare", transport: server, secrets: ["APIEXPLORER_SECRET_SHOP_PASSWORD": "pw"]).send("me", options: RequestOptions(stubBehavior: .never))
        #expect(try exchange.result.get().status == 200)
        #expect(server.requests.first?.headers.contains("Authorization") == false)
        #expect(server.requests.count == 3)
    }

    @Test func aFailingRefreshDoesNotRecurse() async {
        let server = Self.strictServer(loginStatus: 500)
        let exchange = await session(transport: server).send("me", options: RequestOptions(stubBehavior: .never))
        #expect(exchange.error?.kind == .internalServerError)
        #expect(exchange.error?.message.hasPrefix("Could not refresh the token:") == true)
        #expect(server.requests.map(\.url.path) == ["/api/me", "/api/login"])
    }

    @Test func aStubbed401RefreshesWithTheStubbedLoginAndResumesToTheDefaultFixture() async throws {
        let session = session()
        let exchange = await session.send("me", options: RequestOptions(example: "unauthorized"))
        // The example was the expired session; once signed in again the stub answers as the server would.
        #expect(try exchange.result.get().status == 200)
        #expect(session.credentials.token == "stub-fresh")
        #expect(exchange.request.headers["Authorization"] == "Bearer stub-fresh")
        #expect(exchange.request.options.example == nil)
        #expect(exchange.trace.filter { if case .resumed = $0.kind { true } else { false } }.count == 1)
        #expect(exchange.attempts == 2)
    }

    @Test func anExampleDelayAppliesInStubMode() async {
        let exchange = await session().send("me", options: RequestOptions(example: "slow"))
        #expect(exchange.stubBehavior == .delayed(.milliseconds(1500)))
        let plain = await session().send("me", options: RequestOptions(example: "default"))
        #expect(plain.stubBehavior == .immediate)
        #expect(plain.response?.source == .stub(example: nil))
    }

    /// An example is a fixture: a live send goes as the catalog says, never with `X-Mock-Example`,
    /// and keeps no example to record.
    @Test func aLiveSendCarriesNoExample() async {
        let server = RecordingTransport { _ in .json(200, "{}") }
        let session = session(transport: server)
        let live = await session.send("search", options: RequestOptions(stubBehavior: .never, example: "empty"))
        _ = await session.send("search", options: RequestOptions(stubBehavior: .never))
        #expect(server.requests.map { $0.headers[MockServer.exampleHeader] } == [nil, nil])
        #expect(live.request.options.example == nil)
        let stub = await session.send("me", options: RequestOptions(example: "hidden"))
        #expect(stub.request.headers[MockServer.exampleHeader] == nil)
        #expect(stub.response?.source == .stub(example: "hidden"))
    }

    @Test func unresolvedPlaceholdersSendNothing() async {
        let server = RecordingTransport { _ in .json(200, "{}") }
        let exchange = await session(transport: server).send("open", options: RequestOptions(stubBehavior: .never))
        #expect(exchange.error?.kind == .invalidRequest)
        #expect(exchange.error?.message.hasPrefix("shop/open: path uses {{id}}, which has no value") == true)
        #expect(exchange.attempts == 0)
        #expect(server.requests.isEmpty)
        let fine = await session(transport: server).send("open", values: ["id": "3"], options: RequestOptions(stubBehavior: .never))
        #expect(fine.request.url.path == "/api/open/3")
    }

    @Test func unknownEndpointIsAnInvalidRequest() async {
        let exchange = await session().send("mee")
        #expect(exchange.error?.message == "shop has no endpoint 'mee'; did you mean 'me'?")
    }

    @Test func sessionsAreReleased() async {
        weak var released: ServiceSession?
        do {
            let session = session()
            released = session
            _ = await session.send("me")
        }
        #expect(released == nil)
    }
}
