import Dispatch
import AsyncHTTPClient
import DispatcherCore
import NIOCore
import Synchronization

/// Everything AsyncHTTPClient fixes per client: requests that agree on these share a client and its
/// connection pool.
struct ClientKey: Hashable, Sendable {
    /// Verification, CA, client certificate and pins.
    var trust: ServerTrust
    /// The proxy AsyncHTTPClient connects through (a `CONNECT` tunnel, SOCKS); nil: direct.
    var proxy: ProxyServer?
    /// The HTTP proxy plain-http requests go to in absolute form (`GET http://host/path`), as curl
    /// sends them: the client connects to it directly and `RequestTargetWriter` writes the target.
    var forwardingProxy: ProxyServer?
    /// Connect timeout.
    var connect: Duration?
    /// Read (idle) timeout.
    var read: Duration?
}

/// A client and the event loop its connections and callbacks stay on.
struct PooledClient: Sendable {
    /// The client.
    let client: HTTPClient
    /// One loop of the group: requests run their delegate there and prefer connections there, so
    /// callbacks do not hop between threads (a hop a response part). Unlike requiring
    /// the loop for the connection too, this never opens connections beyond the pool's limit.
    let eventLoop: any EventLoop
}

/// Lazily made `HTTPClient`s, one per `ClientKey`, all shut down together.
final class ClientPool: Sendable {
    private struct State {
        var clients: [ClientKey: PooledClient] = [:]
        var isShutDown = false
        /// Who waits for the shutdown under way (nil: none started, or it has ended).
        var waiting: [@Sendable ((any Error)?) -> Void]?
        /// How the shutdown ended, once it has (a later call hears it at once).
        var ended: (any Error)??
    }

    private let state = Mutex(State())
    private let settings: HTTPTransport.Configuration
    /// What the connections see of each request (`TransferTap`).
    let taps = TransferTaps()
    /// Name resolutions timed beside the clients' own.
    let lookups = NameLookups()

    init(settings: HTTPTransport.Configuration) {
        self.settings = settings
    }

    /// The number of clients made so far (and not shut down).
    var count: Int { state.withLock { $0.clients.count } }

