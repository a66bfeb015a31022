import AsyncHTTPClient
import DispatcherCore
import FoundationEssentials
import NIOCore
import NIOHTTP1

extension HTTPTransport {
    /// One exchange on the network, through the client for the request's trust and settings.
    ///
    /// Uses AsyncHTTPClient's delegate API: its deadline covers the whole exchange, body included
    /// (the async API's stops at the head), and the body is gathered on the event loop rather than
    /// with one task hop per chunk. The total deadline is the request's start plus its total timeout,
    /// so redirects count against it too.
    func fetch(_ hop: Hop, request: Request, started: ContinuousClock.Instant) async throws(TransportError) -> Response {
        let hopStarted = ContinuousClock.now
        let settings = request.settings
        let context = failureContext(for: hop.url, request: request)
        var deadline = NIODeadline.distantFuture
        if let total = settings.timeouts.total {
            let remaining = total - started.duration(to: .now)
            guard remaining > .zero else { throw TransportError.timedOut(.total, context) }
            deadline = .now() + TimeAmount(remaining)
        }
        // Plain http to an HTTP proxy goes in absolute form; https (and SOCKS) through a tunnel.
        let forwarding = context.proxy.flatMap { $0.kind == .http && hop.url.scheme?.lowercased() == "http" ? $0 : nil }
        let key = ClientKey(
            trust: settings.trust, proxy: forwarding == nil ? context.proxy : nil, forwardingProxy: forwarding, connect: settings.timeouts.connect,
            read: settings.timeouts.read)
        let pooled = try clients.client(for: key)
        let collector = ResponseCollector(
            limit: settings.maximumBodySize, progress: request.options.progress, observer: request.options.onResponsePart,
            download: request.options.download, resumingFrom: hop.resumingFrom, streamedBodyKept: request.options.streamedBodyKept,
            statusLine: request.options.onStatusLine)

        let collected: ResponseCollector.Collected
        // The hop's number goes to its connection's tap (`TransferTaps`); through a proxy the name
        // is the proxy's to resolve.
        let recordsPhases = configuration.recordsPhases
        let number = recordsPhases ? clients.taps.number() : 0
        let lookup = recordsPhases && context.proxy == nil ? hop.url.host.map { clients.lookups.start($0, on: pooled.eventLoop) } : nil
        let clock = TransferClock(taps: clients.taps, number: number, lookup: lookup, attemptStarted: started, hopStarted: hopStarted, url: hop.url)
        do {
            var clientRequest = try Self.clientRequest(for: hop, forwardingTo: forwarding, uploadProgress: request.options.uploadProgress)
            if recordsPhases { clientRequest.headers.add(name: TransferTaps.header, value: String(number)) }
            let task = pooled.client.execute(
                request: clientRequest, delegate: collector, eventLoop: .delegate(on: pooled.eventLoop), deadline: deadline)
            collected = try await withTaskCancellationHandler {
                try await task.futureResult.get()
            } onCancel: {
                task.cancel()
            }
        } catch {
            var failed = await failure(error, collector: collector, hop: hop, request: request, started: started, context: context)
            if recordsPhases {
                let partial = collector.partial
                failed.transfer = TransferTiming(hops: [
                    clock.hop(status: partial.map { Int($0.head.status.code) }, firstByte: partial?.headArrived, ended: nil,
                        received: failed.partialResponse?.bodySize ?? 0)
                ])
                failed.partialResponse?.transfer = failed.transfer
            }
            throw failed
        }
        var response = Response(
            status: Int(collected.head.status.code), headers: Self.headers(of: collected.head.headers), body: Self.data(collected.body),
            url: hop.url, source: .network, httpVersion: Self.versionText(collected.head.version),
            timing: Timing(firstByte: started.duration(to: collected.headArrived), total: started.duration(to: .now)))
        response.downloadedFile = collected.downloadedFile
        response.streamedByteCount = collected.streamedByteCount
        response.reasonPhrase = Self.reasonPhrase(of: collected.head)
        response.isTruncated = (collected.streamedByteCount ?? 0) > response.body.count
        if recordsPhases {
            response.transfer = TransferTiming(hops: [
                clock.hop(status: response.status, firstByte: collected.headArrived, ended: collected.ended, received: response.bodySize)
            ])
        }
        return response
    }

