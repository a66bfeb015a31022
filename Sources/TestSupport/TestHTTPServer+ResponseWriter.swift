import NIOCore
import NIOHTTP1

/// Carries out a `TestResponse` on an HTTP/1.1 connection or an HTTP/2 stream.
struct ResponseWriter: Sendable {
    /// The HTTP/1.1 connection, or the HTTP/2 stream channel.
    let channel: Channel
    let connection: TestConnection
    let request: TestRequest
    let keepAlive: Bool
    let isHTTP2: Bool

    func write(_ response: TestResponse) async {
        do {
            if response.delay > .zero { try await sleepOffPool(for: response.delay) }
            switch response.behaviour {
            case .neverRespond:
                return
            case .drop(let ending):
                connection.end(ending)
            case .body(let body):
                try await writeComplete(response, body: body)
            case .chunked(let body):
                try await writeChunked(response, body: body)
            case .truncated(let declaredLength, let sent, let ending):
                var headers = response.headers
                headers.replaceOrAdd(name: "Content-Length", value: String(declaredLength))
                channel.write(HTTPServerResponsePart.head(head(response.status, headers)), promise: nil)
                try await channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(bytes: sent))))
                connection.end(ending)
            }
        } catch {
            // Cancelled by shutdown, or the peer went away: there is nobody left to answer.
        }
    }

    private func writeComplete(_ response: TestResponse, body: [UInt8]) async throws {
        var headers = response.headers
        let bodyAllowed = Self.statusAllowsBody(response.status)
        if bodyAllowed, !headers.contains(name: "Content-Length") {
            headers.add(name: "Content-Length", value: String(body.count))
        }
        channel.write(HTTPServerResponsePart.head(head(response.status, headers)), promise: nil)
        if bodyAllowed, request.method != .HEAD, !body.isEmpty {
            channel.write(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(bytes: body))), promise: nil)
        }
        try await finish(headers)
    }

    private func writeChunked(_ response: TestResponse, body: TestChunkedBody) async throws {
        var headers = response.headers
        headers.remove(name: "Content-Length")
        if request.method == .HEAD {
            // The encoder would still write the terminating chunk; a length describes the same body.
            headers.remove(name: "Transfer-Encoding")
            headers.add(name: "Content-Length", value: String(body.totalBytes))
            channel.write(HTTPServerResponsePart.head(head(response.status, headers)), promise: nil)
            return try await finish(headers)
        }
        if !isHTTP2 { headers.replaceOrAdd(name: "Transfer-Encoding", value: "chunked") }
        try await channel.writeAndFlush(HTTPServerResponsePart.head(head(response.status, headers)))

        let explicitChunks: [[UInt8]]
        if case .chunks(let chunks) = body.source { explicitChunks = chunks.filter { !$0.isEmpty } } else { explicitChunks = [] }
        var sent = 0
        for index in 0..<body.chunkCount {
            if let limit = body.abortAfterBytes, sent >= limit { return connection.end(body.abortEnding) }
            if index > 0, body.interval > .zero { try await sleepOffPool(for: body.interval) }
            if index > 0, let gate = body.gate { await gate(index) }
            let chunk: ByteBuffer
            switch body.source {
            case .pattern(let total, let size): chunk = patternChunk(offset: index * size, count: min(size, total - index * size))
            case .chunks: chunk = ByteBuffer(bytes: explicitChunks[index])
            }
            sent += chunk.readableBytes
            try await channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(chunk)))
        }
        if let limit = body.abortAfterBytes, sent >= limit { return connection.end(body.abortEnding) }
        try await finish(headers)
    }

    private func patternChunk(offset: Int, count: Int) -> ByteBuffer {
        var buffer = channel.allocator.buffer(capacity: count)
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { raw in
            TestPattern.fill(UnsafeMutableRawBufferPointer(rebasing: raw.prefix(count)), offset: offset)
            return count
        }
        return buffer
    }

    /// Ends the message, then closes an HTTP/1 connection that must not be reused.
    private func finish(_ headers: HTTPHeaders) async throws {
        try await channel.writeAndFlush(HTTPServerResponsePart.end(nil))
        let closeRequested = headers[canonicalForm: "Connection"].contains { $0.lowercased() == "close" }
        if !isHTTP2, !keepAlive || closeRequested {
            try await channel.close()
        }
    }

    private func head(_ status: HTTPResponseStatus, _ headers: HTTPHeaders) -> HTTPResponseHead {
        HTTPResponseHead(version: request.version == .http1_0 ? .http1_0 : .http1_1, status: status, headers: headers)
    }

    /// 1xx, 204 and 304 responses never carry a body (RFC 9110 §6.4.1).
    static func statusAllowsBody(_ status: HTTPResponseStatus) -> Bool {
        let code = status.code
        return !(100..<200).contains(code) && code != 204 && code != 304
    }
}
