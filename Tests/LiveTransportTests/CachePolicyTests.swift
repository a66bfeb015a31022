import DispatcherCore
import Foundation
import LiveTransport
import TestSupport
import Testing
import TestTraits

/// The cache policies against a real server, with a hand-moved wall clock.
@Suite("HTTP cache policies", .offPool)
struct CachePolicyTests {
    /// A server whose `/counter` answers `n` (the hit count) with the given headers.
    static func counting(headers: [(String, String)] = [], etag: String? = nil) -> (TestHTTPServer.Handler, LockedValue<Int>) {
        let hits = LockedValue(0)
        let handler: TestHTTPServer.Handler = { request in
            let n = hits.increment()
            var response = TestResponse.ok("hit \(n)")
            for (name, value) in headers { response = response.withHeader(name, value) }
            guard let etag else { return response }
            return .conditional(for: request, etag: etag, response: response)
        }
        return (handler, hits)
    }

    let clock = LockedValue(Date(timeIntervalSince1970: 1_700_000_000))

    func configure(_ configuration: inout HTTPTransport.Configuration) {
        let clock = self.clock
        configuration.now = { clock.value }
    }

    func advance(_ seconds: TimeInterval) { clock.withLock { $0 += seconds } }

    @Test func useProtocolServesAFreshResponseFromTheCacheThenRefetchesWhenStale() async throws {
        let (handler, hits) = Self.counting(headers: [("Cache-Control", "max-age=60")])
        try await withServerAndTransport(handler: handler, configure: configure) { server, transport in
            let environment = liveEnvironment(server.baseURL, cachePolicy: .useProtocol)
            let first = try await transport.send(request(server.url("/counter"), in: environment))
            #expect(first.source == .network)
            advance(30)
            let second = try await transport.send(request(server.url("/counter"), in: environment))
            #expect(second.source == .cache)
            #expect(second.text == "hit 1")
            #expect(hits.value == 1)
            advance(31)
            let third = try await transport.send(request(server.url("/counter"), in: environment))
            #expect(third.source == .network)
            #expect(third.text == "hit 2")
        }
    }

    @Test func aStaleResponseWithAnETagIsRevalidatedWithA304() async throws {
        let (handler, hits) = Self.counting(headers: [("Cache-Control", "max-age=10")], etag: "\"v1\"")
        try await withServerAndTransport(handler: handler, configure: configure) { server, transport in
            let environment = liveEnvironment(server.baseURL, cachePolicy: .useProtocol)
            _ = try await transport.send(request(server.url("/counter"), in: environment))
            advance(11)
            let revalidated = try await transport.send(request(server.url("/counter"), in: environment))
            #expect(revalidated.source == .revalidated)
            #expect(revalidated.status == 200)
            #expect(revalidated.text == "hit 1")
            #expect(hits.value == 2)
            #expect(server.lastRequest?.header("If-None-Match") == "\"v1\"")
            // The 304 refreshed the entry: fresh again for another 10 s.
            advance(5)
            #expect(try await transport.send(request(server.url("/counter"), in: environment)).source == .cache)
            #expect(hits.value == 2)
        }
    }

    @Test func lastModifiedRevalidationUsesIfModifiedSince() async throws {
        let lastModified = "Tue, 14 Nov 2023 22:13:20 GMT"
        let hits = LockedValue(0)
        try await withServerAndTransport(handler: { request in
            hits.withLock { $0 += 1 }
            return .conditional(for: request, etag: nil, lastModified: lastModified, response: .ok("body").withHeader("Cache-Control", "no-cache"))
        }, configure: configure) { server, transport in
            let environment = liveEnvironment(server.baseURL, cachePolicy: .useProtocol)
            #expect(try await transport.send(request(server.url("/doc"), in: environment)).source == .network)
            let second = try await transport.send(request(server.url("/doc"), in: environment))
            #expect(second.source == .revalidated)
            #expect(second.text == "body")
            #expect(server.lastRequest?.header("If-Modified-Since") == lastModified)
            #expect(hits.value == 2)
        }
    }

    @Test func noStoreIsNeverStored() async throws {
        let (handler, hits) = Self.counting(headers: [("Cache-Control", "no-store, max-age=600")])
        try await withServerAndTransport(handler: handler, configure: configure) { server, transport in
            let environment = liveEnvironment(server.baseURL, cachePolicy: .useProtocol)
            _ = try await transport.send(request(server.url("/counter"), in: environment))
            let second = try await transport.send(request(server.url("/counter"), in: environment))
            #expect(second.source == .network)
            #expect(hits.value == 2)
            #expect(transport.cache(for: environment.name).count == 0)
            // Even the offline policy has nothing to show.
            var offline = environment
            offline.cachePolicy = .returnCacheDontLoad
            #expect(await failure(of: request(server.url("/counter"), in: offline), through: transport)?.code == .resourceUnavailable)
        }
    }

    @Test func reloadIgnoringCacheNeitherReadsNorWrites() async throws {
        let (handler, hits) = Self.counting(headers: [("Cache-Control", "max-age=600")])
        try await withServerAndTransport(handler: handler, configure: configure) { server, transport in
            let environment = liveEnvironment(server.baseURL, cachePolicy: .useProtocol)
            _ = try await transport.send(request(server.url("/counter"), in: environment))
            var reload = environment
            reload.cachePolicy = .reloadIgnoringCache
            let reloaded = try await transport.send(request(server.url("/counter"), in: reload))
            #expect(reloaded.source == .network)
            #expect(reloaded.text == "hit 2")
            // The cache still holds the first response: reload did not write.
            #expect(try await transport.send(request(server.url("/counter"), in: environment)).text == "hit 1")
            #expect(hits.value == 2)
        }
    }