    /// The failure with a clear message and what arrived before it.
    private func failure(
        _ error: any Error, collector: ResponseCollector, hop: Hop, request: Request, started: ContinuousClock.Instant,
        context: FailureContext
    ) async -> TransportError {
        var context = context
        let partial = collector.partial.map { head, arrived, body, streamed in
            var response = Response(
                status: Int(head.status.code), headers: Self.headers(of: head.headers), body: Self.data(body), url: hop.url,
                source: .network, httpVersion: Self.versionText(head.version),
                timing: Timing(firstByte: started.duration(to: arrived), total: started.duration(to: .now)))
            response.streamedByteCount = streamed
            response.reasonPhrase = Self.reasonPhrase(of: head)
            // The transfer failed after the head: whatever body came is part of one.
            response.isTruncated = true
            return response
        }
        context.receivedHead = partial != nil
        var failure = TransportError.mapping(error, context: context)
        let limit = ByteCount.format(request.settings.maximumBodySize)
        if failure.code == .bodyTooLarge {
            let kept = ByteCount.format(partial?.body.count ?? 0)
            if let declared = collector.declaredOverLimit {
                failure.message = "The server declared a body of \(ByteCount.format(declared)) (Content-Length: \(declared)), "
                    + "larger than the limit of \(limit) (\(request.settings.maximumBodySize) bytes); it was refused before reading it."
            } else {
                let what = collector.decodes ? "decompressed response body" : "response body"
                failure.message = "The \(what) is larger than the limit of \(limit); the first \(kept) are kept."
            }
        }
        // A deadline that passed while the connection was still being made is the total's, not the connect timeout's.
        if failure.code == .timedOut, failure.timeoutPhase != .total, let total = request.settings.timeouts.total,
            started.duration(to: .now) >= total
        {
            failure = TransportError.timedOut(.total, context)
        }
        if failure.code == .timedOut, let partial { failure.message = Self.timeoutMessage(failure, received: partial) }
        if failure.code == .serverCertificateUntrusted {
            failure = await explained(failure, cause: error, hop: hop, settings: request.settings)
        }
        failure.partialResponse = failure.partialResponse ?? partial
        return failure
    }

    /// A timeout that says what arrived before it: "sent nothing for 2 s" is untrue when a head and
    /// part of the body came.
    static func timeoutMessage(_ failure: TransportError, received partial: Response) -> String {
        let firstByte = partial.timing.firstByte.map { " after \(Int(($0.seconds * 1000).rounded())) ms" } ?? ""
        let declared = partial.headers["Content-Length"].map { " of the \($0) bytes declared" } ?? ""
        let received = "The head (\(partial.statusLine)) arrived\(firstByte), then \(partial.bodySize) bytes of the body\(declared)."
        var message = failure.message
        if failure.timeoutPhase == .read { message = message.replacing(" sent nothing for ", with: " sent nothing more for ") }
        return message + " " + received
    }

    /// A certificate verification failure with its reason found out by `CertificateDiagnosis`
    /// (direct connections only: a probe cannot go through the proxy's tunnel).
    private func explained(_ failure: TransportError, cause: any Error, hop: Hop, settings: TransportSettings) async -> TransportError {
        guard TransportError.tlsReason(in: "\(cause)") == "CERTIFICATE_VERIFY_FAILED",
            configuration.proxy.server(for: hop.url) == nil, let host = hop.url.host
        else { return failure }
        // The probe is a second connection: as patient as the environment's connect timeout.
        let timeout = settings.timeouts.connect ?? .seconds(5)
        guard let reason = await CertificateDiagnosis.reason(
            host: host, port: Hop.effectivePort(hop.url), trust: settings.trust, timeout: timeout,
            group: configuration.loops)
        else { return failure }
        var explained = failure
        explained.message = "The certificate of \(Hop.authority(hop.url)) is not trusted: \(reason) (CERTIFICATE_VERIFY_FAILED)."
        return explained
    }

