import DispatcherCore
import Foundation
@testable import LiveTransport
import Testing
import TestTraits

/// RFC 9111 rules as pure functions, without a server.
@Suite("Cache rules", .offPool)
struct CacheRulesTests {
    let t0 = Date(timeIntervalSince1970: 1_700_000_000)

    func entry(_ headers: [(String, String)], status: Int = 200, requestTime: Date? = nil, responseTime: Date? = nil) -> HTTPCache.Entry {
        HTTPCache.Entry(
            response: Response(status: status, headers: Headers(headers, origin: .server), body: Data("x".utf8)),
            requestTime: requestTime ?? t0, responseTime: responseTime ?? t0, vary: [:], size: 1, lastUse: 0)
    }

    @Test func directivesAreParsedWithQuotesAndCase() {
        let control = CacheControl(Headers([("Cache-Control", #"Max-Age=60, no-cache="Set-Cookie, X", must-revalidate"#), ("cache-control", "max-stale")], origin: .server))
        #expect(control.maxAge == 60)
        #expect(control.noCache)
        #expect(control.mustRevalidate)
        #expect(control.maxStale == Int.max)
        #expect(!control.noStore)
        #expect(CacheControl(Headers([("Pragma", "no-cache")], origin: .server)).noCache)
        #expect(CacheControl.deltaSeconds("99999999999999999999") == Int(Int32.max))
        #expect(CacheControl.deltaSeconds("-1") == nil)
    }

    @Test func freshnessComesFromMaxAgeThenExpiresThenLastModified() {
        #expect(entry([("Cache-Control", "max-age=100"), ("Expires", "Thu, 01 Jan 2099 00:00:00 GMT")]).freshnessLifetime == 100)
        let date = HTTPDate.format(t0)
        let expires = HTTPDate.format(t0.addingTimeInterval(300))
        #expect(entry([("Date", date), ("Expires", expires)]).freshnessLifetime == 300)
        #expect(entry([("Expires", "0")]).freshnessLifetime == 0)
        let lastModified = HTTPDate.format(t0.addingTimeInterval(-10_000))
        #expect(entry([("Date", date), ("Last-Modified", lastModified)]).freshnessLifetime == 1000)
        #expect(entry([("Last-Modified", lastModified)], status: 201).freshnessLifetime == 0)
        #expect(entry([]).freshnessLifetime == 0)
    }

    @Test func ageCountsTheAgeHeaderTheDelayAndTimeInTheCache() {
        let stored = entry([("Age", "30"), ("Date", HTTPDate.format(t0))], requestTime: t0, responseTime: t0.addingTimeInterval(2))
        // max(apparent 2, 30 + delay 2) + resident 10
        #expect(stored.currentAge(at: t0.addingTimeInterval(12)) == 42)
    }

    @Test func usabilityFollowsRequestAndResponseDirectives() {
        let fresh = entry([("Cache-Control", "max-age=60")])
        let at = t0.addingTimeInterval(30)
        #expect(fresh.isUsableWithoutValidation(at: at, request: CacheControl(Headers())))
        #expect(!fresh.isUsableWithoutValidation(at: at, request: CacheControl(Headers([("Cache-Control", "no-cache")], origin: .endpoint))))
        #expect(!fresh.isUsableWithoutValidation(at: at, request: CacheControl(Headers([("Cache-Control", "max-age=10")], origin: .endpoint))))
        #expect(!fresh.isUsableWithoutValidation(at: at, request: CacheControl(Headers([("Cache-Control", "min-fresh=40")], origin: .endpoint))))
        let stale = t0.addingTimeInterval(90)
        #expect(!fresh.isUsableWithoutValidation(at: stale, request: CacheControl(Headers())))
        #expect(fresh.isUsableWithoutValidation(at: stale, request: CacheControl(Headers([("Cache-Control", "max-stale=60")], origin: .endpoint))))
        let strict = entry([("Cache-Control", "max-age=60, must-revalidate")])
        #expect(!strict.isUsableWithoutValidation(at: stale, request: CacheControl(Headers([("Cache-Control", "max-stale")], origin: .endpoint))))
        #expect(!entry([("Cache-Control", "no-cache, max-age=60")]).isUsableWithoutValidation(at: at, request: CacheControl(Headers())))
    }

    @Test func storabilityRules() {
        func storable(_ status: Int, _ headers: [(String, String)], request: [(String, String)] = []) -> Bool {
            HTTPCache.isStorable(
                Response(status: status, headers: Headers(headers, origin: .server)), requestHeaders: Headers(request, origin: .endpoint))
        }
        #expect(storable(200, []))
        #expect(storable(404, []))
        #expect(!storable(201, []))
        #expect(storable(201, [("Cache-Control", "max-age=5")]))
        #expect(!storable(200, [("Cache-Control", "no-store")]))
        #expect(!storable(200, [], request: [("Cache-Control", "no-store")]))
        #expect(!storable(206, [("Cache-Control", "max-age=5")]))
        #expect(!storable(200, [("Vary", "*")]))
    }

    @Test func theCacheIsBoundedAndEvictsTheLeastRecentlyUsed() {
        let cache = HTTPCache(limits: HTTPCache.Limits(maximumTotalBytes: 3000, maximumEntryBytes: 1500), now: { self.t0 })
        func store(_ path: String, size: Int) -> Bool {
            cache.store(
                Response(status: 200, body: Data(count: size)), for: URL(string: "http://h\(path)")!, requestHeaders: Headers(),
                requestTime: t0, responseTime: t0)
        }
        #expect(store("/a", size: 1000))
        #expect(store("/b", size: 1000))
        _ = cache.entry(for: URL(string: "http://h/a")!, requestHeaders: Headers())  // a is now more recent than b
        #expect(store("/c", size: 1000))
        #expect(cache.contains(URL(string: "http://h/a")!))
        #expect(!cache.contains(URL(string: "http://h/b")!))
        #expect(cache.contains(URL(string: "http://h/c")!))
        #expect(cache.totalBytes <= 3000)
        #expect(!store("/huge", size: 2000))
        cache.removeAll()
        #expect(cache.count == 0 && cache.totalBytes == 0)
    }

    @Test func a304RefreshesHeadersButNotTheBodyDescription() {
        let cache = HTTPCache(now: { self.t0 })
        let url = URL(string: "http://h/doc")!
        let original = Response(
            status: 200, headers: Headers([("ETag", "\"1\""), ("Content-Length", "1"), ("Cache-Control", "max-age=1"), ("X-Old", "o")], origin: .server),
            body: Data("x".utf8))
        cache.store(original, for: url, requestHeaders: Headers(), requestTime: t0, responseTime: t0)
        let stored = cache.entry(for: url, requestHeaders: Headers())!
        let notModified = Response(status: 304, headers: Headers([("Cache-Control", "max-age=100"), ("Content-Length", "0")], origin: .server))
        let later = t0.addingTimeInterval(50)
        let refreshed = cache.refresh(stored, for: url, with: notModified, requestHeaders: Headers(), requestTime: later, responseTime: later)
        #expect(refreshed.response.headers["Cache-Control"] == "max-age=100")
        #expect(refreshed.response.headers["Content-Length"] == "1")
        #expect(refreshed.response.headers["X-Old"] == "o")
        #expect(refreshed.response.body == Data("x".utf8))
        #expect(refreshed.isUsableWithoutValidation(at: later.addingTimeInterval(10), request: CacheControl(Headers())))
    }
}
