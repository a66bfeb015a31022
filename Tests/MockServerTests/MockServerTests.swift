import CatalogTestSupport
import DispatcherCore
import Foundation
@testable import MockServer
import Sessions
import Synchronization
import TestSupport
import Testing

@testable import Catalog
import TestTraits

/// The mock server: routing, example selection, simulated failures, logs, and a round trip of
/// every bundled endpoint in live mode giving what stub mode gives.
@Suite(.offPool) struct MockServerTests {
    /// Starts a mock server on a free port for `services`, runs `body`, stops it.
    func withServer<T>(
        _ services: [Service], honourDelays: Bool = false,
        _ body: (MockServer, Collected<MockRequestLog>) async throws -> T
    ) async throws -> T {
        let logs = Collected<MockRequestLog>()
        let server = MockServer(
            services: services, configuration: MockServer.Configuration(port: 0, honourDelays: honourDelays),
            log: { entry in logs.append(entry) })
        try await server.start()
        do {
            let result = try await body(server, logs)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    /// The environment pointing at the running server, without retries.
    func mockEnvironment(_ service: Service, _ server: MockServer) throws -> Environment {
        var environment = service.environments[0]
        environment.baseURL = try #require(server.baseURL(of: service.id))
        environment.retry = nil
        return environment
    }

    @Test func roundTripOfEveryBundledEndpointMatchesStubMode() async throws {
        let catalog = BundledCatalogs.load()
        try await withServer(catalog.services) { server, _ in
            let transport = TestHTTPTransport()
            for service in catalog.services {
                let environment = try mockEnvironment(service, server)
                let stubSession = ServiceSession(service: service, environment: environment, clock: .instant)
                for endpoint in service.endpoints {
                    for name in endpoint.exampleNames {
                        guard let example = endpoint.example(named: name) else { continue }
                        let echoes: Bool
                        switch example.sample {
                        case .response: echoes = false
                        case .echo: echoes = true
                        case .status, .networkError, .noFixture: continue
                        }
                        let stub = await stubSession.send(endpoint, options: RequestOptions(stubBehavior: .immediate, example: name))
                        let asking = AskingMock(transport, example: name, repeats: example.repeats)
                        let live = await ServiceSession(service: service, environment: environment, transport: asking)
                            .send(endpoint, options: RequestOptions(stubBehavior: .never))
                        let label = "\(endpoint.key) [\(name)]"
                        #expect(live.response?.source == .network, "\(label): \(live.error?.description ?? "")")
                        #expect(live.response?.status == stub.response?.status, "\(label)")
                        // An example that echoes answers with the request it got (MockEchoTests).
                        if !echoes { #expect(live.response?.body == stub.response?.body, "\(label)") }
                        #expect(live.error?.kind == stub.error?.kind, "\(label)")
                    }
                }
            }
        }
    }

    @Test func simulatedNetworkErrorsFailLikeTheRealThing() async throws {
        let catalog = BundledCatalogs.load()
        let httpbin = try #require(catalog.service("httpbin"))
        let petstore = try #require(catalog.service("petstore"))
        try await withServer([httpbin, petstore]) { server, logs in
            let transport = TestHTTPTransport()
            // A patient read timeout but where the timeout itself is the point (a busy machine).
            func live(
                _ service: Service, _ endpoint: String, _ example: String, read: Duration = .seconds(60),
                environment change: (inout Environment) -> Void = { _ in }
            ) async throws -> Exchange {
                var environment = try mockEnvironment(service, server)
                change(&environment)
                let session = ServiceSession(service: service, environment: environment, transport: AskingMock(transport, example: example))
                return await session.send(endpoint, options: RequestOptions(stubBehavior: .never, timeouts: Timeouts(read: read)))
            }
            let timeout = try await live(httpbin, "delay", "timeout", read: .seconds(1))
            #expect(timeout.error?.kind == .timeout)
            #expect(timeout.error?.status == nil)

            let dropped = try await live(httpbin, "delay", "dropped")
            #expect(dropped.error?.kind == .connectionLost, "\(dropped.error?.description ?? "")")

            let huge = try await live(petstore, "findPet", "huge") { $0.maximumBodySize = 1024 }
            #expect(huge.error?.kind == .bodyTooLarge, "\(huge.error?.description ?? "")")

            for example in ["noNetwork", "refused", "badCertificate", "wrongKey"] {
                let closed = try await live(httpbin, "uuid", example)
                #expect(closed.error != nil && closed.response == nil, "\(example): \(closed.error?.description ?? "")")
            }
            let outcomes = logs.all.compactMap(\.outcome)
            #expect(outcomes.contains("timedOut: holding the connection until the client gives up"))
            #expect(outcomes.contains("bodyTooLarge: declared 1025 bytes, over the limit of 1024") == false)
        }
    }

    @Test func anExpiredSessionIsRefreshedAndTheRequestResumedAgainstTheMock() async throws {
        let catalog = BundledCatalogs.load()
        let petstore = try #require(catalog.service("petstore"))
        try await withServer([petstore]) { server, logs in
            let session = ServiceSession(
                service: petstore, environment: try mockEnvironment(petstore, server), transport: AskingMock(TestHTTPTransport(), example: "expired"))
            let exchange = await session.send("findPet", options: RequestOptions(stubBehavior: .never))
            // 401 "session expired" → login → the same request again, no longer asking for the example.
            #expect(try exchange.result.get().status == 200)
            #expect(logs.all.map(\.example) == ["expired", "default", "default"])
            #expect(logs.all.map { $0.endpoint?.endpoint } == ["findPet", "login", "findPet"])
        }
    }

    @Test func requestsPickExamplesByHeaderOrQueryAndAreLogged() async throws {
        let catalog = BundledCatalogs.load()
        let petstore = try #require(catalog.service("petstore"))
        try await withServer([petstore]) { server, logs in
            let base = try #require(server.baseURL(of: "petstore"))
            let (body, response) = try await fetch(base.appendingPathComponent("pet/7"))
            #expect(response.status == 200)
            #expect(body == petstore.endpoint("findPet").flatMap { example in
                if case .response(_, _, let body) = example.stub.sample { body } else { nil }
            })
            let (_, byHeader) = try await fetch(base.appendingPathComponent("pet/7"), headers: ["X-Mock-Example": "notFound"])
            #expect(byHeader.status == 404)
            let (_, byQuery) = try await fetch(try #require(URL(string: base.absoluteString + "/pet/findByStatus?status=sold&mock-example=rateLimited")))
            #expect(byQuery.status == 429)
            #expect(byQuery.headers["Retry-After"] == "2")
            let (unknownBody, unknown) = try await fetch(base.appendingPathComponent("pet/7"), headers: ["X-Mock-Example": "nope"])
            #expect(unknown.status == 400)
            #expect(unknown.headers["X-Mock-Error"] == "true")
            #expect(String(decoding: unknownBody, as: UTF8.self).contains("petstore/findPet has no example named 'nope'"))

            let lines = logs.all.map(\.description)
            #expect(lines.count == 4)
            #expect(lines[0].hasPrefix("GET /petstore/pet/7 → 200 (example: default, "))
            #expect(lines[0].hasSuffix(" ms)"))
            #expect(lines[1].hasPrefix("GET /petstore/pet/7 → 404 (example: notFound, "))
            #expect(lines[2].hasPrefix("GET /petstore/pet/findByStatus?status=sold&mock-example=rateLimited → 429 (example: rateLimited, "))
            #expect(lines[3].hasPrefix("GET /petstore/pet/7 → 400 mock error: petstore/findPet has no example named 'nope' ("))
        }
    }

    @Test func routingPrefersLiteralSegmentsAndKnowsMethods() async throws {
        let catalog = BundledCatalogs.load()
        let petstore = try #require(catalog.service("petstore"))
        try await withServer([petstore]) { server, logs in
            let base = try #require(server.baseURL(of: "petstore"))
            _ = try await fetch(base.appendingPathComponent("pet/findByStatus"))
            _ = try await fetch(base.appendingPathComponent("pet/12"), method: "DELETE")
            let (_, notAllowed) = try await fetch(base.appendingPathComponent("pet/12"), method: "PATCH")
            #expect(notAllowed.status == 405)
            #expect(notAllowed.headers["Allow"] == "GET, PUT, DELETE")
            let (_, missing) = try await fetch(base.appendingPathComponent("nothing/here"))
            #expect(missing.status == 404)
            let (index, root) = try await fetch(try #require(URL(string: "http://127.0.0.1:\(server.port ?? 0)/")))
            #expect(root.status == 200)
            #expect(String(decoding: index, as: UTF8.self).contains("\"path\" : \"/petstore\"") || String(decoding: index, as: UTF8.self).contains("/petstore"))
            let endpoints = logs.all.map { $0.endpoint?.description }
            #expect(endpoints.prefix(2) == ["petstore/listPets", "petstore/deletePet"])
        }
    }

    @Test func delaysAreHonoured() async throws {
        let service = try loadCleanService("""
            environments:
              local: { baseURL: "http://127.0.0.1:1", fixtures: delayed(0.2) }
            endpoints:
              slow: { path: /slow, stub: { body: ok }, examples: { slower: { body: later, delay: 0.4 } } }
            """)
        try await withServer([service], honourDelays: true) { server, _ in
            let url = try #require(server.baseURL(of: "test")).appendingPathComponent("slow")
            let clock = ContinuousClock()
            let start = clock.now
            _ = try await fetch(url)
            let fixtureDelay = clock.now - start
            _ = try await fetch(url, headers: ["X-Mock-Example": "slower"])
            let exampleDelay = clock.now - start - fixtureDelay
            #expect(fixtureDelay >= .milliseconds(200))
            #expect(exampleDelay >= .milliseconds(400))
        }
    }

    @Test func stoppingClosesHeldConnections() async throws {
        let catalog = BundledCatalogs.load()
        let httpbin = try #require(catalog.service("httpbin"))
        let server = MockServer(services: [httpbin], configuration: MockServer.Configuration(port: 0, honourDelays: false))
        let port = try await server.start()
        // A raw connection, not HTTPClient.shared: that one retries a refused connection until its
        // deadline, which on a busy machine (the request not there yet) measured 30 s, not the server.
        let request = Array("GET /httpbin/delay/1 HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Mock-Example: timeout\r\n\r\n".utf8)
        let held = Task { try? await RawTestClient.exchange(port: port, sending: request, readTimeout: .seconds(120)) }
        try await Task.sleep(for: .seconds(1))  // let the request reach the server before stopping it
        let clock = ContinuousClock()
        let start = clock.now
        await server.stop()
        let exchange = await held.value
        #expect(clock.now - start < atOnce, "not the client's read timeout")
        #expect(exchange.map { $0.ending != .timedOut } ?? true, "the held connection was closed by the server")
        #expect(server.port == nil)
    }

    /// A plain request outside the dispatcher.
    func fetch(_ url: URL, method: String = "GET", headers: [String: String] = [:], timeout: Double = 10) async throws -> (Data, Response) {
        try await MockServerTests.fetch(url, method: method, headers: headers, timeout: timeout)
    }

    static func fetch(_ url: URL, method: String = "GET", headers: [String: String] = [:], timeout: Double = 10) async throws -> (Data, Response) {
        let request = DispatcherCore.Request(
            identifier: "fetch", method: HTTPMethod(rawValue: method) ?? .get, url: url,
            headers: Headers(headers.map { ($0.key, $0.value) }, origin: .endpoint),
            settings: TransportSettings(environment: Environment(name: "test", baseURL: url, timeouts: Timeouts(read: .seconds(timeout)))))
        let response = try await TestHTTPTransport().send(request)
        return (response.body, response)
    }
}

/// The router on its own.
@Suite(.offPool) struct SegmentPatternTests {
    @Test func placeholdersMatchWithinASegment() {
        #expect(SegmentPattern("{{id}}").matches("7"))
        #expect(!SegmentPattern("{{id}}").matches(""))
        #expect(SegmentPattern("{{id}}.json").matches("7.json"))
        #expect(!SegmentPattern("{{id}}.json").matches(".json"))
        #expect(SegmentPattern("v{{major}}.{{minor}}").matches("v1.2"))
        #expect(!SegmentPattern("v{{major}}.{{minor}}").matches("v1"))
        #expect(!SegmentPattern("pets").matches("pet"))
        #expect(SegmentPattern("a%20b").matches("a b"))
    }
}

/// Asks the mock for `example` with the header, as a person would (the app never adds it: a live
/// send carries no example): on the first request, and when the example `repeats` on every later
/// one to the same path; a refresh (another path) goes without it, and so does the resumed request
/// of an example that does not repeat, as stub mode answers them.
final class AskingMock: Transport {
    let base: any Transport
    let example: String
    let repeats: Bool
    private let firstPath = Mutex<String?>(nil)

    init(_ base: any Transport, example: String, repeats: Bool = false) {
        self.base = base
        self.example = example
        self.repeats = repeats
    }

    func send(_ request: Request) async throws(TransportError) -> Response {
        var request = request
        let path = request.url.path
        let asks = firstPath.withLock { first in
            guard let first else {
                first = path
                return true
            }
            return repeats && first == path
        }
        if asks { request.headers.set(MockServer.exampleHeader, example, origin: .edited) }
        return try await base.send(request)
    }
}
