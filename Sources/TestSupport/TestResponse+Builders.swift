import Foundation
import NIOCore
import NIOHTTP1

// MARK: - Plain responses

extension TestResponse {
    /// `status` with `body` bytes.
    package static func bytes(_ body: [UInt8], status: HTTPResponseStatus = .ok, headers: HTTPHeaders = [:]) -> TestResponse {
        TestResponse(status: status, headers: headers, behaviour: .body(body))
    }

    /// `status` with `body` data.
    package static func data(_ body: Data, status: HTTPResponseStatus = .ok, headers: HTTPHeaders = [:]) -> TestResponse {
        bytes([UInt8](body), status: status, headers: headers)
    }

    /// `status` with a UTF-8 text body (`Content-Type: text/plain; charset=utf-8` unless given).
    package static func text(_ body: String, status: HTTPResponseStatus = .ok, headers: HTTPHeaders = [:]) -> TestResponse {
        bytes(Array(body.utf8), status: status, headers: headers.adding("Content-Type", "text/plain; charset=utf-8"))
    }

    /// 200 OK with a text body.
    package static func ok(_ body: String = "", headers: HTTPHeaders = [:]) -> TestResponse {
        text(body, headers: headers)
    }

    /// `status` with a JSON body (`Content-Type: application/json` unless given).
    package static func json(_ body: String, status: HTTPResponseStatus = .ok, headers: HTTPHeaders = [:]) -> TestResponse {
        bytes(Array(body.utf8), status: status, headers: headers.adding("Content-Type", "application/json"))
    }

    /// `status` with an empty body (`Content-Length: 0`; none at all for 1xx/204/304).
    package static func status(_ status: HTTPResponseStatus, headers: HTTPHeaders = [:]) -> TestResponse {
        bytes([], status: status, headers: headers)
    }

    /// The same response with one more header.
    package func withHeader(_ name: String, _ value: String) -> TestResponse {
        var copy = self
        copy.headers.add(name: name, value: value)
        return copy
    }

    /// The same response with another status.
    package func withStatus(_ status: HTTPResponseStatus) -> TestResponse {
        var copy = self
        copy.status = status
        return copy
    }

    /// The same response, sent after waiting `delay` of real time.
    package func delayed(by delay: Duration) -> TestResponse {
        var copy = self
        copy.delay = delay
        return copy
    }
}

// MARK: - Content codings

extension TestResponse {
    /// `body` encoded with `coding` and labelled with `Content-Encoding`; decodes to `body.count` bytes.
    package static func encoded(
        _ coding: TestContentCoding, _ body: [UInt8], status: HTTPResponseStatus = .ok, headers: HTTPHeaders = [:]
    ) -> TestResponse {
        bytes(coding.encode(body), status: status, headers: headers.adding("Content-Encoding", coding.rawValue))
    }

    /// A gzip-encoded UTF-8 text body.
    package static func gzip(_ body: String, status: HTTPResponseStatus = .ok, headers: HTTPHeaders = [:]) -> TestResponse {
        encoded(.gzip, Array(body.utf8), status: status, headers: headers)
    }

    /// A deflate (zlib) encoded UTF-8 text body.
    package static func deflate(_ body: String, status: HTTPResponseStatus = .ok, headers: HTTPHeaders = [:]) -> TestResponse {
        encoded(.deflate, Array(body.utf8), status: status, headers: headers)
    }

    /// A small encoded body that decodes to exactly `decodedSize` copies of `byte`
    /// (about 1 KB on the wire per MB decoded): for decompression-limit tests.
    package static func compressionBomb(
        _ coding: TestContentCoding = .gzip, decodedSize: Int, byte: UInt8 = UInt8(ascii: "0"),
        status: HTTPResponseStatus = .ok, headers: HTTPHeaders = [:]
    ) -> TestResponse {
        bytes(
            coding.encode(repeating: byte, count: decodedSize), status: status,
            headers: headers.adding("Content-Encoding", coding.rawValue)
        )
    }
}

// MARK: - Streaming and broken bodies

extension TestResponse {
    /// `totalBytes` of `TestPattern` bytes streamed in chunks of `chunkSize`, waiting `interval`
    /// between chunks; with `abortAfterBytes`, the stream is cut there by `abortEnding` instead of finishing.
    package static func chunked(
        totalBytes: Int, chunkSize: Int, interval: Duration = .zero,
        abortAfterBytes: Int? = nil, abortEnding: ConnectionEnding = .close,
        status: HTTPResponseStatus = .ok, headers: HTTPHeaders = [:]
    ) -> TestResponse {
        let body = TestChunkedBody(
            source: .pattern(totalBytes: totalBytes, chunkSize: max(chunkSize, 1)),
            interval: interval, abortAfterBytes: abortAfterBytes, abortEnding: abortEnding
        )
        return TestResponse(status: status, headers: headers, behaviour: .chunked(body))
    }

    /// These UTF-8 chunks streamed one by one, waiting `interval` between them and, before each
    /// after the first, for `gate` (see `TestChunkedBody.gate`).
    package static func chunked(
        _ chunks: [String], interval: Duration = .zero, status: HTTPResponseStatus = .ok, headers: HTTPHeaders = [:],
        gate: (@Sendable (Int) async -> Void)? = nil
    ) -> TestResponse {
        var body = TestChunkedBody(source: .chunks(chunks.map { Array($0.utf8) }), interval: interval)
        body.gate = gate
        return TestResponse(status: status, headers: headers, behaviour: .chunked(body))
    }

