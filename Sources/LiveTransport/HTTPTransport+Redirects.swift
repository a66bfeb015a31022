import DispatcherCore
import FoundationEssentials

extension HTTPTransport {
    /// Loads the request and follows its redirects (when the environment allows) up to the limit,
    /// stopping at a loop; the chain is kept in `Response.redirects`.
    func follow(_ request: Request, started: ContinuousClock.Instant) async throws(TransportError) -> Response {
        var hop = Hop(method: request.method, url: request.url, headers: wireHeaders(of: request), body: request.body, streamedBody: request.streamedBody)
        // `http://ann:pw@host/`: the userinfo goes as `Authorization: Basic`, as curl sends it (an
        // `Authorization` the request sets wins, as a curl `-H` does); never in the request line.
        if let credentials = URLCredentials(request.url) {
            hop.url = URLCredentials.removing(from: request.url)
            if !hop.headers.contains("Authorization") {
                // First, where curl writes it (after `Host`, before the other headers).
                hop.headers = Headers([HeaderField(name: "Authorization", value: credentials.authorization, origin: .auth("URL userinfo"))] + hop.headers.fields)
            }
        }
        // `bücher.example` goes as `xn--bcher-kva.example`, as curl sends it.
        hop.url = try InternationalHost.ascii(hop.url)
        if let streamed = request.streamedBody, let unreadable = streamed.unreadableFiles.first {
            throw TransportError(.unknown, message: "Nothing was sent: the file \(unreadable) of the request body cannot be read (missing, a folder, or not readable).")
        }
        let policy = request.settings.redirects
        let rules = RedirectRules(secrets: request.options.secrets?.values ?? [], allowsDowngrade: policy.allowsDowngrade)
        var cache = request.settings.cachePolicy == .reloadIgnoringCache ? nil : self.cache(for: request.settings.environmentName)
        if let download = request.options.download {
            // A download is never cached, and asks for the bytes as stored, so a range means the same
            // bytes on every attempt; a partial file from an earlier attempt is continued.
            cache = nil
            hop.headers.set("Accept-Encoding", "identity", origin: .plugin("transport"))
            if download.resumes, !hop.headers.contains("Range"), let size = DownloadWriter.partialSize(of: download) {
                hop.headers.set("Range", "bytes=\(size)-", origin: .plugin("transport"))
            }
        }
        var redirects: [Redirect] = []
        // A loop is the same request again: the same method on the same URL with the same cookies
        // (POST /form → 303 → GET /form is not one, nor a sign-in that redirects to itself setting
        // the cookie it then sends, which curl follows too). Past that, the hop count stops it.
        // Filled at the first redirect: most requests have none.
        var visited: Set<String> = []
        // Each hop's phases, so the final response (or the failure) shows the whole chain's.
        var hops: [HopTiming] = []
        while true {
            var response: Response
            do {
                response = try await load(hop, request: request, cache: cache, started: started)
            } catch {
                var failure = error
                if !hops.isEmpty || failure.transfer != nil {
                    failure.transfer = TransferTiming(hops: hops + (failure.transfer?.hops ?? []))
                    failure.partialResponse?.transfer = failure.transfer
                }
                throw failure
            }
            hops += response.transfer?.hops ?? []
            if !hops.isEmpty { response.transfer = TransferTiming(hops: hops) }
            response.redirects = redirects
            guard policy.follow, var next = try hop.following(response, rules: rules) else {
                response.timing.total = started.duration(to: .now)
                return response
            }
            next.url = try InternationalHost.ascii(next.url)
            guard redirects.count < policy.limit else {
                var failure = TransportError(
                    .tooManyRedirects,
                    message: "Stopped after \(redirects.count) redirects (the limit) at \(hop.url.absoluteString), "
                        + "which redirects again to \(next.url.absoluteString).",
                    partialResponse: response)
                failure.transfer = response.transfer
                throw failure
            }
            if visited.isEmpty { visited.insert(hop.loopKey) }
            if let cookies = request.options.cookies {
                cookies.store(response.headers, from: hop.url)
                cookies.apply(to: &next.headers, for: next.url)
            }
            guard visited.insert(next.loopKey).inserted else {
                let chain = (redirects.map(\.from) + [hop.url, next.url]).map(\.absoluteString).joined(separator: " → ")
                var failure = TransportError(
                    .tooManyRedirects, message: "The redirects loop: \(chain), sending the same request again (its cookies unchanged).",
                    partialResponse: response)
                failure.transfer = response.transfer
                throw failure
            }
            redirects.append(Redirect(status: response.status, from: hop.url, to: next.url))
            hop = next
        }
    }

    /// The request's headers plus the transport's defaults (`User-Agent`, `Accept-Encoding`) when absent.
    private func wireHeaders(of request: Request) -> Headers {
        var headers = request.headers
        if let userAgent = configuration.userAgent, !headers.contains("User-Agent") {
            headers.add("User-Agent", userAgent, origin: .plugin("transport"))
        }
        if let acceptEncoding = configuration.acceptEncoding, !headers.contains("Accept-Encoding") {
            headers.add("Accept-Encoding", acceptEncoding, origin: .plugin("transport"))
        }
        return headers
    }
}
