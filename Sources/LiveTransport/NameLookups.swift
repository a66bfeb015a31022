import NIOCore
import NIOPosix
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Times name resolution, which AsyncHTTPClient does out of sight (inside NIO's connect).
///
/// When a request starts, the host is resolved with the system resolver on NIO's blocking pool,
/// beside (not before) the client's own lookup: the figure is what the resolver took for this name
/// just then, and the request is not delayed by it. A name timed in the last minute is not asked
/// again (curl keeps its resolutions as long), so a run of requests costs one lookup per host; an
/// address written as such (`127.0.0.1`, `[::1]`) takes none.
final class NameLookups: Sendable {
    /// A lookup under way; `duration` is set once it ended.
    final class Pending: Sendable {
        private let result = Mutex<Duration?>(nil)
        /// How long it took, once it has ended.
        var duration: Duration? { result.withLock { $0 } }
        func end(_ duration: Duration) { result.withLock { $0 = duration } }
    }

    /// How long a figure is kept.
    static let kept: Duration = .seconds(60)
    private let recent = Mutex<[String: (at: ContinuousClock.Instant, pending: Pending)]>([:])

    /// Starts timing the resolution of `host` (or reuses a recent figure).
    func start(_ host: String, on loop: any EventLoop) -> Pending {
        let now = ContinuousClock.now
        let (pending, isNew) = recent.withLock { recent -> (Pending, Bool) in
            if let entry = recent[host], entry.at.duration(to: now) < Self.kept { return (entry.pending, false) }
            let pending = Pending()
            if recent.count > 256 { recent.removeAll() }
            recent[host] = (now, pending)
            return (pending, true)
        }
        guard isNew else { return pending }
        if Self.isAddress(host) {
            pending.end(.zero)
            return pending
        }
        _ = NIOThreadPool.singleton.runIfActive(eventLoop: loop) {
            let started = ContinuousClock.now
            var hints = addrinfo()
            #if canImport(Glibc)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            #else
            hints.ai_socktype = SOCK_STREAM
            #endif
            var info: UnsafeMutablePointer<addrinfo>?
            if getaddrinfo(host, nil, &hints, &info) == 0, let info { freeaddrinfo(info) }
            pending.end(started.duration(to: .now))
        }
        return pending
    }

    /// Whether `host` is an IPv4 or IPv6 address rather than a name.
    static func isAddress(_ host: String) -> Bool {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return (try? SocketAddress(ipAddress: bare, port: 0)) != nil
    }
}