    /// The AsyncHTTPClient request for a hop: a streamed body is read from disk as it is written.
    /// With `proxy`, a plain-http hop is sent to that HTTP proxy (its target written in absolute
    /// form on the way, `AbsoluteFormRequests`), with `Proxy-Authorization` when it has a user.
    static func clientRequest(
        for hop: Hop, forwardingTo proxy: ProxyServer? = nil, uploadProgress: (@Sendable (_ sent: Int, _ total: Int) -> Void)? = nil
    ) throws -> HTTPClient.Request {
        var headers = HTTPHeaders()
        headers.reserveCapacity(hop.headers.count + 2)
        // `Host` first, as curl and browsers send it (AsyncHTTPClient would append it last).
        if !hop.headers.contains("Host"), let host = hop.url.host, !host.isEmpty {
            let name = host.contains(":") ? "[\(host)]" : host
            headers.add(name: "Host", value: hop.url.port.map { "\(name):\($0)" } ?? name)
        }
        if let proxy, let user = proxy.username, !hop.headers.contains("Proxy-Authorization") {
            headers.add(name: "Proxy-Authorization", value: "Basic " + Data("\(user):\(proxy.password ?? "")".utf8).base64EncodedString())
        }
        for field in hop.headers { headers.add(name: field.name, value: field.value) }
        let body: HTTPClient.Body? = if let streamed = hop.streamedBody {
            .stream(contentLength: Int64(streamed.length)) { writer in
                BodyUploader(body: streamed, writer: writer, progress: uploadProgress).start()
            }
        } else {
            hop.body.map { .bytes($0) }
        }
        var url = hop.url
        if let proxy, let components = URLComponents(url: hop.url, resolvingAgainstBaseURL: false) {
            // The connection goes to the proxy; the target keeps the origin's path and query.
            let host = proxy.host.contains(":") ? "[\(proxy.host)]" : proxy.host
            let query = components.percentEncodedQuery.map { "?\($0)" } ?? ""
            let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
            url = URL(string: "http://\(host):\(proxy.port)\(path)\(query)") ?? hop.url
        }
        return try HTTPClient.Request(url: url, method: NIOHTTP1.HTTPMethod(rawValue: hop.method.rawValue), headers: headers, body: body)
    }

    /// Response headers in order, from the server.
    static func headers(of headers: HTTPHeaders) -> Headers {
        Headers(headers.map { HeaderField(name: $0.name, value: $0.value, origin: .server) })
    }

    /// The bytes as `Data`: a copy when small; a large body shares the buffer's storage instead, so
    /// a body near the cap is held once, not twice (issue 12: peak memory of a capped response).
    static func data(_ buffer: ByteBuffer) -> Data {
        guard buffer.readableBytes >= sharedStorageThreshold else { return buffer.withUnsafeReadableBytes { Data($0) } }
        return buffer.withUnsafeReadableBytesWithStorageManagement { bytes, storage in
            guard let base = bytes.baseAddress else { return Data() }
            // The Data keeps the buffer's storage alive until it is released.
            _ = storage.retain()
            return Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: bytes.count, deallocator: .custom { _, _ in storage.release() })
        }
    }

    /// Bodies at least this large share the buffer's storage rather than being copied.
    static let sharedStorageThreshold = 1 << 20

    /// The reason phrase as received: HTTP/2 has none, HTTP/1.1's is the server's
    /// (`StatusLineRecorder` puts it back in the head).
    static func reasonPhrase(of head: HTTPResponseHead) -> String {
        head.version.major >= 2 ? "" : head.status.reasonPhrase
    }

    /// `HTTP/1.1`, `HTTP/2` …
    static func versionText(_ version: HTTPVersion) -> String {
        version.major >= 2 ? "HTTP/\(version.major)" : "HTTP/\(version.major).\(version.minor)"
    }
}
