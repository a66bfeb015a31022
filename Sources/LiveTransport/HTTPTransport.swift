import DispatcherCore
import FoundationEssentials
import NIOCore
import Synchronization

/// Live HTTP for the dispatcher, over AsyncHTTPClient.
///
/// One `HTTPClient` per trust configuration (pins, CA, client certificate, insecure flag) together
/// with the other settings AsyncHTTPClient fixes per client (proxy, connect/read timeouts, the
/// decompression limit), made on first use and shut down by `shutdown()`. Redirects are followed
/// here so the chain can be shown; an in-memory HTTP cache per environment serves the request's
/// cache policy. `request.options.progress` is called as body bytes arrive, on a networking thread
/// (hop to your UI from there). Call `shutdown()` before the program exits.
public final class HTTPTransport: Transport {
    /// The configuration given at creation.
    public let configuration: Configuration
    let clients: ClientPool
    private let caches = Mutex<[String: HTTPCache]>([:])

    /// Makes a transport; nothing is connected until the first request.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        clients = ClientPool(settings: configuration)
    }

    /// Sends `request` (following redirects, using the environment's cache) and returns the final response.
    public func send(_ request: Request) async throws(TransportError) -> Response {
        if Task.isCancelled { throw TransportError(.cancelled) }
        if let conversation = request.options.webSocket {
            return try await WebSocketConnector(group: configuration.loops).converse(request, conversation)
        }
        return try await follow(request, started: .now)
    }

    /// Shuts every HTTP client down; requests sent afterwards fail with `cancelled`. Idempotent.
    public func shutdown() async throws {
        try await clients.shutdown()
    }

    /// The HTTP cache of the environment named `environmentName` (made on first use).
    public func cache(for environmentName: String) -> HTTPCache {
        caches.withLock { caches in
            if let cache = caches[environmentName] { return cache }
            let cache = HTTPCache(limits: configuration.cacheLimits, now: configuration.now)
            caches[environmentName] = cache
            return cache
        }
    }

    /// Empties every environment's cache.
    public func removeAllCachedResponses() {
        for cache in caches.withLock({ Array($0.values) }) { cache.removeAll() }
    }

    /// How many `HTTPClient`s exist now (one per trust configuration and client settings in use).
    package var clientCount: Int { clients.count }

    /// Shuts every HTTP client down, waiting at most `limit` for it: what a program about to exit
    /// calls. A connection attempt no request needs any more (to a server whose listen queue drops
    /// SYNs, say) would otherwise hold the exit until it connects or its connect timeout fires.
    package func shutdown(waitingAtMost limit: Duration) async {
        let clients = self.clients
        let timer = configuration.loops.next()
        // Both ends are told off the cooperative pool (a queue, an event loop), so a busy process
        // still leaves on time.
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumed = Mutex(false)
            let resume: @Sendable () -> Void = {
                if resumed.withLock({ done in defer { done = true }; return !done }) { continuation.resume() }
            }
            let deadline = timer.scheduleTask(in: TimeAmount(limit)) { resume() }
            clients.shutdown { _ in
                deadline.cancel()
                resume()
            }
        }
    }

    func failureContext(for url: URL, request: Request) -> FailureContext {
        var context = FailureContext(url: url, timeouts: request.settings.timeouts, proxy: configuration.proxy.server(for: url))
        context.connectionLimit = configuration.maximumConnectionsPerHost
        return context
    }
}
