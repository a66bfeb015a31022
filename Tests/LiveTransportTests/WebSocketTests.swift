import DispatcherCore
import Foundation
import LiveTransport
import NIOHTTP1
import NIOWebSocket
import Synchronization
import Testing
import TestSupport
import TestTraits

/// WebSocket conversations over the network, against an in-process NIO WebSocket server.
@Suite(.offPool) struct WebSocketTests {
    /// Runs a server with `handler` and a dispatcher in front of a live transport.
    private func converse(
        tls: TestServerTLS? = nil, trust: ServerTrust = ServerTrust(), subprotocol: String? = nil,
        refuse: @escaping @Sendable (HTTPRequestHead) -> (status: Int, body: String)? = { _ in nil },
        handler: @escaping @Sendable (TestWebSocketServer.Peer) async -> Void,
        _ body: (Dispatcher<Target>, WebSocketConversation) async throws -> Exchange
    ) async throws -> (Exchange, WebSocketConversation) {
        let server = try await TestWebSocketServer(tls: tls, subprotocol: subprotocol, refuse: refuse, handler: handler)
        defer { Task { await server.stop() } }
        let conversation = WebSocketConversation(subprotocols: subprotocol.map { [$0, "other"] } ?? [])
        let exchange = try await withTransport { transport in
            let environment = liveEnvironment(URL(string: server.baseURL(scheme: tls == nil ? "http" : "https"))!, trust: trust)
            return try await body(Dispatcher<Target>(environment: environment, transport: transport), conversation)
        }
        return (exchange, conversation)
    }

    private func send(_ dispatcher: Dispatcher<Target>, _ conversation: WebSocketConversation, headers: Headers = Headers()) async -> Exchange {
        var options = RequestOptions()
        options.webSocket = conversation
        return await dispatcher.send(Target(.get, "/chat", headers: headers), options: options)
    }

    @Test func textAndBinaryMessagesGoBothWaysAndANormalCloseEndsCleanly() async throws {
        let (exchange, conversation) = try await converse(subprotocol: "chat.v1", handler: { peer in
            await peer.send(text: "welcome")
            guard let first = await peer.receive(), let second = await peer.receive() else { return }
            await peer.send(text: "got \(first.opcode == .text ? "text" : "?") \(String(decoding: first.data, as: UTF8.self))")
            await peer.send(.binary, second.data.reversed())
            await peer.close(code: 1000, reason: "done")
            _ = await peer.receive()
        }) { dispatcher, conversation in
            conversation.send(.text("hello"))
            conversation.send(.binary(Data([1, 2, 3])))
            return await send(dispatcher, conversation, headers: ["X-Trace": "t-1"])
        }
        let response = try exchange.result.get()
        #expect(response.status == 101)
        #expect(conversation.subprotocol == "chat.v1")
        let contents = conversation.transcript.map(\.content)
        #expect(contents.contains(.message(.text("welcome"))))
        #expect(contents.contains(.message(.text("got text hello"))))
        #expect(contents.contains(.message(.binary(Data([3, 2, 1])))))
        #expect(conversation.closing == WebSocketClose(code: .normal, reason: "done"))
        #expect(conversation.closedBy == .received)
        // Our answer to the server's close echoes its code.
        #expect(conversation.transcript.last?.direction == .sent)
        #expect(conversation.transcript.last?.content == .close(WebSocketClose(code: .normal)))
        // The body is the transcript, one JSON line a frame.
        #expect(response.text.split(separator: "\n").count == conversation.transcript.count)
        #expect(response.text.contains(#""direction":"received","type":"text","data":"welcome""#))
        #expect(response.text.contains(#""type":"binary","hex":"030201""#))
    }

    @Test func fragmentedMessagesArriveWholeAndPingsAreAnsweredWithTheirPayload() async throws {
        let pong = Mutex<[UInt8]?>(nil)
        let (exchange, conversation) = try await converse(handler: { peer in
            await peer.send(.text, Array("Hel".utf8), fin: false)
            await peer.send(.ping, [9, 8])  // control frames may come between fragments
            await peer.send(.continuation, Array("lo, ".utf8), fin: false)
            await peer.send(.continuation, Array("world".utf8), fin: true)
            while let frame = await peer.receive() {
                if frame.opcode == .pong {
                    pong.withLock { $0 = frame.data }
                    break
                }
            }
            await peer.close(code: 1000)
            _ = await peer.receive()
        }) { dispatcher, conversation in await send(dispatcher, conversation) }
        #expect(exchange.error == nil)
        #expect(conversation.transcript.map(\.content).contains(.message(.text("Hello, world"))))
        #expect(conversation.transcript.contains { $0.direction == .received && $0.content == .ping(Data([9, 8])) })
        #expect(conversation.transcript.contains { $0.direction == .sent && $0.content == .pong(Data([9, 8])) })
        #expect(pong.withLock { $0 } == [9, 8])
    }

