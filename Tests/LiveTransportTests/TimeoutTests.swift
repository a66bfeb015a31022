import DispatcherCore
import Foundation
import LiveTransport
import TestSupport
import Testing
import TestTraits

@Suite("Timeouts", .offPool)
struct TimeoutTests {
    @Test func connectTimeoutFiresAgainstAServerThatNeverAccepts() async throws {
        let blackhole = try BlackholeServer.start()
        defer { blackhole.shutdown() }
        try await withTransport { transport in
            let url = URL(string: "http://127.0.0.1:\(blackhole.port)/")!
            let environment = liveEnvironment(url, timeouts: Timeouts(connect: .milliseconds(300), read: .seconds(60), total: .seconds(120)))
            let (error, time) = await elapsed { await failure(of: request(url, in: environment), through: transport) }
            #expect(error?.code == .timedOut)
            #expect(error?.timeoutPhase == .connect)
            #expect(error?.message == "Could not connect to 127.0.0.1:\(blackhole.port) within 300 ms (connect timeout).")
            #expect(time >= .milliseconds(250) && time < atOnce)  // far below the total deadline
        }
    }

    @Test func readTimeoutFiresWhenTheServerNeverAnswers() async throws {
        try await withServerAndTransport(handler: { _ in .neverRespond }) { server, transport in
            let environment = liveEnvironment(server.baseURL, timeouts: Timeouts(connect: .seconds(60), read: .milliseconds(300), total: .seconds(120)))
            let (error, time) = await elapsed { await failure(of: request(server.url("/"), in: environment), through: transport) }
            #expect(error?.code == .timedOut)
            #expect(error?.timeoutPhase == .read)
            #expect(error?.message == "127.0.0.1:\(server.port) sent nothing for 300 ms before a complete response head (read timeout).")
            #expect(time >= .milliseconds(250) && time < atOnce)
            // Never sent twice; on a starved machine the 300 ms can pass before the server counts it.
            #expect(server.requestCount <= 1)
        }
    }

    @Test func readTimeoutFiresWhenTheBodyStalls() async throws {
        // The head and one chunk arrive, then nothing for longer than the read timeout (`atOnce`,
        // so a starved start of the whole suite still delivers the head and the first chunk first).
        try await withServerAndTransport(handler: { _ in .chunked(["first", "late"], interval: .seconds(300)) }) { server, transport in
            let environment = liveEnvironment(server.baseURL, timeouts: Timeouts(connect: .seconds(60), read: atOnce, total: .seconds(240)))
            let error = await failure(of: request(server.url("/"), in: environment), through: transport)
            #expect(error?.timeoutPhase == .read)
            #expect(error?.partialResponse?.status == 200)
            #expect(error?.partialResponse?.text == "first")
        }
    }

    @Test func totalDeadlineFiresOnASlowDripThatKeepsTheReadTimeoutHappy() async throws {
        // A byte every 50 ms (1000 bytes: 50 s) keeps the 40 s read timeout from firing; the 45 s
        // total deadline stops it (that long, so a starved start of the whole suite still delivers
        // the head and some bytes first).
        try await withServerAndTransport(handler: { _ in .chunked(totalBytes: 1000, chunkSize: 1, interval: .milliseconds(50)) }) { server, transport in
            let environment = liveEnvironment(server.baseURL, timeouts: Timeouts(connect: .seconds(60), read: .seconds(40), total: .seconds(45)))
            let (error, time) = await elapsed { await failure(of: request(server.url("/drip"), in: environment), through: transport) }
            #expect(error?.code == .timedOut)
            #expect(error?.timeoutPhase == .total)
            #expect(error?.message.hasPrefix("The request to 127.0.0.1:\(server.port) did not finish within 45 s (total deadline). The head (200 OK) arrived after ") == true)
            #expect(time >= .milliseconds(44950) && time < .seconds(45) + atOnce)
            let partial = try #require(error?.partialResponse)
            #expect(partial.status == 200)
            #expect(partial.body.count > 0 && partial.body.count < 1000)
            // The connection was closed, not left dripping.
            try await waitUntil { server.openConnectionCount == 0 }
        }
    }

    @Test func totalDeadlineCoversRedirectsToo() async throws {
        try await withServerAndTransport(handler: { request in
            request.path == "/slow" ? .ok("late").delayed(by: .seconds(5)) : .redirect(to: "/slow")
        }) { server, transport in
            let environment = liveEnvironment(server.baseURL, timeouts: Timeouts(connect: .seconds(60), read: .seconds(60), total: .milliseconds(300)))
            let error = await failure(of: request(server.url("/start"), in: environment), through: transport)
            #expect(error?.timeoutPhase == .total)
        }
    }

    @Test func endpointTimeoutsOverrideTheEnvironmentThroughTheDispatcher() async throws {
        try await withServerAndTransport(handler: { _ in .neverRespond }) { server, transport in
            let environment = liveEnvironment(server.baseURL, timeouts: patientTimeouts)
            let dispatcher = Dispatcher<Target>(environment: environment, transport: transport)
            let target = Target(.get, "/slow", timeouts: Timeouts(read: .milliseconds(200)))
            let (exchange, time) = await elapsed { await dispatcher.send(target) }
            #expect(exchange.error?.kind == .timeout)
            #expect(exchange.error?.transportError?.timeoutPhase == .read)
            #expect(time < atOnce)
        }
    }
}

/// Polls `condition` every 10 ms for up to `timeout`; records an issue when it never holds.
func waitUntil(timeout: Duration = .seconds(60), _ condition: () -> Bool, sourceLocation: SourceLocation = #_sourceLocation) async throws {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("condition did not hold within \(timeout)", sourceLocation: sourceLocation)
            return
        }
        try await Task.sleep(for: .milliseconds(10))
    }
}
