import DispatcherCore
import FoundationEssentials
import Synchronization
import TextSupport

/// The in-memory HTTP cache of one environment: the basics of RFC 9111 for a private cache
/// (freshness from `max-age`, `Expires` or a `Last-Modified` heuristic; `no-store`, `no-cache`,
/// `must-revalidate`; `Vary`; revalidation with `ETag` / `Last-Modified`; invalidation by unsafe
/// methods). Bounded by total bytes, least recently used entries go first. Nothing is written to disk.
public final class HTTPCache: Sendable {
    /// How much a cache may hold.
    public struct Limits: Sendable, Hashable {
        /// Bytes of bodies and headers kept in all.
        public var maximumTotalBytes: Int
        /// A larger response is not stored.
        public var maximumEntryBytes: Int

        /// Makes limits.
        public init(maximumTotalBytes: Int, maximumEntryBytes: Int) {
            self.maximumTotalBytes = maximumTotalBytes
            self.maximumEntryBytes = maximumEntryBytes
        }

        /// 64 MiB in all, 16 MiB per response.
        public static let standard = Limits(maximumTotalBytes: 64 << 20, maximumEntryBytes: 16 << 20)
    }

    /// One stored response with what freshness needs.
    struct Entry: Sendable {
        /// The stored response (status, headers, body, URL, version).
        var response: Response
        /// When the request that got it was sent.
        var requestTime: Date
        /// When it arrived.
        var responseTime: Date
        /// The request header values the response varies on (lowercased names).
        var vary: [String: String]
        /// Bytes counted against the limits.
        var size: Int
        /// Recency for eviction.
        var lastUse: UInt64
    }

    private struct Storage {
        var entries: [String: Entry] = [:]
        var totalBytes = 0
        var tick: UInt64 = 0
    }

    /// The limits.
    public let limits: Limits
    private let storage = Mutex(Storage())
    let now: @Sendable () -> Date

    /// Makes an empty cache; `now` is the wall clock freshness is judged by.
    public init(limits: Limits = .standard, now: @escaping @Sendable () -> Date = { Date() }) {
        self.limits = limits
        self.now = now
    }

    /// The number of stored responses.
    package var count: Int { storage.withLock { $0.entries.count } }
    /// The bytes stored.
    package var totalBytes: Int { storage.withLock { $0.totalBytes } }

    /// Whether a response for `url` is stored.
    package func contains(_ url: URL) -> Bool {
        storage.withLock { $0.entries[HTTPCache.key(url)] != nil }
    }

    /// Forgets the response for `url`.
    package func remove(_ url: URL) {
        storage.withLock { storage in
            if let old = storage.entries.removeValue(forKey: HTTPCache.key(url)) { storage.totalBytes -= old.size }
        }
    }

    /// Forgets everything.
    package func removeAll() {
        storage.withLock { $0 = Storage() }
    }

    // MARK: Internal operations used by the transport

    /// The stored response for `url` whose `Vary` fields match `requestHeaders`.
    func entry(for url: URL, requestHeaders: Headers) -> Entry? {
        storage.withLock { storage in
            let key = HTTPCache.key(url)
            guard var entry = storage.entries[key], entry.matches(requestHeaders) else { return nil }
            storage.tick += 1
            entry.lastUse = storage.tick
            storage.entries[key] = entry
            return entry
        }
    }

    /// Stores `response` for a GET of `url` when RFC 9111 allows; returns whether it did.
    @discardableResult
    func store(
        _ response: Response, for url: URL, requestHeaders: Headers, requestTime: Date, responseTime: Date
    ) -> Bool {
        guard HTTPCache.isStorable(response, requestHeaders: requestHeaders) else {
            remove(url)
            return false
        }
        let vary = HTTPCache.varyFields(of: response, requestHeaders: requestHeaders)
        var entry = Entry(
            response: response, requestTime: requestTime, responseTime: responseTime, vary: vary,
            size: HTTPCache.size(of: response), lastUse: 0)
        guard entry.size <= limits.maximumEntryBytes, entry.size <= limits.maximumTotalBytes else {
            remove(url)
            return false
        }
        storage.withLock { storage in
            let key = HTTPCache.key(url)
            if let old = storage.entries.removeValue(forKey: key) { storage.totalBytes -= old.size }
            while storage.totalBytes + entry.size > limits.maximumTotalBytes,
                let oldest = storage.entries.min(by: { $0.value.lastUse < $1.value.lastUse })
            {
                storage.entries.removeValue(forKey: oldest.key)
                storage.totalBytes -= oldest.value.size
            }
            storage.tick += 1
            entry.lastUse = storage.tick
            storage.entries[key] = entry
            storage.totalBytes += entry.size
        }
        return true
    }

    /// Applies a 304 to the stored entry (RFC 9111 §4.3.4): its header fields replace the stored
    /// ones of the same name, and the entry's age starts again. Returns the updated entry.
    func refresh(
        _ entry: Entry, for url: URL, with notModified: Response, requestHeaders: Headers, requestTime: Date, responseTime: Date
    ) -> Entry {
        var updated = entry
        for name in Set(notModified.headers.map { $0.name.lowercased() }) where !HTTPCache.keptOn304.contains(name) {
            updated.response.headers.remove(name)
            for value in notModified.headers.values(for: name) { updated.response.headers.add(name, value, origin: .server) }
        }
        updated.requestTime = requestTime
        updated.responseTime = responseTime
        if store(updated.response, for: url, requestHeaders: requestHeaders, requestTime: requestTime, responseTime: responseTime),
            let stored = storage.withLock({ $0.entries[HTTPCache.key(url)] })
        {
            return stored
        }
        return updated
    }

