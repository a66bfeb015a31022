import DispatcherCore
import Foundation
import Synchronization
import Testing
import TestTraits

@Suite(.offPool) struct TokenRefreshTests {
    /// 401 unless the request carries `Bearer <valid>`.
    func server(valid: String) -> ScriptedTransport {
        ScriptedTransport { request, _ in
            request.headers["Authorization"] == "Bearer \(valid)"
                ? Response(status: 200, body: Data("{}".utf8), url: request.url)
                : Response(status: 401, url: request.url)
        }
    }

    @Test func twentyConcurrentUnauthorizedRequestsShareOneRefreshAndEachResumesOnce() async throws {
        let store = CredentialStore(token: "old")
        let transport = server(valid: "new")
        let refreshCalls = Atomic<Int>(0)
        let handler = TokenRefreshHandler(store: store) {
            refreshCalls.add(1, ordering: .relaxed)
            // Hold the refresh until every request has failed once, so all of them pile up on it.
            let deadline = ContinuousClock.now + .seconds(5)
            while transport.count < 20, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(1)) }
            return "new"
        }
        let dispatcher = Dispatcher<Target>(
            environment: environment(fixtures: .never), transport: transport,
            plugins: [BearerAuthPlugin(store: store)], errorHandlers: [handler])

        let exchanges = await withTaskGroup(of: Exchange.self) { group in
            for index in 0..<20 { group.addTask { await dispatcher.send(Target(.get, "/items/\(index)")) } }
            return await group.reduce(into: []) { $0.append($1) }
        }

        #expect(refreshCalls.load(ordering: .relaxed) == 1)
        #expect(handler.refreshCount == 1)
        #expect(store.token == "new")
        #expect(exchanges.allSatisfy { $0.response?.status == 200 })
        #expect(exchanges.allSatisfy { $0.attempts == 2 })
        #expect(exchanges.allSatisfy { exchange in exchange.trace.filter { if case .resumed = $0.kind { true } else { false } }.count == 1 })
        #expect(transport.count == 40)
    }

    @Test func aRequestThatFailedWithAnOutdatedTokenResumesWithoutRefreshing() async {
        let store = CredentialStore(token: "old")
        let transport = ScriptedTransport { request, call in
            if call == 1 {
                store.token = "new"  // someone else refreshed while this request was on the wire
                return Response(status: 401, url: request.url)
            }
            return Response(status: request.headers["Authorization"] == "Bearer new" ? 200 : 401, body: Data("{}".utf8), url: request.url)
        }
        let handler = TokenRefreshHandler(store: store) {
            Issue.record("must not refresh")
            return "unexpected"
        }
        let dispatcher = Dispatcher<Target>(
            environment: environment(fixtures: .never), transport: transport, plugins: [BearerAuthPlugin(store: store)],
            errorHandlers: [handler])
        let exchange = await dispatcher.send(Target(.get, "/me"))
        #expect(exchange.response?.status == 200)
        #expect(handler.refreshCount == 0)
        #expect(exchange.trace.contains { $0.kind == .resumed(by: "token refresh", note: "the token was refreshed meanwhile; resuming") })
    }

    /// Issue 49: a request that never carried the token (none was replaced meanwhile, no login was
    /// sent) must not be told "refreshed meanwhile"; it gets a refresh of its own and says so.
    @Test func aRequestCarryingNoKnownTokenIsRefreshedAndTheTraceSaysWhatHappened() async {
        let store = CredentialStore(token: "seeded")
        let refreshCalls = Atomic<Int>(0)
        let handler = TokenRefreshHandler(store: store) {
            refreshCalls.add(1, ordering: .relaxed)
            return "new"
        }
        // No BearerAuthPlugin: the request carries no token at all.
        let dispatcher = Dispatcher<Target>(
            environment: environment(fixtures: .never), transport: server(valid: "new"), errorHandlers: [handler])
        let exchange = await dispatcher.send(Target(.get, "/me"))
        let notes = exchange.trace.compactMap { if case .resumed(_, let note) = $0.kind { note } else { nil } }
        #expect(notes == ["refreshed the token; resuming"])
        #expect(refreshCalls.load(ordering: .relaxed) == 1)
        #expect(store.token == "new")
        #expect(store.replacedTokens == ["seeded"])
    }

    @Test func aFailedRefreshEndsTheRequestAndTheResultHandlerSignsOut() async {
        let store = CredentialStore(token: "old")
        let signedOut = Atomic<Bool>(false)
        let handler = TokenRefreshHandler(store: store) {
            throw DispatchError(kind: .unauthorized, message: "refresh token expired", source: "login")
        }
        let dispatcher = Dispatcher<Target>(
            environment: environment(fixtures: .never), transport: server(valid: "new"),
            plugins: [BearerAuthPlugin(store: store)], errorHandlers: [handler],
            resultHandlers: [SessionExpiryHandler(store: store) { signedOut.store(true, ordering: .relaxed) }])
        let exchange = await dispatcher.send(Target(.get, "/me"))
        #expect(exchange.error?.kind == .unauthorized)
        #expect(exchange.error?.message == "Could not refresh the token: refresh token expired")
        #expect(exchange.notes == ["session expired: signed out"])
        #expect(exchange.trace.contains { $0.kind == .resultHandler(note: "session expired: signed out") })
        #expect(store.token == nil)
        let didSignOut = signedOut.load(ordering: .relaxed)
        #expect(didSignOut)
    }

    @Test func aResumedRequestThatFailsAgainIsNotRefreshedTwice() async {
        let store = CredentialStore(token: "old")
        let handler = TokenRefreshHandler(store: store) { "still-wrong" }
        let dispatcher = Dispatcher<Target>(
            environment: environment(fixtures: .never), transport: server(valid: "right"),
            plugins: [BearerAuthPlugin(store: store)], errorHandlers: [handler])
        let exchange = await dispatcher.send(Target(.get, "/me"))
        #expect(exchange.error?.kind == .unauthorized)
        #expect(handler.refreshCount == 1, "the resumed request failing again must not refresh a second time")
        #expect(exchange.attempts == 2)
        #expect(exchange.trace.filter { if case .resumed = $0.kind { true } else { false } }.count == 1)
    }

    @Test func catalogKindsCanTriggerTheRefresh() async {
        let store = CredentialStore(token: "old")
        let handler = TokenRefreshHandler(statuses: [], kinds: [.custom("expiredUserSession")], store: store) { "new" }
        let dispatcher = Dispatcher<Target>(
            environment: environment(fixtures: .never), transport: server(valid: "new"),
            plugins: [BearerAuthPlugin(store: store)],
            errorFilter: ErrorFilter(rules: [ErrorRule(name: "expired", statuses: .codes([401]), kind: .custom("expiredUserSession"))]),
            errorHandlers: [handler])
        #expect(await dispatcher.send(Target(.get, "/me")).response?.status == 200)
    }
}