    /// These exact byte chunks streamed one by one, waiting `interval` between them.
    package static func chunked(
        bytes chunks: [[UInt8]], interval: Duration = .zero, status: HTTPResponseStatus = .ok, headers: HTTPHeaders = [:]
    ) -> TestResponse {
        TestResponse(status: status, headers: headers, behaviour: .chunked(TestChunkedBody(source: .chunks(chunks), interval: interval)))
    }

    /// The same response with its body streamed in chunks of `size` bytes (no `Content-Length`),
    /// e.g. `.gzip(text).streamedInChunks(of: 64)`; other behaviours are returned unchanged.
    package func streamedInChunks(of size: Int, interval: Duration = .zero) -> TestResponse {
        guard case .body(let body) = behaviour else { return self }
        let size = max(size, 1)
        let chunks = stride(from: 0, to: body.count, by: size).map { Array(body[$0..<min($0 + size, body.count)]) }
        var copy = self
        copy.headers.remove(name: "Content-Length")
        copy.behaviour = .chunked(TestChunkedBody(source: .chunks(chunks), interval: interval))
        return copy
    }

    /// Declares `Content-Length: declaredLength`, sends the first `sentBytes` pattern bytes,
    /// then ends the connection (`.close` for FIN, `.reset` for RST).
    package static func truncated(
        declaredLength: Int, sentBytes: Int, ending: ConnectionEnding = .close,
        status: HTTPResponseStatus = .ok, headers: HTTPHeaders = [:]
    ) -> TestResponse {
        TestResponse(
            status: status, headers: headers,
            behaviour: .truncated(declaredLength: declaredLength, sent: TestPattern.bytes(count: sentBytes), ending: ending)
        )
    }

    /// Reads the request and never answers; the connection stays open until shutdown.
    package static var neverRespond: TestResponse {
        TestResponse(behaviour: .neverRespond)
    }

    /// Closes the connection (orderly: close_notify + FIN) without a response.
    package static var closeConnection: TestResponse {
        TestResponse(behaviour: .drop(.close))
    }

    /// Resets the connection (TCP RST) without a response.
    package static var resetConnection: TestResponse {
        TestResponse(behaviour: .drop(.reset))
    }
}

// MARK: - Redirects and revalidation

extension TestResponse {
    /// A redirect to `location` (absolute URL or path) with `status` (301, 302, 303, 307 or 308).
    package static func redirect(to location: String, status: HTTPResponseStatus = .found, headers: HTTPHeaders = [:]) -> TestResponse {
        var headers = headers
        headers.replaceOrAdd(name: "Location", value: location)
        return bytes([], status: status, headers: headers)
    }

    /// 304 Not Modified carrying the validators.
    package static func notModified(etag: String? = nil, lastModified: String? = nil, headers: HTTPHeaders = [:]) -> TestResponse {
        var headers = headers
        if let etag { headers.replaceOrAdd(name: "ETag", value: etag) }
        if let lastModified { headers.replaceOrAdd(name: "Last-Modified", value: lastModified) }
        return status(.notModified, headers: headers)
    }

    /// `response` with its validators, or 304 when `request`'s `If-None-Match` matches `etag`
    /// (weak comparison, lists and `*` understood) or, without `If-None-Match`, its
    /// `If-Modified-Since` equals `lastModified` (exact string match, as servers commonly do).
    package static func conditional(
        for request: TestRequest, etag: String?, lastModified: String? = nil, response: TestResponse
    ) -> TestResponse {
        var validated = response
        if let etag { validated.headers.replaceOrAdd(name: "ETag", value: etag) }
        if let lastModified { validated.headers.replaceOrAdd(name: "Last-Modified", value: lastModified) }
        let ifNoneMatch = request.headers["If-None-Match"]
        if !ifNoneMatch.isEmpty {
            guard let etag, ETag.matches(etag, anyOf: ifNoneMatch) else { return validated }
        } else {
            guard let lastModified, request.header("If-Modified-Since") == lastModified else { return validated }
        }
        var notModified = TestResponse.notModified(etag: etag, lastModified: lastModified)
        // Cache-Control and friends must accompany a 304 so the client can refresh its entry.
        for name in ["Cache-Control", "Expires", "Vary", "Date"] {
            for value in response.headers[name] { notModified.headers.add(name: name, value: value) }
        }
        return notModified
    }
}

/// Entity-tag comparison per RFC 9110 §8.8.3.2 (weak comparison, used by If-None-Match).
enum ETag {
    static func matches(_ etag: String, anyOf headerValues: [String]) -> Bool {
        let candidates = headerValues.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        return candidates.contains { $0 == "*" || opaque($0) == opaque(etag) }
    }

    private static func opaque(_ tag: String) -> Substring {
        tag.hasPrefix("W/") ? tag.dropFirst(2) : Substring(tag)
    }
}

extension HTTPHeaders {
    /// These headers plus `name: value` unless a `name` header is already present.
    func adding(_ name: String, _ value: String) -> HTTPHeaders {
        guard !contains(name: name) else { return self }
        var copy = self
        copy.add(name: name, value: value)
        return copy
    }
}