    /// Drops the entry for `url` after an unsafe method changed the resource (RFC 9111 §4.4).
    func invalidate(_ url: URL) {
        remove(url)
    }

    // MARK: Rules

    /// Statuses a cache may store without explicit freshness (RFC 9110 §15.1).
    static let heuristicallyCacheable: Set<Int> = [200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501]
    /// Fields a 304 never replaces: they describe the 304 itself, not the stored body.
    private static let keptOn304: Set<String> = ["content-length", "content-encoding", "transfer-encoding", "connection", "content-range"]

    /// Whether a response to a GET may be stored (RFC 9111 §3).
    static func isStorable(_ response: Response, requestHeaders: Headers) -> Bool {
        guard !CacheControl(requestHeaders).noStore else { return false }
        // Only a whole body is an answer to serve again (not one that streamed past or went to a file).
        guard !response.isTruncated, response.streamedByteCount == nil, response.downloadedFile == nil else { return false }
        let control = CacheControl(response.headers)
        guard !control.noStore, response.status >= 200, response.status != 206, response.status != 304 else { return false }
        if response.headers.values(for: "Vary").contains(where: { $0.contains("*") }) { return false }
        return heuristicallyCacheable.contains(response.status) || control.maxAge != nil
            || response.headers.contains("Expires") || control.isPublic
    }

    /// The request values a response varies on.
    static func varyFields(of response: Response, requestHeaders: Headers) -> [String: String] {
        var fields: [String: String] = [:]
        for value in response.headers.values(for: "Vary") {
            for name in value.split(separator: ",") {
                let field = name.trimmedSpaces.lowercased()
                guard !field.isEmpty else { continue }
                fields[field] = requestHeaders.values(for: field).joined(separator: ", ")
            }
        }
        return fields
    }

    static func key(_ url: URL) -> String {
        let text = url.absoluteString
        guard let hash = text.firstIndex(of: "#") else { return text }
        return String(text[..<hash])
    }

    static func size(of response: Response) -> Int {
        response.headers.reduce(response.body.count + 64) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
    }
}

extension HTTPCache.Entry {
    /// Whether the request's values of the `Vary` fields equal the stored ones.
    func matches(_ requestHeaders: Headers) -> Bool {
        vary.allSatisfy { name, value in requestHeaders.values(for: name).joined(separator: ", ") == value }
    }

    /// The response's own directives.
    var control: CacheControl { CacheControl(response.headers) }

    /// Whether the response can be revalidated with a conditional request.
    var hasValidators: Bool { response.headers.contains("ETag") || response.headers.contains("Last-Modified") }

    /// How long the response is fresh (RFC 9111 §4.2.1), in seconds.
    var freshnessLifetime: TimeInterval {
        let control = self.control
        if let maxAge = control.maxAge { return TimeInterval(maxAge) }
        let date = response.headers["Date"].flatMap(HTTPDate.parse) ?? responseTime
        if let expires = response.headers["Expires"] {
            // An invalid Expires (often "0") means already expired.
            return HTTPDate.parse(expires).map { max(0, $0.timeIntervalSince(date)) } ?? 0
        }
        if HTTPCache.heuristicallyCacheable.contains(response.status),
            let lastModified = response.headers["Last-Modified"].flatMap(HTTPDate.parse)
        {
            // RFC 9111 §4.2.2: a tenth of the time since the last change, at most a day here.
            return min(max(0, date.timeIntervalSince(lastModified)) / 10, 86_400)
        }
        return 0
    }

    /// The response's age now (RFC 9111 §4.2.3), in seconds.
    func currentAge(at now: Date) -> TimeInterval {
        let ageValue = response.headers["Age"].flatMap(CacheControl.deltaSeconds).map(TimeInterval.init) ?? 0
        let date = response.headers["Date"].flatMap(HTTPDate.parse) ?? responseTime
        let apparentAge = max(0, responseTime.timeIntervalSince(date))
        let responseDelay = max(0, responseTime.timeIntervalSince(requestTime))
        let correctedInitialAge = max(apparentAge, ageValue + responseDelay)
        return correctedInitialAge + max(0, now.timeIntervalSince(responseTime))
    }

    /// Whether the stored response may be used without asking the server, given the request's directives.
    func isUsableWithoutValidation(at now: Date, request: CacheControl) -> Bool {
        let control = self.control
        guard !control.noCache, !request.noCache else { return false }
        let age = currentAge(at: now)
        let lifetime = freshnessLifetime
        if let maxAge = request.maxAge, age > TimeInterval(maxAge) { return false }
        if age + TimeInterval(request.minFresh ?? 0) < lifetime { return true }
        // Stale: only when the request accepts that much staleness and the response allows it.
        guard let maxStale = request.maxStale, !control.mustRevalidate else { return false }
        return maxStale == Int.max || age - lifetime <= TimeInterval(maxStale)
    }
}
