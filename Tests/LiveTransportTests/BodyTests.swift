import DispatcherCore
import Foundation
import LiveTransport
import TestSupport
import Testing
import TestTraits

@Suite("Bodies: cap and decompression", .offPool)
struct BodyTests {
    @Test func aBodyPastTheCapEndsWithBodyTooLargeKeepingWhatArrived() async throws {
        try await withServerAndTransport(handler: { _ in .chunked(totalBytes: 1_000_000, chunkSize: 16_384) }) { server, transport in
            let environment = liveEnvironment(server.baseURL, maximumBodySize: 100_000)
            let error = await failure(of: request(server.url("/huge"), in: environment), through: transport)
            #expect(error?.code == .bodyTooLarge)
            #expect(error?.message == "The response body is larger than the limit of 100 kB; the first 100 kB are kept.")
            let partial = try #require(error?.partialResponse)
            #expect(partial.status == 200)
            #expect(partial.body == Data(TestPattern.bytes(count: 100_000)))
            try await waitUntil { server.openConnectionCount == 0 }
        }
    }

    @Test func aBodyExactlyAtTheCapIsAccepted() async throws {
        try await withServerAndTransport(handler: { _ in .bytes(TestPattern.bytes(count: 4096)) }) { server, transport in
            let response = try await transport.send(request(server.url("/"), in: liveEnvironment(server.baseURL, maximumBodySize: 4096)))
            #expect(response.body.count == 4096)
        }
    }

    @Test(arguments: TestContentCoding.allCases)
    func compressedBodiesAreDecoded(coding: TestContentCoding) async throws {
        let text = String(repeating: "apiexplorer ", count: 500)
        try await withServerAndTransport(handler: { _ in .encoded(coding, Array(text.utf8)) }) { server, transport in
            let response = try await transport.send(request(server.url("/"), in: liveEnvironment(server.baseURL)))
            #expect(response.text == text)
            #expect(response.headers["Content-Encoding"] == coding.rawValue)
        }
    }

    @Test func aStreamedGzipBodyIsDecoded() async throws {
        try await withServerAndTransport(handler: { _ in .gzip("streamed and compressed").streamedInChunks(of: 7) }) { server, transport in
            let response = try await transport.send(request(server.url("/"), in: liveEnvironment(server.baseURL)))
            #expect(response.text == "streamed and compressed")
        }
    }

    @Test func aCompressionBombStopsAtTheCapAsBodyTooLarge() async throws {
        // ~1 MB on the wire that inflates to 1 GB: stopped at the 1 MiB cap, never inflated in full.
        // Built before the clock starts: the bound is on the transport, not on the test's encoder.
        let bomb = TestResponse.compressionBomb(.gzip, decodedSize: 1 << 30)
        try await withServerAndTransport(handler: { _ in bomb }) { server, transport in
            let environment = liveEnvironment(server.baseURL, maximumBodySize: 1 << 20)
            let (error, time) = await elapsed { await failure(of: request(server.url("/bomb"), in: environment), through: transport) }
            #expect(error?.code == .bodyTooLarge)
            #expect(error?.message.contains("decompressed") == true)
            #expect((error?.partialResponse?.body.count ?? .max) <= 1 << 20)
            #expect(time < atOnce)
        }
    }

    @Test func aDamagedCompressedBodyFailsWithCannotDecode() async throws {
        var bytes = TestContentCoding.gzip.encode(Array(String(repeating: "x", count: 1000).utf8))
        bytes[12] ^= 0xFF
        bytes[13] ^= 0xFF
        let damaged = bytes
        try await withServerAndTransport(handler: { _ in .bytes(damaged, headers: ["Content-Encoding": "gzip"]) }) { server, transport in
            let error = await failure(of: request(server.url("/"), in: liveEnvironment(server.baseURL)), through: transport)
            #expect(error?.code == .cannotDecodeContentData)
        }
    }

