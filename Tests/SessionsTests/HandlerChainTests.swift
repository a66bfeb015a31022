import DispatcherCore
import Foundation
import Sessions
import Testing

@testable import Catalog
import TestTraits

/// `handlers:`, `results:` and an endpoint's own `handlers:` in a catalog: each action against the
/// stubs, the chain explained in the trace, and bad handlers diagnosed with their place.
@Suite(.offPool) struct HandlerChainTests {
    static let catalog = """
        service: shop
        environments:
          local: { baseURL: "http://127.0.0.1:1/shop", fixtures: immediate, retry: none }
        auth:
          refresh: { endpoint: login, token: $.token, into: SHOP_TOKEN }
        handlers:
          - on: { kind: tooManyRequests }
            do: retry
            limit: 2
            backoff: 10ms
          - do: refresh
          - on: { transport: notConnectedToInternet }
            do: recover
            example: cached
          - on: 5xx
            do: message
            message: The shop is closed for maintenance; try again in a few minutes.
          - on: 403
            do: signOut
        results:
          - on: { kind: notFound }
            do: signOut
        endpoints:
          items:
            path: /items
            headers: { Authorization: "Bearer {{secret.SHOP_TOKEN}}" }
            stub: { body: [{ id: 1 }] }
            examples:
              busy: { status: 429, headers: { Retry-After: "0" } }
              offline: { networkError: notConnectedToInternet }
              cached: { body: [{ id: 1, cached: true }] }
              down: { status: 503 }
              forbidden: { status: 403 }
              gone: { status: 404 }
              teapot: { status: 418 }
          own:
            path: /own
            handlers:
              - on: 503
                do: message
                message: This endpoint's own words.
            stub: { status: 503 }
          login:
            method: POST
            path: /login
            stub: { body: { token: fresh } }
        """

    static func session() throws -> ServiceSession {
        let catalog = CatalogLoader.load(fileSystem: InMemoryFileSystem(texts: ["shop.yaml": catalog]), source: .bundled)
        #expect(!catalog.hasErrors, "\(catalog.diagnostics)")
        let service = try #require(catalog.service("shop"))
        return ServiceSession(service: service, environment: service.environments[0], secrets: SecretStore(processEnvironment: ["APIEXPLORER_SECRET_SHOP_TOKEN": "old"]))
    }

    static func send(_ session: ServiceSession, _ endpoint: String = "items", example: String?) async -> Exchange {
        await session.send(endpoint, options: RequestOptions(stubBehavior: .immediate, example: example))
    }

    static func trace(_ exchange: Exchange) -> [String] {
        exchange.trace.map { $0.description.split(separator: " ", maxSplits: 2).last.map(String.init) ?? "" }
    }

    /// A handler's name says what it matches, its words sorted and joined by `/`.
    @Test func handlerNamesDescribeWhatTheyMatch() {
        #expect(CatalogFileDecoder.describe(.statuses(.codes([503, 429]))) == "on 429/503")
        #expect(CatalogFileDecoder.describe(.statuses(.codes([404]))) == "on 404")
        #expect(CatalogFileDecoder.describe(.statuses(.range(500...599))) == "on 5xx")
        #expect(CatalogFileDecoder.describe(.statuses(.range(401...403))) == "on 401-403")
        #expect(CatalogFileDecoder.describe(.kinds(["unauthorized", "tooManyRequests"])) == "on tooManyRequests/unauthorized")
        #expect(CatalogFileDecoder.describe(.transport([.timedOut, .cannotFindHost])) == "on cannotFindHost/timedOut")
        #expect(CatalogFileDecoder.describe(.any) == "on any error")
        #expect(CatalogFileDecoder.describe(.refreshTriggers) == "on auth.refresh.on")
    }

    @Test func retryHonoursRetryAfterAndTheNextAttemptSucceeds() async throws {
        let exchange = await Self.send(try Self.session(), example: "busy")
        #expect(exchange.response?.status == 200)
        #expect(exchange.attempts == 2)
        #expect(Self.trace(exchange).contains { $0.hasPrefix("retry on tooManyRequests (shop.yaml:7): retry 1 of 2, after 0 s as Retry-After said") })
    }

    @Test func recoverAnswersWithTheNamedExampleAndMessageRewritesTheError() async throws {
        let session = try Self.session()
        let offline = await Self.send(session, example: "offline")
        #expect(offline.error == nil)
        #expect(offline.response?.text == #"[{"id":1,"cached":true}]"#)
        #expect(Self.trace(offline).contains("handled by recover on notConnectedToInternet (shop.yaml:12): recovered with the example 'cached' (notConnected)"))
        let down = await Self.send(session, example: "down")
        #expect(down.error?.message == "The shop is closed for maintenance; try again in a few minutes.")
        #expect(down.error?.status == 503)
    }

