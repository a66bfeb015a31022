import Testing
import DispatcherCore
import Foundation
import LiveTransport
import Synchronization
import TestSupport

/// A transport without proxies (tests talk to 127.0.0.1 only), shut down after `body`. Its event
/// loop is its own: other tests' busy loops must not hold its timers and reads back.
func withTransport<Result>(
    _ configure: (inout HTTPTransport.Configuration) -> Void = { _ in },
    _ body: (HTTPTransport) async throws -> Result
) async throws -> Result {
    try await TestEventLoops.withOwnLoop { loop in
        var configuration = HTTPTransport.Configuration(proxy: .none, eventLoopGroup: loop)
        configure(&configuration)
        let transport = HTTPTransport(configuration: configuration)
        return try await withShutdown { try await body(transport) } shutdown: { try await transport.shutdown() }
    }
}

/// A server and a transport for one test, both shut down afterwards.
func withServerAndTransport<Result>(
    tls: TestServerTLS? = nil,
    handler: @escaping TestHTTPServer.Handler,
    configure: (inout HTTPTransport.Configuration) -> Void = { _ in },
    _ body: (TestHTTPServer, HTTPTransport) async throws -> Result
) async throws -> Result {
    try await withTestHTTPServer(tls: tls, handler: handler) { server in
        try await withTransport(configure) { transport in try await body(server, transport) }
    }
}

/// An environment for a test server, live mode, each test with its own name (so its own cache).
func liveEnvironment(
    _ baseURL: URL, name: String = "env-\(UUID().uuidString)", cachePolicy: CachePolicy = .reloadIgnoringCache,
    trust: ServerTrust = ServerTrust(), timeouts: Timeouts = patientTimeouts,
    retry: RetryPolicy? = nil, redirects: RedirectPolicy = RedirectPolicy(), maximumBodySize: Int = Environment.defaultMaximumBodySize
) -> Environment {
    Environment(
        name: name, baseURL: baseURL, cachePolicy: cachePolicy, fixtures: .never, trust: trust, timeouts: timeouts,
        retry: retry, redirects: redirects, maximumBodySize: maximumBodySize)
}

/// A request as the dispatcher would hand it to the transport.
func request(
    _ url: URL, _ method: DispatcherCore.HTTPMethod = .get, in environment: Environment, headers: Headers = Headers(),
    body: Data? = nil, options: RequestOptions = RequestOptions()
) -> Request {
    Request(
        identifier: "\(method.rawValue) \(url.path)", method: method, url: url, headers: headers, body: body,
        settings: TransportSettings(environment: environment), options: options)
}

/// The trust of an environment whose CA is the test CA.
let testCATrust = ServerTrust(certificateAuthority: TestCertificates.ca.certificateURL)

/// Sends and returns the transport error, or records an issue when it succeeded.
func failure(of request: Request, through transport: HTTPTransport) async -> TransportError? {
    do {
        let response = try await transport.send(request)
        Issue.recordSuccess(response)
        return nil
    } catch {
        return error
    }
}

extension Issue {
    /// Records that a request expected to fail succeeded.
    static func recordSuccess(_ response: Response) {
        Issue.record("expected a failure, got \(response.status) with \(response.body.count) bytes")
    }
}

/// Timeouts a starved machine does not reach by accident, for tests about something else. Plain
/// `swift test` runs ~1,000 tests at once, on 2 cores perhaps with other builds beside it: a
/// server's answer can wait seconds for a thread.
let patientTimeouts = Timeouts(connect: .seconds(60), read: .seconds(60), total: .seconds(120))

/// Measures how long `body` takes.
func elapsed<T>(_ body: () async throws -> T) async rethrows -> (T, Duration) {
    let start = ContinuousClock.now
    let value = try await body()
    return (value, ContinuousClock.now - start)
}

extension LockedValue where Value == Int {
    /// Adds one and returns the new count (a server handler counting its hits).
    func increment() -> Int {
        withLock { value in
            value += 1
            return value
        }
    }
}