    @Test(arguments: [(1008, "policyViolation"), (1009, "messageTooBig"), (1011, "internalError"), (4001, "application")])
    func aServerCloseThatIsNotCleanIsAMappedError(code: Int, name: String) async throws {
        let (exchange, conversation) = try await converse(handler: { peer in
            await peer.close(code: code, reason: "because")
            _ = await peer.receive()
        }) { dispatcher, conversation in await send(dispatcher, conversation) }
        let error = try #require(exchange.error)
        #expect(error.kind == .webSocketClosed(WebSocketCloseCode(code)))
        #expect(error.kind.name == "webSocketClosed")
        #expect(error.message.hasPrefix("The server closed the WebSocket with \(code) \(name): because ("))
        #expect(error.response?.status == 101)
        #expect(conversation.closedBy == .received)
    }

    @Test func aConnectionThatDropsWithoutACloseIsAbnormal() async throws {
        let (exchange, conversation) = try await converse(handler: { peer in
            _ = await peer.receive()
            await peer.send(text: "bye")
            // Returning closes the connection without a close frame.
        }) { dispatcher, conversation in
            conversation.send(.text("hi"))
            return await send(dispatcher, conversation)
        }
        #expect(exchange.error?.kind == .webSocketClosed(.abnormal))
        #expect(exchange.error?.message.hasPrefix("The WebSocket connection dropped with 1006 abnormal") == true)
        #expect(conversation.transcript.map(\.content).contains(.message(.text("bye"))))
        #expect(conversation.transcript.last?.content == .close(WebSocketClose(code: .abnormal, reason: "the server ended the connection without a close frame")))
    }

    @Test func closingFromTheClientWaitsForTheServersAnswer() async throws {
        let (exchange, conversation) = try await converse(handler: { peer in
            while let frame = await peer.receive() {
                if frame.opcode == .connectionClose {
                    await peer.send(.connectionClose, frame.data)
                    return
                }
                await peer.send(.text, frame.data)
            }
        }) { dispatcher, conversation in
            conversation.send(.text("one"))
            conversation.close()
            return await send(dispatcher, conversation)
        }
        #expect(exchange.error == nil)
        #expect(conversation.closedBy == .sent)
        let sent = conversation.transcript.filter { $0.direction == .sent }.map(\.content)
        let received = conversation.transcript.filter { $0.direction == .received }.map(\.content)
        #expect(sent == [.message(.text("one")), .close(WebSocketClose(code: .normal))])
        #expect(received == [.message(.text("one")), .close(WebSocketClose(code: .normal))])
    }

    @Test func aRefusedUpgradeIsMappedLikeAnyResponse() async throws {
        let (exchange, _) = try await converse(refuse: { _ in (401, #"{"message":"token expired"}"#) }, handler: { _ in }) { dispatcher, conversation in
            await send(dispatcher, conversation)
        }
        #expect(exchange.error?.kind == .unauthorized)
        #expect(exchange.response?.status == 401)
        #expect(exchange.error?.message.contains("token expired") == true)
    }

    @Test func anUpgradeAnsweredWithASuccessIsNotAConversation() async throws {
        let (exchange, _) = try await converse(refuse: { _ in (200, "hello") }, handler: { _ in }) { dispatcher, conversation in
            await send(dispatcher, conversation)
        }
        #expect(exchange.error?.message.hasPrefix("The server answered 200 OK instead of 101 Switching Protocols") == true)
    }

    @Test func theUpgradeCarriesTheRequestsHeaders() async throws {
        let seen = Mutex<String?>(nil)
        let (exchange, _) = try await converse(handler: { peer in
            seen.withLock { $0 = peer.request.headers.first(name: "Authorization") }
            await peer.close(code: 1000)
            _ = await peer.receive()
        }) { dispatcher, conversation in
            await send(dispatcher, conversation, headers: ["Authorization": "Bearer abc"])
        }
        #expect(exchange.error == nil)
        #expect(seen.withLock { $0 } == "Bearer abc")
    }

    // MARK: TLS

    @Test func wssWithAMatchingPinConverses() async throws {
        var trust = testCATrust
        trust.pins = [try TLSTests.pin(TestCertificates.server)]
        let (exchange, conversation) = try await converse(tls: .trusted, trust: trust, handler: { peer in
            await peer.send(text: "secure")
            await peer.close(code: 1000)
            _ = await peer.receive()
        }) { dispatcher, conversation in await send(dispatcher, conversation) }
        #expect(exchange.error == nil)
        #expect(conversation.transcript.first?.content == .message(.text("secure")))
    }

    @Test func wssWithAPinMismatchFailsBeforeTheUpgradeIsWritten() async throws {
        var trust = testCATrust
        trust.pins = [try TLSTests.pin(TestCertificates.otherServer)]
        let upgraded = Mutex(false)
        let (exchange, _) = try await converse(tls: .trusted, trust: trust, handler: { _ in upgraded.withLock { $0 = true } }) { dispatcher, conversation in
            await send(dispatcher, conversation, headers: ["Authorization": "Bearer never-sent"])
        }
        #expect(exchange.error?.kind == .pinningFailed)
        #expect(upgraded.withLock { $0 } == false)
    }

    @Test func wssToAnUntrustedServerIsATLSFailure() async throws {
        let (exchange, _) = try await converse(tls: .untrusted, trust: testCATrust, handler: { _ in }) { dispatcher, conversation in
            await send(dispatcher, conversation)
        }
        #expect(exchange.error?.kind == .tlsFailure)
    }
}
