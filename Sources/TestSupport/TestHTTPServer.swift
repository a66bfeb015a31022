import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// A real HTTP server on 127.0.0.1 for tests: HTTP/1.1, or HTTPS offering h2 and HTTP/1.1 by ALPN.
///
/// Every request is read completely, recorded, and handed to the test's handler, whose
/// `TestResponse` decides what goes on the wire, including misbehaviour (stalls, truncation,
/// resets, slow drips). Call `shutdown()` when done, or use `withTestHTTPServer`.
package final class TestHTTPServer: Sendable {
    /// Chooses the response for one request; runs concurrently for concurrent requests.
    package typealias Handler = @Sendable (TestRequest) async -> TestResponse

    /// The port the server listens on (127.0.0.1).
    package let port: Int
    /// `http://127.0.0.1:<port>` or `https://127.0.0.1:<port>`.
    package let baseURL: URL
    /// Whether the server speaks TLS.
    package let isTLS: Bool

    private let serverChannel: Channel
    private let state: TestServerState
    private let jobs: AsyncStream<ResponseJob>.Continuation
    private let runner: Task<Void, Never>

    private init(
        serverChannel: Channel, port: Int, isTLS: Bool, state: TestServerState,
        jobs: AsyncStream<ResponseJob>.Continuation, runner: Task<Void, Never>
    ) {
        self.serverChannel = serverChannel
        self.port = port
        self.isTLS = isTLS
        self.state = state
        self.jobs = jobs
        self.runner = runner
        let scheme = isTLS ? "https" : "http"
        // A scheme, an IPv4 literal and a port always form a valid URL.
        self.baseURL = URL(string: "\(scheme)://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/")
    }

    /// Starts a server on 127.0.0.1 (`port` 0 picks a free one; a fixed port lets a test
    /// restart a server where clients expect it), with TLS when `tls` is given.
    /// `recordsRequests: false` only counts requests (for benchmarks sending millions).
    package static func start(
        tls: TestServerTLS? = nil, port: Int = 0, recordsRequests: Bool = true, handler: @escaping Handler
    ) async throws -> TestHTTPServer {
        let sslContext = try tls?.makeContext()
        let state = TestServerState(recordsRequests: recordsRequests)
        let (stream, jobs) = AsyncStream.makeStream(of: ResponseJob.self)
        // Handlers run on threads of their own: a busy cooperative pool must not delay answers.
        let runner = Task(executorPreference: DedicatedExecutor.servers) {
            await withDiscardingTaskGroup { group in
                for await job in stream { group.addTask { await job.run() } }
            }
        }
        let pipeline = TestServerPipeline(state: state, sslContext: sslContext, jobs: jobs, handler: handler)
        do {
            let channel = try await ServerBootstrap(group: TestEventLoops.servers)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
                .childChannelInitializer { pipeline.configure($0) }
                .bind(host: "127.0.0.1", port: port)
                .get()
            guard let boundPort = channel.localAddress?.port else {
                try? await channel.close()
                throw TestServerError.noLocalAddress
            }
            return TestHTTPServer(
                serverChannel: channel, port: boundPort, isTLS: tls != nil, state: state, jobs: jobs, runner: runner
            )
        } catch {
            jobs.finish()
            runner.cancel()
            throw error
        }
    }

    /// The URL of `pathAndQuery` (e.g. `"/items?page=2"`) on this server.
    package func url(_ pathAndQuery: String) -> URL {
        URL(string: baseURL.absoluteString + pathAndQuery) ?? baseURL.appendingPathComponent(pathAndQuery)
    }

    /// Every request read so far, in completion order (empty when started with `recordsRequests: false`).
    package var requests: [TestRequest] { state.requests }
    /// The number of requests read so far.
    package var requestCount: Int { state.requestCount }
    /// The most recent request, if any.
    package var lastRequest: TestRequest? { state.requests.last }
    /// The number of TCP connections accepted so far.
    package var connectionCount: Int { state.connectionCount }
    /// The number of TCP connections open right now.
    package var openConnectionCount: Int { state.openConnectionCount }
    /// The number of completed TLS handshakes so far (0 without TLS).
    package var tlsHandshakeCount: Int { state.tlsHandshakeCount }

    /// Waits until at least `count` requests were read and returns them; throws on `timeout`.
    @discardableResult
    package func waitForRequests(count: Int, timeout: Duration = .seconds(60)) async throws -> [TestRequest] {
        let state = self.state
        let reached = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await state.waitForRequests(count)
                return true
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        let arrived = state.requestCount
        guard reached, arrived >= count else {
            throw TestServerError.timedOut("waiting for \(count) requests; \(arrived) arrived within \(timeout)")
        }
        return state.requests
    }

    /// Stops listening, drops every connection at once (hung ones included), cancels pending
    /// handlers and waits for all of it. Safe to call more than once.
    package func shutdown() async throws {
        try? await serverChannel.close()
        guard let connections = state.beginShutdown() else { return }
        for connection in connections { connection.abort() }
        jobs.finish()
        runner.cancel()
        await runner.value
        for connection in connections { try? await connection.channel.closeFuture.get() }
    }

    deinit {
        // A test that forgot `shutdown()` still must not leak a listening socket or hung connections.
        guard let connections = state.beginShutdown() else { return }
        serverChannel.close(promise: nil)
        connections.forEach { $0.abort() }
        jobs.finish()
        runner.cancel()
    }
}

/// Runs `body` with a started server and always shuts it down afterwards.
@discardableResult
package func withTestHTTPServer<Result>(
    tls: TestServerTLS? = nil,
    handler: @escaping TestHTTPServer.Handler,
    _ body: (TestHTTPServer) async throws -> Result
) async throws -> Result {
    let server = try await TestHTTPServer.start(tls: tls, handler: handler)
    return try await withShutdown { try await body(server) } shutdown: { try await server.shutdown() }
}
