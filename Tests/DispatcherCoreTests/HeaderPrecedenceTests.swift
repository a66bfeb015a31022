import DispatcherCore
import Foundation
import Testing
import TestTraits

@Suite(.offPool) struct HeaderPrecedenceTests {
    @Test func laterSourcesWinAndEveryHeaderKnowsWhereItCameFrom() async throws {
        let env = environment(
            headers: Headers([("Accept", "application/json"), ("X-Env", "1"), ("X-Trace", "env")], origin: .endpoint),
            groupHeaders: ["admin": Headers([("X-Trace", "group"), ("X-Group", "g")], origin: .endpoint)])
        let target = Target(.post, "/pets", headers: ["X-Trace": "endpoint", "accept": "text/plain"], body: .json(["a": 1]), group: "admin")
        let interceptor = Interceptor(adapters: [.header("X-Trace", "interceptor", name: "tracing")])
        let dispatcher = Dispatcher<Target>(
            environment: env, plugins: [BearerAuthPlugin(store: CredentialStore(token: "t0k3n"))], interceptor: interceptor)
        let exchange = await dispatcher.send(target)
        let headers = exchange.request.headers

        #expect(headers.field(named: "Accept")?.value == "text/plain")
        #expect(headers.field(named: "Accept")?.origin == .endpoint)
        #expect(headers.field(named: "Accept")?.overrides == [.environment("dev")])
        #expect(headers.field(named: "X-Env")?.origin == .environment("dev"))
        #expect(headers.field(named: "X-Group")?.origin == .group("admin"))
        #expect(headers.field(named: "X-Trace")?.value == "interceptor")
        #expect(headers.field(named: "X-Trace")?.origin == .interceptor("tracing"))
        #expect(headers.field(named: "X-Trace")?.overrides == [.environment("dev"), .group("admin"), .endpoint])
        #expect(headers.field(named: "Authorization")?.value == "Bearer t0k3n")
        #expect(headers.field(named: "Authorization")?.origin == .auth("bearer"))
        #expect(headers.field(named: "Content-Type")?.origin == .body)
        #expect(headers.values(for: "x-trace").count == 1)
    }

    @Test func authOverridesAnEndpointsOwnAuthorization() async {
        let target = Target(.get, "/me", headers: ["Authorization": "Bearer stale"])
        let dispatcher = Dispatcher<Target>(environment: environment(), plugins: [BearerAuthPlugin(store: CredentialStore(token: "fresh"))])
        let exchange = await dispatcher.send(target)
        #expect(exchange.request.headers["authorization"] == "Bearer fresh")
        #expect(exchange.request.headers.field(named: "Authorization")?.overrides == [.endpoint])
    }

    @Test func anExplicitContentTypeIsKept() async {
        let target = Target(.post, "/raw", headers: ["Content-Type": "application/vnd.api+json"], body: .json([:]))
        let exchange = await Dispatcher<Target>(environment: environment()).send(target)
        #expect(exchange.request.headers["Content-Type"] == "application/vnd.api+json")
    }

    @Test func basicAndAPIKeyPlugins() async {
        let dispatcher = Dispatcher<Target>(
            environment: environment(),
            plugins: [BasicAuthPlugin(username: "ann", password: "s3cret"), APIKeyAuthPlugin(key: "k-123", placement: .query("api_key"))])
        let exchange = await dispatcher.send(Target(.get, "/pets", query: [QueryItem(name: "a", value: "1")]))
        #expect(exchange.request.headers["Authorization"] == "Basic YW5uOnMzY3JldA==")
        #expect(exchange.request.url.absoluteString == "https://api.example.test/v1/pets?a=1&api_key=k-123")
    }
}
