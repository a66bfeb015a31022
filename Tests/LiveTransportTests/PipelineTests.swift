import DispatcherCore
import Foundation
import LiveTransport
import NIOHTTP1
import Synchronization
import TestSupport
import Testing
import TestTraits

/// The whole dispatcher over the live transport: a request looks the same to every layer above it.
@Suite("Dispatcher over the live transport", .offPool)
struct PipelineTests {
    @Test(arguments: [
        (400, ErrorKind.badRequest), (401, .unauthorized), (403, .forbidden), (404, .notFound), (409, .clientError(409)),
        (429, .tooManyRequests), (500, .internalServerError), (502, .serverError(502)), (503, .serverError(503)),
        (504, .serverError(504)),
    ])
    func everyStatusOfTheErrorTableMapsToItsKind(status: Int, kind: ErrorKind) async throws {
        try await withServerAndTransport(handler: { _ in
            .json(#"{"message":"server says \#(status)"}"#, status: HTTPResponseStatus(statusCode: status))
        }) { server, transport in
            let dispatcher = Dispatcher<Target>(environment: liveEnvironment(server.baseURL), transport: transport)
            let exchange = await dispatcher.send(Target(.get, "/status"))
            #expect(exchange.error?.kind == kind)
            #expect(exchange.error?.status == status)
            #expect(exchange.error?.message == "server says \(status)")
            #expect(exchange.error?.response?.source == .network)
        }
    }

    @Test func anEmptySuccessWhereDataWasExpectedIsNoDataAndAnUnfollowedRedirectIsUnknown() async throws {
        try await withServerAndTransport(handler: { request in
            request.path == "/empty" ? .status(.ok) : .redirect(to: "/elsewhere")
        }) { server, transport in
            let environment = liveEnvironment(server.baseURL, redirects: RedirectPolicy(follow: false))
            let dispatcher = Dispatcher<Target>(environment: environment, transport: transport)
            #expect(await dispatcher.send(Target(.get, "/empty")).error?.kind == .noData)
            let redirect = await dispatcher.send(Target(.get, "/moved"))
            #expect(redirect.error?.kind == .unknown)
            #expect(redirect.error?.status == 302)
        }
    }

    @Test func retryHonoursRetryAfterAgainstARealServer() async throws {
        let hits = LockedValue(0)
        try await withServerAndTransport(handler: { _ in
            let n = hits.increment()
            switch n {
            case 1: return .status(.serviceUnavailable, headers: ["Retry-After": "0"])
            case 2: return .status(.tooManyRequests, headers: ["Retry-After": "0"])
            default: return .json(#"{"ok":true}"#)
            }
        }) { server, transport in
            let environment = liveEnvironment(server.baseURL, retry: RetryPolicy(limit: 3, initialBackoff: .seconds(120)))
            let dispatcher = Dispatcher<Target>(environment: environment, transport: transport)
            let (exchange, time) = await elapsed { await dispatcher.send(Target(.get, "/flaky")) }
            #expect(exchange.response?.status == 200)
            #expect(exchange.attempts == 3)
            #expect(hits.value == 3)
            #expect(time < atOnce)  // Retry-After: 0 was honoured over the 120 s backoff
        }
    }

    @Test func retryAfterAConnectionLostMidBody() async throws {
        let hits = LockedValue(0)
        try await withServerAndTransport(handler: { _ in
            let first = hits.increment() == 1
            return first ? .truncated(declaredLength: 100, sentBytes: 10) : .ok("whole")
        }) { server, transport in
            let environment = liveEnvironment(server.baseURL, retry: RetryPolicy(limit: 1, initialBackoff: .milliseconds(1)))
            let exchange = await Dispatcher<Target>(environment: environment, transport: transport).send(Target(.get, "/"))
            #expect(exchange.response?.text == "whole")
            #expect(exchange.attempts == 2)
        }
    }

    @Test func twentyConcurrentUnauthorizedRequestsCauseOneRefreshAtTheServer() async throws {
        let token = LockedValue("t1")
        let refreshes = LockedValue(0)
        let handler: TestHTTPServer.Handler = { request in
            if request.path == "/login" {
                refreshes.withLock { $0 += 1 }
                // Slow enough that every request fails with the old token before the new one exists.
                try? await Task.sleep(for: .milliseconds(200))
                token.value = "t2"
                return .json(#"{"token":"t2"}"#)
            }
            return request.header("Authorization") == "Bearer \(token.value)" ? .json(#"{"ok":true}"#) : .status(.unauthorized)
        }
        try await withServerAndTransport(handler: handler) { server, transport in
            let store = CredentialStore(token: "t0")
            let environment = liveEnvironment(server.baseURL)
            let login = Dispatcher<Target>(environment: environment, transport: transport)
            let refresher = TokenRefreshHandler(store: store) {
                let response = try await login.request(Target(.post, "/login", expectsResponseBody: true))
                let body = try response.decode([String: String].self)
                return body["token"] ?? ""
            }
            let activity = NetworkActivityPlugin()
            let dispatcher = Dispatcher<Target>(
                environment: environment, transport: transport, plugins: [activity, BearerAuthPlugin(store: store)],
                errorHandlers: [refresher])
            let exchanges = await withTaskGroup(of: Exchange.self) { group in
                for index in 0..<20 { group.addTask { await dispatcher.send(Target(.get, "/items/\(index)")) } }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(exchanges.allSatisfy { $0.response?.status == 200 })
            #expect(refreshes.value == 1)
            #expect(refresher.refreshCount == 1)
            #expect(store.token == "t2")
            #expect(server.requests.filter { $0.path == "/login" }.count == 1)
            #expect(server.requests.filter { $0.path.hasPrefix("/items/") }.count == 40)
            #expect(activity.inFlight == 0)
        }
    }

    @Test func cancellingThroughTheDispatcherReturnsTheActivityCountToZero() async throws {
        try await withServerAndTransport(handler: { _ in .neverRespond }) { server, transport in
            let changes = Mutex<[Int]>([])
            let activity = NetworkActivityPlugin { _, count in changes.withLock { $0.append(count) } }
            let dispatcher = Dispatcher<Target>(environment: liveEnvironment(server.baseURL), transport: transport, plugins: [activity])
            let tasks = (0..<5).map { index in Task { await dispatcher.send(Target(.get, "/hang/\(index)")) } }
            try await server.waitForRequests(count: 5)
            #expect(activity.inFlight == 5)
            for task in tasks { task.cancel() }
            for task in tasks {
                let exchange = await task.value
                #expect(exchange.error?.kind == .cancelled)
            }
            #expect(activity.inFlight == 0)
            #expect(changes.withLock { $0.last } == 0)
            try await waitUntil { server.openConnectionCount == 0 }
        }
    }

    @Test func stubAndLiveRequestsLookTheSameToPlugins() async throws {
        try await withServerAndTransport(handler: { _ in .json(#"{"id":1}"#) }) { server, transport in
            let log = RequestLog()
            let target = Target(.get, "/pets/{{id}}", headers: ["Accept": "application/json"], pathParameters: ["id": "1"],
                sampleResponse: .status(200, Data(#"{"id":1}"#.utf8)))
            let environment = liveEnvironment(server.baseURL)
            let dispatcher = Dispatcher<Target>(environment: environment, transport: transport, plugins: [log])
            let live = await dispatcher.send(target)
            let stub = await dispatcher.send(target, options: RequestOptions(stubBehavior: .immediate))
            #expect(live.response?.text == stub.response?.text)
            let requests = log.requests
            #expect(requests.count == 2)
            #expect(requests[0].url == requests[1].url)
            #expect(requests[0].headers == requests[1].headers)
            #expect(requests[0].method == requests[1].method)
        }
    }
}

/// Records every request plugins see.
final class RequestLog: Plugin {
    private let seen = Mutex<[Request]>([])
    var requests: [Request] { seen.withLock { $0 } }
    func willSend(_ request: Request, target: any TargetType) { seen.withLock { $0.append(request) } }
}

@Suite("Concurrency and lifetime", .offPool)
struct ConcurrencyTests {
    @Test func manyConcurrentRequestsAllCompleteAndTheActivityCountReturnsToZero() async throws {
        try await withServerAndTransport(handler: { .json(#"{"path":"\#($0.path)"}"#) }) { server, transport in
            let activity = NetworkActivityPlugin()
            let dispatcher = Dispatcher<Target>(environment: liveEnvironment(server.baseURL), transport: transport, plugins: [activity])
            let statuses = await withTaskGroup(of: Int?.self) { group in
                for index in 0..<300 { group.addTask { await dispatcher.send(Target(.get, "/n/\(index)")).response?.status } }
                return await group.reduce(into: [Int?]()) { $0.append($1) }
            }
            #expect(statuses.count == 300)
            #expect(statuses.allSatisfy { $0 == 200 })
            #expect(activity.inFlight == 0)
            #expect(server.requestCount == 300)
            #expect(server.connectionCount <= 8)  // the pool's per-host limit, reused throughout
        }
    }

    @Test func shutdownEndsRequestsInFlight() async throws {
        try await withTestHTTPServer(handler: { _ in .neverRespond }) { server in
            let transport = HTTPTransport(configuration: .init(proxy: .none))
            let pending = Task { await failure(of: request(server.url("/"), in: liveEnvironment(server.baseURL)), through: transport) }
            try await server.waitForRequests(count: 1)
            try await transport.shutdown()
            let error = await pending.value
            #expect(error?.code == .cancelled)
            try await waitUntil { server.openConnectionCount == 0 }
        }
    }

    @Test func aTransportDroppedWithoutShutdownDoesNotLeakOrTrap() async throws {
        try await withTestHTTPServer(handler: { _ in .ok() }) { server in
            var transport: HTTPTransport? = HTTPTransport(configuration: .init(proxy: .none))
            _ = try await transport?.send(request(server.url("/"), in: liveEnvironment(server.baseURL)))
            transport = nil
            try await waitUntil { server.openConnectionCount == 0 }
        }
    }
}
