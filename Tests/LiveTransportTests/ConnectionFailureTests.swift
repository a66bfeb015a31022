import DispatcherCore
import Foundation
import LiveTransport
import TestSupport
import Testing
import TestTraits

@Suite("Connection failures", .offPool)
struct ConnectionFailureTests {
    @Test func refusedConnectionFailsAtOnceWithCannotConnect() async throws {
        let port = try TestPorts.closedPort()
        try await withTransport { transport in
            let url = URL(string: "http://127.0.0.1:\(port)/items")!
            let environment = liveEnvironment(url)
            let (error, time) = await elapsed { await failure(of: request(url, in: environment), through: transport) }
            #expect(error?.code == .cannotConnectToHost)
            #expect(error?.message == "Could not connect to 127.0.0.1:\(port): connection refused.")
            #expect(time < atOnce)  // no retry loop until the connect timeout
        }
    }

    @Test func unknownHostFailsWithCannotFindHost() async throws {
        try await withTransport { transport in
            let url = URL(string: "http://nonexistent.invalid/")!
            let environment = liveEnvironment(url, timeouts: Timeouts(connect: .seconds(3), read: .seconds(3), total: .seconds(5)))
            let error = await failure(of: request(url, in: environment), through: transport)
            // A sandbox whose resolver hangs shows up as a timeout instead: the connect one, or on a
            // starved machine the whole request's (its deadline can fire first); each says what happened.
            if error?.code == .timedOut {
                #expect(error?.timeoutPhase == .connect || error?.timeoutPhase == .total, "\(String(describing: error?.timeoutPhase))")
            } else {
                #expect(error?.code == .cannotFindHost)
                #expect(error?.message.hasPrefix("The host name 'nonexistent.invalid' could not be resolved") == true)
            }
        }
    }

    @Test(arguments: [TestResponse.ConnectionEnding.close, .reset])
    func connectionLostMidBodyKeepsThePartialResponse(ending: TestResponse.ConnectionEnding) async throws {
        try await withServerAndTransport(handler: { _ in .truncated(declaredLength: 10_000, sentBytes: 1_000, ending: ending) }) { server, transport in
            let error = await failure(of: request(server.url("/file"), in: liveEnvironment(server.baseURL)), through: transport)
            #expect(error?.code == .networkConnectionLost)
            #expect(error?.message == "127.0.0.1:\(server.port) closed the connection before the body was complete."
                || error?.message == "127.0.0.1:\(server.port) reset the connection before the body was complete.")
            let partial = try #require(error?.partialResponse)
            #expect(partial.status == 200)
            #expect(partial.body == Data(TestPattern.bytes(count: 1_000)))
        }
    }

    @Test(arguments: [TestResponse.closeConnection, .resetConnection])
    func connectionDroppedBeforeAnyResponse(response: TestResponse) async throws {
        try await withServerAndTransport(handler: { _ in response }) { server, transport in
            let error = await failure(of: request(server.url("/"), in: liveEnvironment(server.baseURL)), through: transport)
            #expect(error?.code == .networkConnectionLost)
            #expect(error?.partialResponse == nil)
        }
    }

    @Test func theTransportKeepsWorkingAfterFailures() async throws {
        let calls = LockedValue(0)
        try await withServerAndTransport(handler: { _ in
            let call = calls.increment()
            return call == 1 ? .resetConnection : .ok("fine")
        }) { server, transport in
            let environment = liveEnvironment(server.baseURL)
            #expect(await failure(of: request(server.url("/"), in: environment), through: transport)?.code == .networkConnectionLost)
            let response = try await transport.send(request(server.url("/"), in: environment))
            #expect(response.text == "fine")
        }
    }

    @Test func cancellationClosesTheConnectionPromptly() async throws {
        try await withServerAndTransport(handler: { _ in .neverRespond }) { server, transport in
            let environment = liveEnvironment(server.baseURL)
            let task = Task { () -> TransportError? in await failure(of: request(server.url("/hang"), in: environment), through: transport) }
            try await server.waitForRequests(count: 1)
            #expect(server.openConnectionCount == 1)
            let (error, time) = await elapsed { () -> TransportError? in
                task.cancel()
                return await task.value
            }
            #expect(error?.code == .cancelled)
            #expect(time < atOnce)  // the server never answers: only the cancellation ends it
            try await waitUntil { server.openConnectionCount == 0 }
        }
    }

    @Test func cancellationDuringTheBodyKeepsWhatArrived() async throws {
        try await withServerAndTransport(handler: { _ in .chunked(["part one", "never"], interval: .seconds(300)) }) { server, transport in
            let received = LockedValue(0)
            let options = RequestOptions(progress: { count, _ in received.value = count })
            let task = Task { await failure(of: request(server.url("/"), in: liveEnvironment(server.baseURL), options: options), through: transport) }
            try await waitUntil { received.value == 8 }
            task.cancel()
            let error = await task.value
            #expect(error?.code == .cancelled)
            #expect(error?.partialResponse?.text == "part one")
            try await waitUntil { server.openConnectionCount == 0 }
        }
    }
}
