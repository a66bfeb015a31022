import CatalogTestSupport
import DispatcherCore
import Foundation
import LiveTransport
@testable import MockServer
import Sessions
import Testing

@testable import Catalog
import TestTraits

/// `websocket:` endpoints: read with their named messages and stub script, diagnosed with their
/// place, played by stub mode and by the mock server over a real connection.
@Suite(.offPool) struct WebSocketCatalogTests {
    static let catalog = """
        service: chat
        environments:
          local: { baseURL: "http://127.0.0.1:9/chat", variables: { user: ada } }
        endpoints:
          room:
            path: /room
            websocket:
              subprotocols: [chat.v1, chat.v0]
              ping: 20s
              messages:
                hello: { type: hello, from: "{{user}}" }
                plain: just text
              script:
                - send: { type: welcome }
                - receive
                - send: thanks
                  after: 10ms
                - echo
          strict:
            path: /strict
            websocket:
              script:
                - close: 1008
                  reason: no guests
        """

    @Test func settingsAreReadWithMessagesAsCompactJSONAndTheScriptInOrder() throws {
        let service = try loadCleanService(Self.catalog)
        let settings = try #require(service.endpoint("room")?.webSocket)
        #expect(settings.subprotocols == ["chat.v1", "chat.v0"])
        #expect(settings.pingInterval == .seconds(20))
        #expect(settings.messages.map(\.name) == ["hello", "plain"])
        #expect(settings.messages[0].text == #"{"type":"hello","from":"{{user}}"}"#)
        #expect(settings.script?.steps == [
            .send(.text(#"{"type":"welcome"}"#), after: nil), .receive, .send(.text("thanks"), after: .milliseconds(10)), .echo,
        ])
        #expect(service.endpoint("strict")?.webSocket?.script?.steps == [.close(WebSocketClose(code: .policyViolation, reason: "no guests"), after: nil)])
        // A named message's placeholders are filled as the request's are.
        let endpoint = try #require(service.endpoint("room"))
        let builder = RequestBuilder(service: service, environment: service.environments[0], secrets: SecretStore())
        #expect(try builder.renderMessage(settings.messages[0].text, for: endpoint) == #"{"type":"hello","from":"ada"}"#)
        #expect(endpoint.placeholders.contains("user"))
    }

    @Test func mistakesAreDiagnosedWhereTheyAre() throws {
        let (catalog, _) = try loadCatalog("""
            service: chat
            environments:
              local: { baseURL: "http://127.0.0.1:9/chat" }
            endpoints:
              post:
                method: POST
                path: /a
                websocket: true
              body:
                path: /b
                body: { a: 1 }
                websocket: true
              script:
                path: /c
                websocket:
                  script:
                    - echoo
                    - close: 1006
                    - { send: hi, receive: true }
                  subprotocol: [x]
            """)
        #expect(positions(catalog.diagnostics) == [
            "8:5: error: endpoint 'post' is a WebSocket: its opening handshake is a GET, not POST",
            "11:5: error: endpoint 'body' is a WebSocket: it sends messages, not a 'body'",
            "17:11: error: a step of the script of endpoint 'script' must be send, receive, echo or close, not 'echoo'; did you mean 'echo'?",
            "18:18: error: close code 1006 in a step of the script of endpoint 'script' is never sent on the wire (RFC 6455 §7.4.1); use 1000–1003, 1007–1014 or 3000–4999",
            "19:11: error: a step of the script of endpoint 'script' needs exactly one of send, receive, echo or close",
            "20:7: error: unknown key 'subprotocol' in 'websocket' of endpoint 'script'; did you mean 'subprotocols'?",
        ])
    }

    @Test func theMockServerPlaysTheScriptOverARealConnection() async throws {
        let service = try loadCleanService(Self.catalog)
        let server = MockServer(services: [service], configuration: MockServer.Configuration(port: 0, honourDelays: false))
        try await server.start()
        let transport = HTTPTransport(configuration: HTTPTransport.Configuration(proxy: .none))
        var environment = service.environments[0]
        environment.baseURL = try #require(server.baseURL(of: "chat"))
        environment.fixtures = .never
        let session = ServiceSession(service: service, environment: environment, transport: transport)
        let conversation = WebSocketConversation(subprotocols: ["chat.v0"])
        conversation.send(.text("first"))
        conversation.send(.text("again"))
        var options = RequestOptions()
        options.webSocket = conversation
        let closer = Task {
            while conversation.transcript.count < 5 { try? await Task.sleep(for: .milliseconds(5)) }
            conversation.close()
        }
        let exchange = await session.send(try #require(service.endpoint("room")), options: options)
        closer.cancel()
        #expect(exchange.error == nil, "\(String(describing: exchange.error))")
        #expect(conversation.subprotocol == "chat.v0")
        let received = conversation.transcript.filter { $0.direction == .received }.compactMap { frame -> String? in
            if case .message(.text(let text)) = frame.content { return text } else { return nil }
        }
        #expect(received == [#"{"type":"welcome"}"#, "thanks", "again"])

        // A script that closes with 1008 is a mapped error on the client.
        let strict = WebSocketConversation()
        options.webSocket = strict
        let refused = await session.send(try #require(service.endpoint("strict")), options: options)
        #expect(refused.error?.kind == .webSocketClosed(.policyViolation))
        try await transport.shutdown()
        await server.stop()
    }
}