    @Test func signOutForgetsTheTokenAndSaysSo() async throws {
        let session = try Self.session()
        #expect(session.credentials.token == "old")
        let forbidden = await Self.send(session, example: "forbidden")
        #expect(session.credentials.token == nil)
        #expect(forbidden.error?.message.contains("signed out of shop · local: sign in again") == true)
        #expect(Self.trace(forbidden).contains { $0.hasPrefix("handled by signOut on 403") })
        // Typed for the caller, once: the explorer's banner does not read the note's words.
        #expect(session.signOut(of: forbidden) == .byHandler(.forbidden))
        #expect(session.signOut(of: forbidden) == nil)
    }

    @Test func aResultHandlerSignsOutOnTheFinalError() async throws {
        let session = try Self.session()
        let gone = await Self.send(session, example: "gone")
        #expect(gone.error?.kind == .notFound)
        #expect(gone.notes == ["signed out of shop · local: notFound"])
        #expect(session.credentials.token == nil)
        #expect(session.signOut(of: gone) == .byHandler(.notFound))
    }

    @Test func theTraceSaysWhichHandlersPassedAndThatNoneHandledIt() async throws {
        let teapot = await Self.send(try Self.session(), example: "teapot")
        let lines = Self.trace(teapot)
        #expect(lines.contains("retry on tooManyRequests (shop.yaml:7): not for this error, passed on"))
        #expect(lines.contains { $0.hasPrefix("token refresh") && $0.hasSuffix("not for this error, passed on") })
        #expect(lines.contains("no handler handled this: the error stands"))
    }

    @Test func anEndpointsOwnHandlerGoesFirstAndStopsTheChain() async throws {
        let own = await Self.send(try Self.session(), "own", example: nil)
        #expect(own.error?.message == "This endpoint's own words.")
        #expect(Self.trace(own).contains { $0.hasPrefix("handled by inline handler") })
    }

    @Test func anEnvironmentsOwnHandlersReplaceTheServicesThere() async throws {
        let text = Self.catalog.replacingOccurrences(
            of: #"  local: { baseURL: "http://127.0.0.1:1/shop", fixtures: immediate, retry: none }"#,
            with: """
                  local: { baseURL: "http://127.0.0.1:1/shop", fixtures: immediate, retry: none }
                  quiet:
                    baseURL: "http://127.0.0.1:1/shop"
                    retry: none
                    handlers:
                      - on: 5xx
                        do: message
                        message: Quiet here.
                    results: []
                """)
        let catalog = CatalogLoader.load(fileSystem: InMemoryFileSystem(texts: ["shop.yaml": text]), source: .bundled)
        #expect(!catalog.hasErrors, "\(catalog.diagnostics)")
        let service = try #require(catalog.service("shop"))
        let quiet = try #require(service.environment(named: "quiet"))
        let session = ServiceSession(service: service, environment: quiet, secrets: SecretStore(processEnvironment: ["APIEXPLORER_SECRET_SHOP_TOKEN": "old"]))
        let down = await Self.send(session, example: "down")
        #expect(down.error?.message == "Quiet here.")
        // The service's retry is not in this chain; the refresh still comes first (auth.refresh).
        let busy = await Self.send(session, example: "busy")
        #expect(busy.error?.kind == .tooManyRequests)
        let gone = await Self.send(session, example: "gone")
        #expect(gone.notes.isEmpty)
    }

    @Test func badHandlersAreDiagnosedWhereTheyAre() {
        let text = """
            service: bad
            environments:
              local: { baseURL: "http://127.0.0.1:1" }
            handlers:
              - on: 429
                do: retyr
              - do: refresh
              - on: { transport: timedout }
                do: retry
              - on: 500
                do: message
                example: nope
            results:
              - on: 401
                do: retry
            endpoints:
              one: { path: /one }
            """
        let catalog = CatalogLoader.load(fileSystem: InMemoryFileSystem(texts: ["bad.yaml": text]), source: .bundled)
        let messages = catalog.diagnostics.filter(\.isError).map { "\($0.line):\($0.column): \($0.message)" }
        #expect(messages.contains { $0.hasPrefix("6:9: 'retyr' is not a handler action") && $0.hasSuffix("did you mean 'retry'?") }, "\(messages)")
        #expect(messages.contains { $0.contains("'timedout' is not a transport error code; did you mean 'timedOut'?") }, "\(messages)")
        #expect(messages.contains { $0.hasPrefix("12:5: 'example' does not apply to message") }, "\(messages)")
        #expect(messages.contains("10:5: handler 4 needs 'message'"), "\(messages)")
        #expect(messages.contains { $0.hasPrefix("15:9: a result handler can only signOut") }, "\(messages)")
        #expect(messages.contains { $0.contains("no auth.refresh rule to refresh with") }, "\(messages)")
    }
}
