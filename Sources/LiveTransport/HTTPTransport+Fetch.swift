import AsyncHTTPClient
import DispatcherCore
import Foundation
import NIOCore
import NIOHTTP1

extension HTTPTransport {
    /// One exchange on the network: the client for the request's trust and settings, the head, then
    /// the body streamed up to the cap, reporting bytes received as they arrive.
    func fetch(_ hop: Hop, request: Request, started: ContinuousClock.Instant) async throws(TransportError) -> Response {
        let settings = request.settings
        var context = failureContext(for: hop.url, request: request)
        let key = ClientKey(
            trust: settings.trust, proxy: context.proxy, connect: settings.timeouts.connect, read: settings.timeouts.read,
            decompressionLimit: settings.maximumBodySize)
        let client = try clients.client(for: key)

        let head: HTTPClientResponse
        do {
            head = try await client.execute(Self.clientRequest(for: hop), deadline: .distantFuture)
        } catch {
            throw await explained(TransportError.mapping(error, context: context), cause: error, hop: hop, settings: settings)
        }
        let firstByte = started.duration(to: .now)
        context.receivedHead = true

        var response = Response(
            status: Int(head.status.code), headers: Self.headers(of: head.headers), url: hop.url, source: .network,
            httpVersion: Self.versionText(head.version), timing: Timing(firstByte: firstByte))
        let expected = head.headers.contains(name: "Content-Encoding") ? nil : head.headers.first(name: "Content-Length").flatMap(Int.init)
        let limit = settings.maximumBodySize
        var body = Data()
        if let expected { body.reserveCapacity(min(expected, limit)) }
        let progress = request.options.progress
        do {
            for try await chunk in head.body {
                let room = limit - body.count
                guard chunk.readableBytes <= room else {
                    // Keep what fits; leaving the loop cancels the rest, which closes the connection.
                    chunk.withUnsafeReadableBytes { body.append(contentsOf: UnsafeRawBufferPointer(rebasing: $0.prefix(room))) }
                    progress?(body.count, expected)
                    response.body = body
                    throw TransportError(
                        .bodyTooLarge,
                        message: "The response body is larger than the limit of \(ByteCount.format(limit)); the first \(ByteCount.format(body.count)) are kept.",
                        partialResponse: response)
                }
                chunk.withUnsafeReadableBytes { body.append(contentsOf: $0) }
                progress?(body.count, expected)
            }
        } catch {
            response.body = body
            var failure = TransportError.mapping(error, context: context)
            if failure.code == .bodyTooLarge, error is TransportError == false {
                failure.message = "The decompressed response body is larger than the limit of \(ByteCount.format(limit)); "
                    + "the first \(ByteCount.format(body.count)) are kept."
            }
            failure.partialResponse = failure.partialResponse ?? response
            throw failure
        }
        response.body = body
        response.timing.total = started.duration(to: .now)
        return response
    }

    /// A certificate verification failure with its reason found out by `CertificateDiagnosis`
    /// (direct connections only: a probe cannot go through the proxy's tunnel).
    private func explained(_ failure: TransportError, cause: any Error, hop: Hop, settings: TransportSettings) async -> TransportError {
        guard failure.code == .serverCertificateUntrusted, TransportError.tlsReason(in: "\(cause)") == "CERTIFICATE_VERIFY_FAILED",
            configuration.proxy.server(for: hop.url) == nil, let host = hop.url.host
        else { return failure }
        let timeout = min(settings.timeouts.connect ?? .seconds(5), .seconds(5))
        guard let reason = await CertificateDiagnosis.reason(
            host: host, port: Hop.effectivePort(hop.url), trust: settings.trust, timeout: timeout,
            group: configuration.eventLoopGroup)
        else { return failure }
        var explained = failure
        explained.message = "The certificate of \(Hop.authority(hop.url)) is not trusted: \(reason) (CERTIFICATE_VERIFY_FAILED)."
        return explained
    }

    /// The AsyncHTTPClient request for a hop.
    static func clientRequest(for hop: Hop) -> HTTPClientRequest {
        var request = HTTPClientRequest(url: hop.url.absoluteString)
        request.method = NIOHTTP1.HTTPMethod(rawValue: hop.method.rawValue)
        var headers = HTTPHeaders()
        headers.reserveCapacity(hop.headers.count)
        for field in hop.headers { headers.add(name: field.name, value: field.value) }
        request.headers = headers
        if let body = hop.body { request.body = .bytes(body) }
        return request
    }

    /// Response headers in order, from the server.
    static func headers(of headers: HTTPHeaders) -> Headers {
        Headers(headers.map { HeaderField(name: $0.name, value: $0.value, origin: .server) })
    }

    /// `HTTP/1.1`, `HTTP/2` …
    static func versionText(_ version: HTTPVersion) -> String {
        version.major >= 2 ? "HTTP/\(version.major)" : "HTTP/\(version.major).\(version.minor)"
    }
}