    @Test func returnCacheElseLoadUsesAnyStoredResponseHoweverOld() async throws {
        let (handler, hits) = Self.counting()  // no caching headers: never fresh
        try await withServerAndTransport(handler: handler, configure: configure) { server, transport in
            let environment = liveEnvironment(server.baseURL, cachePolicy: .returnCacheElseLoad)
            let miss = try await transport.send(request(server.url("/counter"), in: environment))
            #expect(miss.source == .network)
            advance(86_400 * 30)
            let hit = try await transport.send(request(server.url("/counter"), in: environment))
            #expect(hit.source == .cache)
            #expect(hit.text == "hit 1")
            #expect(hits.value == 1)
        }
    }

    @Test func returnCacheDontLoadIsOffline() async throws {
        let (handler, hits) = Self.counting()
        try await withServerAndTransport(handler: handler, configure: configure) { server, transport in
            let name = "offline-\(UUID().uuidString)"
            var offline = liveEnvironment(server.baseURL, name: name, cachePolicy: .returnCacheDontLoad)
            let error = await failure(of: request(server.url("/counter"), in: offline), through: transport)
            #expect(error?.code == .resourceUnavailable)
            #expect(error?.message == "Offline (return-cache-don't-load): no cached response for GET \(server.url("/counter")).")
            #expect(hits.value == 0)

            offline.cachePolicy = .useProtocol
            _ = try await transport.send(request(server.url("/counter"), in: offline))
            offline.cachePolicy = .returnCacheDontLoad
            let cached = try await transport.send(request(server.url("/counter"), in: offline))
            #expect(cached.source == .cache)
            #expect(hits.value == 1)
        }
    }

    @Test func eachEnvironmentHasItsOwnCache() async throws {
        let (handler, hits) = Self.counting(headers: [("Cache-Control", "max-age=600")])
        try await withServerAndTransport(handler: handler, configure: configure) { server, transport in
            let staging = liveEnvironment(server.baseURL, cachePolicy: .useProtocol)
            let production = liveEnvironment(server.baseURL, cachePolicy: .useProtocol)
            _ = try await transport.send(request(server.url("/counter"), in: staging))
            #expect(try await transport.send(request(server.url("/counter"), in: production)).source == .network)
            #expect(hits.value == 2)
        }
    }

    @Test func varyKeepsVariantsApart() async throws {
        try await withServerAndTransport(handler: { request in
            .ok("lang \(request.header("Accept-Language") ?? "-")").withHeader("Cache-Control", "max-age=600").withHeader("Vary", "Accept-Language")
        }, configure: configure) { server, transport in
            let environment = liveEnvironment(server.baseURL, cachePolicy: .useProtocol)
            let english: Headers = ["Accept-Language": "en"]
            let french: Headers = ["Accept-Language": "fr"]
            _ = try await transport.send(request(server.url("/greeting"), in: environment, headers: english))
            #expect(try await transport.send(request(server.url("/greeting"), in: environment, headers: english)).source == .cache)
            let other = try await transport.send(request(server.url("/greeting"), in: environment, headers: french))
            #expect(other.source == .network)
            #expect(other.text == "lang fr")
        }
    }

    @Test func requestNoCacheForcesRevalidation() async throws {
        let (handler, hits) = Self.counting(headers: [("Cache-Control", "max-age=600")], etag: "\"e\"")
        try await withServerAndTransport(handler: handler, configure: configure) { server, transport in
            let environment = liveEnvironment(server.baseURL, cachePolicy: .useProtocol)
            _ = try await transport.send(request(server.url("/counter"), in: environment))
            let response = try await transport.send(request(server.url("/counter"), in: environment, headers: ["Cache-Control": "no-cache"]))
            #expect(response.source == .revalidated)
            #expect(hits.value == 2)
        }
    }

    @Test func aSuccessfulPostInvalidatesTheStoredResponse() async throws {
        let (handler, hits) = Self.counting(headers: [("Cache-Control", "max-age=600")])
        try await withServerAndTransport(handler: handler, configure: configure) { server, transport in
            let environment = liveEnvironment(server.baseURL, cachePolicy: .useProtocol)
            _ = try await transport.send(request(server.url("/counter"), in: environment))
            _ = try await transport.send(request(server.url("/counter"), .post, in: environment, body: Data("x".utf8)))
            let after = try await transport.send(request(server.url("/counter"), in: environment))
            #expect(after.source == .network)
            #expect(hits.value == 3)
        }
    }

    @Test func cachedResponsesGoThroughTheWholePipelineAndSayWhereTheyCameFrom() async throws {
        let (handler, _) = Self.counting(headers: [("Cache-Control", "max-age=600")])
        try await withServerAndTransport(handler: handler, configure: configure) { server, transport in
            let activity = NetworkActivityPlugin()
            let dispatcher = Dispatcher<Target>(
                environment: liveEnvironment(server.baseURL, cachePolicy: .useProtocol), transport: transport, plugins: [activity])
            #expect(await dispatcher.send(Target(.get, "/counter")).response?.source == .network)
            let cached = await dispatcher.send(Target(.get, "/counter"))
            #expect(cached.response?.source == .cache)
            #expect(cached.response?.text == "hit 1")
            #expect(activity.inFlight == 0)
        }
    }
}
