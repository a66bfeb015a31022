import ArgumentParser
import AsyncHTTPClient
import DispatcherCore
import Foundation
import LiveTransport
import NIOCore
import NIOPosix
import TestSupport

/// A GET through the whole dispatcher and the live transport versus the same GET with bare
/// AsyncHTTPClient, against one local HTTP/1.1 keep-alive server in the same run; then many
/// concurrent requests through the dispatcher, checking the activity count returns to 0.
struct LiveBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "live", abstract: "Live transport overhead versus bare AsyncHTTPClient, and 1,000 concurrent requests.")

    @Option(help: "Sequential requests per side and round.") var requests = 2_000
    @Option(help: "Rounds; the two sides alternate to share any drift.") var rounds = 5
    @Option(help: "Concurrent requests in the load test.") var concurrent = 1_000
    @Option(help: "The environment's cache policy (useProtocol, reloadIgnoringCache …).") var cachePolicy = "useProtocol"
    @Flag(help: "Give the environment no total deadline (measures what the deadline costs).") var withoutTotalDeadline = false

    private static let body = #"{"id":7,"name":"Rex","status":"available","tags":["dog","good"]}"#

    func run() async throws {
        warnIfDebugBuild()
        let server = try await TestHTTPServer.start(recordsRequests: false) { _ in .json(Self.body) }
        let transport = HTTPTransport(configuration: .init(proxy: .none))
        let bare = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: Self.bareConfiguration())
        do {
            try await measure(server: server, transport: transport, bare: bare)
        } catch {
            print("error: \(error)")
        }
        try await bare.shutdown()
        try await transport.shutdown()
        try await server.shutdown()
    }

    private func measure(server: TestHTTPServer, transport: HTTPTransport, bare: HTTPClient) async throws {
        let activity = NetworkActivityPlugin()
        var timeouts = Timeouts.standard
        if withoutTotalDeadline { timeouts.total = nil }
        let environment = Environment(
            name: "bench", baseURL: server.baseURL, cachePolicy: CachePolicy(rawValue: cachePolicy) ?? .useProtocol, fixtures: .never,
            timeouts: timeouts)
        let dispatcher = Dispatcher<Target>(
            environment: environment, transport: transport,
            plugins: [activity, NetworkLoggerPlugin(options: .standard) { _ in }], errorFilter: ErrorFilter())
        let target = Target(.get, "/pets/7", headers: ["Accept": "application/json"])
        var bareRequest = HTTPClientRequest(url: server.url("/pets/7").absoluteString)
        bareRequest.headers = ["Accept": "application/json", "User-Agent": "apiexplorer", "Accept-Encoding": "gzip, deflate"]

        // Warm-up: connections open, code paths hot.
        for _ in 0..<500 {
            _ = try await dispatcher.request(target)
            _ = try await Self.bareGet(bareRequest, with: bare)
        }

        // The dispatcher's own share: the same pipeline over a transport that answers at once.
        let instant = Dispatcher<Target>(
            environment: environment, transport: InstantTransport(body: Data(Self.body.utf8)),
            plugins: [NetworkActivityPlugin(), NetworkLoggerPlugin(options: .standard) { _ in }], errorFilter: ErrorFilter())
        var pipelineOnly = Measurements()
        for _ in 0..<500 { _ = try await instant.request(target) }
        for _ in 0..<(rounds * requests) {
            let start = ContinuousClock.now
            _ = try await instant.request(target)
            pipelineOnly.add((ContinuousClock.now - start).nanoseconds)
        }

        var core = Measurements()
        var transportOnly = Measurements()
        var direct = Measurements()
        let clock = ContinuousClock()
        let plain = Request(
            identifier: "bench", method: .get, url: server.url("/pets/7"), headers: ["Accept": "application/json"],
            settings: TransportSettings(environment: environment))
        for _ in 0..<rounds {
            for _ in 0..<requests {
                let start = clock.now
                _ = try await dispatcher.request(target)
                core.add((clock.now - start).nanoseconds)
            }
            for _ in 0..<requests {
                let start = clock.now
                _ = try await transport.send(plain)
                transportOnly.add((clock.now - start).nanoseconds)
            }
            for _ in 0..<requests {
                let start = clock.now
                _ = try await Self.bareGet(bareRequest, with: bare)
                direct.add((clock.now - start).nanoseconds)
            }
        }
        let ratio = core.median / direct.median
        print("Live transport: sequential GETs of a \(Self.body.utf8.count)-byte JSON body, HTTP/1.1 keep-alive on 127.0.0.1")
        print("  \(rounds) rounds × \(requests) requests per side")
        print("  dispatcher + HTTPTransport (activity + logger plugins, error filter, HTTP cache on):")
        print("    median \(formatNanoseconds(core.median)), p90 \(formatNanoseconds(core.percentile(90))), min \(formatNanoseconds(core.minimum))")
        print("  HTTPTransport.send alone:")
        print("    median \(formatNanoseconds(transportOnly.median)), p90 \(formatNanoseconds(transportOnly.percentile(90))), min \(formatNanoseconds(transportOnly.minimum))")
        print("  the dispatcher pipeline alone (same plugins, a transport that answers at once):")
        print("    median \(formatNanoseconds(pipelineOnly.median)), p90 \(formatNanoseconds(pipelineOnly.percentile(90)))")
        print("  bare AsyncHTTPClient:")
        print("    median \(formatNanoseconds(direct.median)), p90 \(formatNanoseconds(direct.percentile(90))), min \(formatNanoseconds(direct.minimum))")
        print(String(format: "  ratio (median core / median bare): %.3f (aim ≤ 1.10)", ratio))

        let peak = PeakCounter()
        let counted = Dispatcher<Target>(
            environment: environment, transport: transport,
            plugins: [NetworkActivityPlugin { _, count in peak.record(count) }, activity], errorFilter: ErrorFilter())
        let start = clock.now
        let failures = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<concurrent {
                group.addTask { await counted.send(Target(.get, "/pets/\(index)")).error != nil }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        let wall = clock.now - start
        print("Concurrent: \(concurrent) requests through the dispatcher at once")
        print("  wall time \(formatNanoseconds(wall.nanoseconds)), \(failures) failed, peak in flight \(peak.peak), in flight after: \(activity.inFlight)")
    }

    private static func bareGet(_ request: HTTPClientRequest, with client: HTTPClient) async throws -> ByteBuffer {
        let response = try await client.execute(request, timeout: .seconds(30))
        return try await response.body.collect(upTo: 256 << 20)
    }

    /// The transport's client settings, so both sides use the same connection pool.
    private static func bareConfiguration() -> HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow, timeout: .init(connect: .seconds(10), read: .seconds(30)),
            connectionPool: .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 8),
            decompression: .enabled(limit: .size(256 << 20)))
        configuration.connectionPool.retryConnectionEstablishment = false
        return configuration
    }
}

/// Answers every request at once with a fixed JSON body.
private struct InstantTransport: Transport {
    let body: Data
    func send(_ request: Request) async throws(TransportError) -> Response {
        Response(status: 200, headers: Headers([("Content-Type", "application/json")], origin: .server), body: body, url: request.url)
    }
}

/// The highest count reported.
private final class PeakCounter: Sendable {
    private let value = LockedValue(0)
    var peak: Int { value.value }
    func record(_ count: Int) { value.withLock { $0 = max($0, count) } }
}