    @Test func bodyTooLargeMapsToItsKindThroughTheDispatcher() async throws {
        try await withServerAndTransport(handler: { _ in .bytes(TestPattern.bytes(count: 10_000)) }) { server, transport in
            let dispatcher = Dispatcher<Target>(environment: liveEnvironment(server.baseURL, maximumBodySize: 1000), transport: transport)
            let exchange = await dispatcher.send(Target(.get, "/"))
            #expect(exchange.error?.kind == .bodyTooLarge)
            // Content-Length declared 10,000 bytes: refused at the head, nothing read.
            #expect(exchange.error?.response?.body.count == 0)
            #expect(exchange.error?.response?.isTruncated == true)
        }
    }
}

/// Limits that hold before memory or time is spent: a declared length over the cap is refused at
/// the head; a cut body says so.
@Suite("Bodies: refused before reading", .offPool)
struct BodyLimitTests {
    @Test func aDeclaredLengthOverTheCapIsRefusedAtOnce() async throws {
        // The head declares 10 MB, then nothing more comes: without the check this waits for the read timeout.
        let handler: TestHTTPServer.Handler = { _ in .truncated(declaredLength: 10_000_000, sentBytes: 10, ending: .stall) }
        try await withServerAndTransport(handler: handler) { server, transport in
            let environment = liveEnvironment(server.baseURL, maximumBodySize: 1_000_000)
            let (error, time) = await elapsed { await failure(of: request(server.url("/huge"), in: environment), through: transport) }
            #expect(error?.code == .bodyTooLarge)
            #expect(error?.message == "The server declared a body of 10 MB (Content-Length: 10000000), larger than the limit of 1.0 MB (1000000 bytes); it was refused before reading it.")
            #expect(error?.partialResponse?.status == 200)
            #expect(error?.partialResponse?.isTruncated == true)
            #expect(time < atOnce, "\(time)")
        }
    }

    @Test func aBodyCutAtTheCapIsMarkedTruncated() async throws {
        try await withServerAndTransport(handler: { _ in .chunked(totalBytes: 200_000, chunkSize: 16_384) }) { server, transport in
            let error = await failure(of: request(server.url("/"), in: liveEnvironment(server.baseURL, maximumBodySize: 50_000)), through: transport)
            #expect(error?.code == .bodyTooLarge)
            #expect(error?.partialResponse?.isTruncated == true)
            #expect(error?.partialResponse?.body.count == 50_000)
        }
    }

    @Test func aGzipBombDeclaringItsSmallLengthIsCutAtTheCapQuickly() async throws {
        // 10 MB decoded from ~10 kB: the decoder's output is counted as it is produced.
        try await withServerAndTransport(handler: { _ in .compressionBomb(.gzip, decodedSize: 10_000_000) }) { server, transport in
            let environment = liveEnvironment(server.baseURL, maximumBodySize: 100_000)
            let (error, time) = await elapsed { await failure(of: request(server.url("/bomb"), in: environment), through: transport) }
            #expect(error?.code == .bodyTooLarge)
            #expect((error?.partialResponse?.body.count ?? .max) <= 100_000)
            #expect(error?.partialResponse?.isTruncated == true)
            #expect(time < atOnce, "\(time)")
        }
    }

    @Test func aReadTimeoutMidBodySaysWhatArrived() async throws {
        let handler: TestHTTPServer.Handler = { _ in .truncated(declaredLength: 1000, sentBytes: 100, ending: .stall) }
        try await withServerAndTransport(handler: handler) { server, transport in
            // Long enough for the head to arrive at a starved start of the whole suite.
            let environment = liveEnvironment(server.baseURL, timeouts: Timeouts(connect: .seconds(60), read: atOnce, total: .seconds(240)))
            let (error, time) = await elapsed { await failure(of: request(server.url("/slow"), in: environment), through: transport) }
            #expect(error?.code == .timedOut)
            let message = error?.message ?? ""
            #expect(message.contains("sent nothing more for"), "\(message)")
            #expect(message.contains("The head (200 OK) arrived after"), "\(message)")
            #expect(message.hasSuffix("then 100 bytes of the body of the 1000 bytes declared."), "\(message)")
            #expect(time < atOnce + atOnce, "\(time)")
        }
    }
}
