import FoundationEssentials
import NIOCore
import NIOPosix

extension HTTPTransport {
    /// What stays the same for every request of a transport. Per-request settings (timeouts,
    /// trust, cache policy, redirects, body cap) come with each request from its environment.
    public struct Configuration: Sendable {
        /// Proxies; by default read from the process environment like curl.
        public var proxy: ProxyConfiguration
        /// Use HTTP/2 when a TLS server offers it (ALPN); false speaks HTTP/1.1 only.
        public var allowsHTTP2: Bool
        /// How long an idle connection stays open for reuse.
        public var idleConnectionTimeout: Duration
        /// Most HTTP/1.1 connections per host and client; further requests wait for one (for as
        /// long as their connect timeout, then fail as `timedOut` in the `connectionWait` phase).
        /// `test --jobs N` sizes it from N (`connections(forJobs:)`).
        public var maximumConnectionsPerHost: Int
        /// Limits of each environment's in-memory HTTP cache.
        public var cacheLimits: HTTPCache.Limits
        /// The wall clock the caches judge freshness by (tests move it by hand).
        public var now: @Sendable () -> Date
        /// Sent as `User-Agent` when the request has none; nil sends none.
        public var userAgent: String?
        /// Sent as `Accept-Encoding` when the request has none (the transport decodes these codings).
        public var acceptEncoding: String?
        /// The event loops connections run on; nil is NIO's shared group, whose threads start with the
        /// first live request (not at launch, where starting them delays the first frame).
        public var eventLoopGroup: (any EventLoopGroup)?
        /// Whether each response carries its phases (`Response.transfer`): a handler on every
        /// connection, a name lookup timed beside the client's. Off, neither runs (what the
        /// benchmark compares against).
        package var recordsPhases = true

        /// Makes a configuration.
        public init(
            proxy: ProxyConfiguration = .fromEnvironment(),
            allowsHTTP2: Bool = true,
            idleConnectionTimeout: Duration = .seconds(60),
            maximumConnectionsPerHost: Int = 8,  // defaultConnectionsPerHost
            cacheLimits: HTTPCache.Limits = .standard,
            now: @escaping @Sendable () -> Date = { Date() },
            userAgent: String? = "apiexplorer",
            acceptEncoding: String? = "gzip, deflate",
            eventLoopGroup: (any EventLoopGroup)? = nil
        ) {
            self.proxy = proxy
            self.allowsHTTP2 = allowsHTTP2
            self.idleConnectionTimeout = idleConnectionTimeout
            self.maximumConnectionsPerHost = maximumConnectionsPerHost
            self.cacheLimits = cacheLimits
            self.now = now
            self.userAgent = userAgent
            self.acceptEncoding = acceptEncoding
            self.eventLoopGroup = eventLoopGroup
        }

        /// The default of `maximumConnectionsPerHost`.
        package static let defaultConnectionsPerHost = 8
        /// The most connections per host any configuration asks for: a run of many jobs opens no
        /// more than this to one server.
        package static let connectionsPerHostCap = 64

        /// The connections per host for `jobs` requests in flight at once: each gets one, at least
        /// the default and at most the cap.
        package static func connections(forJobs jobs: Int) -> Int {
            min(max(jobs, defaultConnectionsPerHost), connectionsPerHostCap)
        }

        /// The event loops in use: the given group, else NIO's shared one.
        var loops: any EventLoopGroup { eventLoopGroup ?? MultiThreadedEventLoopGroup.singleton }
    }
}