    /// The client for `key`, made on first use.
    func client(for key: ClientKey) throws(TransportError) -> PooledClient {
        let result: Result<PooledClient, TransportError> = state.withLock { state in
            if let client = state.clients[key] { return .success(client) }
            guard !state.isShutDown else { return .failure(TransportError(.cancelled, message: "The HTTP transport was shut down.")) }
            do throws(TransportError) {
                let client = PooledClient(
                    client: HTTPClient(eventLoopGroup: settings.loops, configuration: try configuration(for: key)),
                    eventLoop: settings.loops.next())
                state.clients[key] = client
                return .success(client)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Shuts every client down; later requests fail. Safe to call more than once: every call
    /// returns when the one shutdown has ended.
    func shutdown() async throws {
        let error: (any Error)? = await withCheckedContinuation { continuation in
            shutdown { continuation.resume(returning: $0) }
        }
        if let error { throw error }
    }

    /// Shuts every client down and tells `done` when all have ended (the first error, if any),
    /// on a queue of its own: nothing waits on the cooperative pool, which a busy process can hold
    /// (a bounded wait at exit must end on time).
    func shutdown(_ done: @escaping @Sendable ((any Error)?) -> Void) {
        enum Step { case start([HTTPClient]), wait, ended((any Error)?) }
        let step = state.withLock { state -> Step in
            if let ended = state.ended { return .ended(ended) }
            if state.waiting != nil {
                state.waiting?.append(done)
                return .wait
            }
            state.isShutDown = true
            state.waiting = [done]
            defer { state.clients = [:] }
            return .start(state.clients.values.map(\.client))
        }
        guard case .start(let clients) = step else {
            if case .ended(let error) = step { done(error) }
            return
        }
        guard !clients.isEmpty else { return ended(with: nil) }
        let remaining = Countdown(clients.count)
        for client in clients {
            client.shutdown(queue: DispatchQueue(label: "apiexplorer.client-shutdown")) { [self] error in
                if let last = remaining.count(error) { ended(with: last) }
            }
        }
    }

    /// Tells everyone waiting how the shutdown ended, and keeps it for later calls.
    private func ended(with error: (any Error)?) {
        let waiting = state.withLock { state in
            defer { state.waiting = nil }
            state.ended = .some(error)
            return state.waiting ?? []
        }
        for waiter in waiting { waiter(error) }
    }

    /// Counts the clients' shutdowns down, keeping the first error.
    private final class Countdown: Sendable {
        private let state: Mutex<(left: Int, error: (any Error)?)>
        init(_ count: Int) { state = Mutex((count, nil)) }
        /// Counts one; when it was the last, the outcome (`.some(nil)`: all ended well).
        func count(_ error: (any Error)?) -> (any Error)?? {
            state.withLock { state in
                if state.error == nil, let error { state.error = error }
                state.left -= 1
                return state.left == 0 ? .some(state.error) : nil
            }
        }
    }

    deinit {
        // A transport dropped without `shutdown()` must not trip AsyncHTTPClient's leak check.
        for pooled in state.withLock({ $0.clients.values }) { pooled.client.shutdown { _ in } }
    }

    /// The AsyncHTTPClient configuration for a key. Redirects are off (the transport follows them
    /// itself to keep the chain); failed connections are reported at once rather than retried until
    /// the connect timeout (so a refused connection or a pin mismatch shows at once).
    func configuration(for key: ClientKey) throws(TransportError) -> HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration(
            tlsConfiguration: try key.trust.tlsConfiguration(),
            redirectConfiguration: .disallow,
            timeout: HTTPClient.Configuration.Timeout(
                connect: .init(key.connect ?? .seconds(86_400)), read: key.read.map(TimeAmount.init)),
            connectionPool: HTTPClient.Configuration.ConnectionPool(
                idleTimeout: .init(settings.idleConnectionTimeout),
                concurrentHTTP1ConnectionsPerHostSoftLimit: settings.maximumConnectionsPerHost),
            proxy: key.proxy.map(\.asyncHTTPClientProxy),
            // Bodies are decoded by the collector, a bounded piece at a time (ContentDecoder).
            decompression: .disabled)
        configuration.connectionPool.retryConnectionEstablishment = false
        // No distributed tracing: the transport records its own timings. Without a tracer the
        // client makes no span per request (the first one costs several conformance scans).
        configuration.tracing.tracer = nil
        configuration.httpVersion = settings.allowsHTTP2 ? .automatic : .http1Only
        let pins = key.trust.pins.isEmpty ? nil : PinVerifier(pins: key.trust.pins).connectionInitializer
        let forwarding = key.forwardingProxy != nil
        // Every HTTP/1.1 connection gets the status guard and the target writer (after the pin
        // check, when there is one); one to a forwarding proxy writes targets in absolute form.
        // The transfer tap goes on every connection and stream too, for the phases of each request.
        let taps = settings.recordsPhases ? self.taps : nil
        configuration.http1_1ConnectionDebugInitializer = { channel in
            let pinned = pins?(channel) ?? channel.eventLoop.makeSucceededVoidFuture()
            let installed = pinned.flatMapThrowing {
                try ResponseStatusGuard.install(on: channel)
                try RequestTargetWriter.install(on: channel, absoluteForm: forwarding)
            }
            guard let taps else { return installed }
            return installed.flatMap { TransferTap.install(on: channel, taps: taps, httpVersion: "HTTP/1.1") }
        }
        configuration.http2ConnectionDebugInitializer = { channel in
            let pinned = pins?(channel) ?? channel.eventLoop.makeSucceededVoidFuture()
            return taps == nil ? pinned : pinned.flatMap { TransferTap.register(http2: channel) }
        }
        // And every HTTP/2 stream.
        configuration.http2StreamChannelDebugInitializer = { channel in
            channel.eventLoop.makeCompletedFuture {
                try ResponseStatusGuard.install(onStream: channel)
                try RequestTargetWriter.install(onStream: channel)
                if let taps { try TransferTap.install(onStream: channel, taps: taps) }
            }
        }
        return configuration
    }
}

extension ProxyServer {
    /// The AsyncHTTPClient form.
    var asyncHTTPClientProxy: HTTPClient.Configuration.Proxy {
        switch kind {
        case .socks5:
            return .socksServer(host: host, port: port)
        case .http:
            let authorization = username.map { HTTPClient.Authorization.basic(username: $0, password: password ?? "") }
            return .server(host: host, port: port, authorization: authorization)
        }
    }
}

extension TimeAmount {
    /// A duration as a time amount, clamped to what `Int64` nanoseconds hold.
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let limit = Int64.max / 1_000_000_000 - 1
        let clamped = min(max(seconds, -limit), limit)
        self = .nanoseconds(clamped * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
