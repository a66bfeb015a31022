import DispatcherCore
import Foundation
import LiveTransport
import TestSupport
import Testing
import TestTraits

/// The connections a transport keeps per host (issue 49, item 2): sized from `--jobs`, a request
/// that waited for one to free is not called a connect timeout, and an exit does not wait for
/// connection attempts no request needs.
@Suite("Connection pool", .offPool)
struct ConnectionPoolTests {
    @Test func connectionsFollowTheJobsWithinTheDefaultAndTheCap() {
        typealias Configuration = HTTPTransport.Configuration
        #expect(Configuration.connections(forJobs: 1) == Configuration.defaultConnectionsPerHost)
        #expect(Configuration.connections(forJobs: 50) == 50)
        #expect(Configuration.connections(forJobs: 500) == Configuration.connectionsPerHostCap)
    }

    @Test func waitingForABusyConnectionIsReportedAsAWaitNotAConnectTimeout() async throws {
        let release = LockedValue(false)
        try await withServerAndTransport(handler: { request in
            guard request.path == "/hold" else { return .ok("quick") }
            // Holds its connection until the test has seen the second request give up (or the
            // server stops: a cancelled sleep returns at once, so the loop must not spin on).
            while !release.withLock({ $0 }), !Task.isCancelled { try? await Task.sleep(for: .milliseconds(10)) }
            return .ok("held")
        }, configure: { $0.maximumConnectionsPerHost = 1 }) { server, transport in
            let environment = liveEnvironment(server.baseURL, timeouts: Timeouts(connect: .milliseconds(300), read: .seconds(60), total: .seconds(120)))
            let held = Task { try await transport.send(request(server.url("/hold"), in: environment)) }
            defer { release.withLock { $0 = true } }
            try await server.waitForRequests(count: 1)
            let error = await failure(of: request(server.url("/next"), in: environment), through: transport)
            #expect(error?.code == .timedOut)
            #expect(error?.timeoutPhase == .connectionWait)
            #expect(
                error?.message == "No connection to 127.0.0.1:\(server.port) became free within 300 ms: all 1 connections the transport keeps to it "
                    + "were busy with other requests (it waited for one; no connection attempt failed).")
            release.withLock { $0 = true }
            #expect(try await held.value.text == "held")
            // Only the held request reached the server: the other one waited, it was never sent.
            #expect(server.requestCount == 1)
        }
    }

    @Test func anExitDoesNotWaitForAConnectionAttemptNoRequestNeeds() async throws {
        let blackhole = try BlackholeServer.start()
        defer { blackhole.shutdown() }
        try await TestEventLoops.withOwnLoop { loop in
            let transport = HTTPTransport(configuration: HTTPTransport.Configuration(proxy: .none, eventLoopGroup: loop))
            let url = URL(string: "http://127.0.0.1:\(blackhole.port)/")!
            // Connects that hang for 10 s; the request is given up (cancelled) at once.
            let environment = liveEnvironment(url, timeouts: Timeouts(connect: .seconds(10), read: .seconds(60), total: .seconds(120)))
            let sending = Task { try await transport.send(request(url, in: environment)) }
            try await Task.sleep(for: .milliseconds(50))
            sending.cancel()
            _ = try? await sending.value
            let (_, time) = await elapsed { await transport.shutdown(waitingAtMost: .milliseconds(100)) }
            // A full shutdown waits for the attempt (up to its 10 s); the bounded one does not.
            #expect(time < .seconds(8), "the exit waited \(time) for a connection attempt nothing needed")
            // The full one still ends, once the attempt has.
            try? await transport.shutdown()
        }
    }
}
