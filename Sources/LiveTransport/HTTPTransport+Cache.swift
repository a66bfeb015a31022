import DispatcherCore
import FoundationEssentials

extension HTTPTransport {
    /// One hop through the environment's cache by the request's cache policy:
    /// - use-protocol: a fresh stored response is served; a stale one with validators is revalidated
    ///   (`If-None-Match` / `If-Modified-Since`; a 304 refreshes and serves it); otherwise the network.
    /// - return-cache-else-load: any stored response, however old; the network on a miss.
    /// - return-cache-don't-load: any stored response; a miss fails with `resourceUnavailable`.
    /// Only GETs are served from the cache; requests the caller made conditional go straight to the
    /// network. Unsafe methods that succeed drop the stored response for their URL.
    func load(_ hop: Hop, request: Request, cache: HTTPCache?, started: ContinuousClock.Instant) async throws(TransportError) -> Response {
        guard let cache, hop.method == .get, !hop.isConditional else {
            let response = try await fetch(hop, request: request, started: started)
            if let cache, hop.method != .get, hop.method != .head, hop.method != .options, response.status < 400 {
                cache.invalidate(hop.url)
            }
            return response
        }
        let control = CacheControl(hop.headers)
        let stored = cache.entry(for: hop.url, requestHeaders: hop.headers)
        switch request.settings.cachePolicy {
        case .returnCacheDontLoad:
            guard let stored else {
                throw TransportError(
                    .resourceUnavailable,
                    message: "Offline (return-cache-don't-load): no cached response for GET \(hop.url.absoluteString).")
            }
            return served(stored, source: .cache, started: started)
        case .returnCacheElseLoad:
            if let stored { return served(stored, source: .cache, started: started) }
        case .useProtocol, .reloadIgnoringCache:
            if let stored, stored.isUsableWithoutValidation(at: cache.now(), request: control) {
                return served(stored, source: .cache, started: started)
            }
            if control.onlyIfCached {
                throw TransportError(
                    .resourceUnavailable,
                    message: "The request says only-if-cached and there is no fresh cached response for \(hop.url.absoluteString).")
            }
            if let stored, stored.hasValidators {
                return try await revalidate(stored, hop: hop, request: request, cache: cache, started: started)
            }
        }
        let requestTime = cache.now()
        let response = try await fetch(hop, request: request, started: started)
        cache.store(response, for: hop.url, requestHeaders: hop.headers, requestTime: requestTime, responseTime: cache.now())
        return response
    }

    /// Asks the server whether the stored response is still current.
    private func revalidate(
        _ stored: HTTPCache.Entry, hop: Hop, request: Request, cache: HTTPCache, started: ContinuousClock.Instant
    ) async throws(TransportError) -> Response {
        var conditional = hop
        if let etag = stored.response.headers["ETag"] {
            conditional.headers.set("If-None-Match", etag, origin: .plugin("HTTP cache"))
        }
        if let lastModified = stored.response.headers["Last-Modified"] {
            conditional.headers.set("If-Modified-Since", lastModified, origin: .plugin("HTTP cache"))
        }
        let requestTime = cache.now()
        let response = try await fetch(conditional, request: request, started: started)
        guard response.status == 304 else {
            cache.store(response, for: hop.url, requestHeaders: hop.headers, requestTime: requestTime, responseTime: cache.now())
            return response
        }
        let refreshed = cache.refresh(
            stored, for: hop.url, with: response, requestHeaders: hop.headers, requestTime: requestTime, responseTime: cache.now())
        var revalidated = refreshed.response
        revalidated.source = .revalidated
        revalidated.timing = response.timing
        revalidated.httpVersion = response.httpVersion
        return revalidated
    }

    /// A stored response as served now.
    private func served(_ entry: HTTPCache.Entry, source: ResponseSource, started: ContinuousClock.Instant) -> Response {
        var response = entry.response
        response.source = source
        let elapsed = started.duration(to: .now)
        response.timing = Timing(firstByte: elapsed, total: elapsed)
        return response
    }
}
