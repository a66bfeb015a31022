import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL
import Testing
import TestSupport
import TestTraits

/// Proves TestSupport's servers put on the wire exactly what they promise, using byte-level and
/// NIO clients only (no AsyncHTTPClient), so the transport tests built on them can be trusted.
@Suite("TestSupport servers", .offPool)
struct TestSupportSelfTests {
    static func get(_ path: String, headers: [String] = [], close: Bool = true) -> String {
        var lines = ["GET \(path) HTTP/1.1", "Host: 127.0.0.1"] + headers
        if close { lines.append("Connection: close") }
        return lines.joined(separator: "\r\n") + "\r\n\r\n"
    }

    static func elapsed(_ body: () async throws -> Void) async rethrows -> Duration {
        let start = ContinuousClock.now
        try await body()
        return ContinuousClock.now - start
    }

    // MARK: Plain HTTP/1.1

    @Test func plainResponseAndRecordedRequest() async throws {
        try await withTestHTTPServer(handler: { request in
            .json(#"{"echo":"\#(request.bodyText)"}"#, status: .created).withHeader("X-Trace", "t1")
        }) { server in
            #expect(server.baseURL.absoluteString == "http://127.0.0.1:\(server.port)")
            let request = "POST /items/7?page=2&q=a%20b&flag HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "Authorization: Bearer abc\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello"
            let exchange = try await RawTestClient.exchange(port: server.port, sending: request)
            #expect(exchange.ending == .closed)
            let response = try #require(RawHTTPResponse(parsing: exchange.received))
            #expect(response.status == 201)
            #expect(response.headers.first(name: "Content-Length") == "16")
            #expect(response.headers.first(name: "Content-Type") == "application/json")
            #expect(response.headers.first(name: "X-Trace") == "t1")
            #expect(response.bodyText == #"{"echo":"hello"}"#)

            let recorded = try #require(server.lastRequest)
            #expect(recorded.method == .POST)
            #expect(recorded.uri == "/items/7?page=2&q=a%20b&flag")
            #expect(recorded.path == "/items/7")
            #expect(recorded.queryItems == [
                URLQueryItem(name: "page", value: "2"), URLQueryItem(name: "q", value: "a b"),
                URLQueryItem(name: "flag", value: nil),
            ])
            #expect(recorded.header("authorization") == "Bearer abc")
            #expect(recorded.bodyText == "hello")
            #expect(recorded.version == .http1_1)
            #expect(recorded.connectionID == 1)
            #expect(server.requestCount == 1)
            #expect(server.connectionCount == 1)
        }
    }

    @Test func malformedQueryEscapesAreKeptNotTrapped() {
        let request = TestRequest(method: .GET, uri: "/p?a=%zz&b=%41&=x", headers: [:])
        #expect(request.queryItems.map(\.name) == ["a", "b", ""])
        #expect(request.query("a") == "%zz")
        #expect(request.query("b") == "A")
    }

    @Test func keepAliveRequestsShareOneConnection() async throws {
        try await withTestHTTPServer(handler: { .ok("path=\($0.path)") }) { server in
            // 100 pipelined requests on one connection: answered in order, none lost.
            let paths = (0..<100).map { "/r\($0)" }
            let request = paths.dropLast().map { Self.get($0, close: false) }.joined() + Self.get("/r99")
            let exchange = try await RawTestClient.exchange(port: server.port, sending: request, readTimeout: .seconds(60))
            #expect(exchange.ending == .closed)
            let responses = RawHTTPResponse.parseAll(exchange.received)
            #expect(responses.map(\.bodyText) == paths.map { "path=\($0)" })
            #expect(Set(server.requests.map(\.connectionID)) == [1])
            #expect(server.connectionCount == 1)

            // Without `Connection: close` the server keeps the connection; stop at the first complete response.
            let held = try await RawTestClient.exchange(
                port: server.port, sending: Self.get("/kept", close: false), stopWhen: RawHTTPResponse.oneComplete
            )
            #expect(held.ending == .stopped)
            #expect(RawHTTPResponse(parsing: held.received)?.bodyText == "path=/kept")
        }
    }

    @Test func headAndNotModifiedCarryNoBody() async throws {
        try await withTestHTTPServer(handler: { request in
            request.path == "/cached" ? .notModified(etag: "\"v1\"") : .ok("twelve bytes")
        }) { server in
            let head = try await RawTestClient.exchange(
                port: server.port, sending: "HEAD / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
            )
            #expect(head.text.hasSuffix("\r\n\r\n"))
            let headResponse = try #require(RawHTTPResponse(parsing: head.received, toHEAD: true))
            #expect(headResponse.headers.first(name: "Content-Length") == "12")

            let notModified = try await RawTestClient.exchange(port: server.port, sending: Self.get("/cached"))
            let response = try #require(RawHTTPResponse(parsing: notModified.received))
            #expect(response.status == 304)
            #expect(response.headers.first(name: "ETag") == "\"v1\"")
            #expect(!response.headers.contains(name: "Content-Length"))
            #expect(notModified.text.hasSuffix("\r\n\r\n"))
        }
    }

    @Test func conditionalAnswers304OnlyForMatchingValidators() {
        let fresh = TestResponse.ok("body").withHeader("Cache-Control", "max-age=60")
        func answer(_ headers: HTTPHeaders) -> TestResponse {
            let request = TestRequest(method: .GET, uri: "/", headers: headers)
            return .conditional(for: request, etag: "\"v2\"", lastModified: "Wed, 21 Oct 2015 07:28:00 GMT", response: fresh)
        }
        #expect(answer([:]).status == .ok)
        #expect(answer([:]).headers.first(name: "ETag") == "\"v2\"")
        #expect(answer(["If-None-Match": "\"v1\""]).status == .ok)
        let matched = answer(["If-None-Match": "\"v0\", W/\"v2\""])
        #expect(matched.status == .notModified)
        #expect(matched.headers.first(name: "Cache-Control") == "max-age=60")
        #expect(answer(["If-None-Match": "*"]).status == .notModified)
        #expect(answer(["If-Modified-Since": "Wed, 21 Oct 2015 07:28:00 GMT"]).status == .notModified)
        // If-None-Match takes precedence over If-Modified-Since (RFC 9110 §13.2.2).
        #expect(answer(["If-None-Match": "\"v1\"", "If-Modified-Since": "Wed, 21 Oct 2015 07:28:00 GMT"]).status == .ok)
    }

    @Test func redirectHelpersChainAndLoop() async throws {
        try await withTestHTTPServer(handler: TestHandlers.routes([
            "/moved": { _ in .redirect(to: "/new", status: .permanentRedirect) },
        ], fallback: TestHandlers.redirectChain(status: .temporaryRedirect, final: .ok("end")))) { server in
            let moved = try #require(RawHTTPResponse(parsing: try await RawTestClient.exchange(
                port: server.port, sending: Self.get("/moved")).received))
            #expect(moved.status == 308)
            #expect(moved.headers.first(name: "Location") == "/new")
            var path = "/redirect/3"
            var hops = 0
            while true {
                let exchange = try await RawTestClient.exchange(port: server.port, sending: Self.get(path))
                let response = try #require(RawHTTPResponse(parsing: exchange.received))
                guard response.status == 307, let next = response.headers.first(name: "Location") else {
                    #expect(response.bodyText == "end")
                    break
                }
                hops += 1
                path = next
            }
            #expect(hops == 3)
        }
        try await withTestHTTPServer(handler: TestHandlers.redirectLoop(status: .movedPermanently)) { server in
            let first = try await RawTestClient.exchange(port: server.port, sending: Self.get("/loop/a"))
            let second = try await RawTestClient.exchange(port: server.port, sending: Self.get("/loop/b"))
            #expect(RawHTTPResponse(parsing: first.received)?.headers.first(name: "Location") == "/loop/b")
            #expect(RawHTTPResponse(parsing: second.received)?.headers.first(name: "Location") == "/loop/a")
            #expect(RawHTTPResponse(parsing: second.received)?.status == 301)
        }
    }

    // MARK: Content codings

    @Test(arguments: TestContentCoding.allCases)
    func encodedBodiesDecodeWithZlib(coding: TestContentCoding) async throws {
        let text = String(repeating: "The quick brown fox jumps over the lazy dog. ", count: 40) + "aaaaaaaaaaaaaaaa!"
        try await withTestHTTPServer(handler: { _ in .encoded(coding, Array(text.utf8)) }) { server in
            let response = try await NIOTestClient.http1(port: server.port, path: "/", decompress: true)
            #expect(response.head.headers.first(name: "Content-Encoding") == coding.rawValue)
            #expect(response.text == text)
        }
    }

    @Test func encodedBodyCanBeStreamedInChunks() async throws {
        let text = String(repeating: "streamed and gzipped ", count: 50)
        try await withTestHTTPServer(handler: { _ in .gzip(text).streamedInChunks(of: 7) }) { server in
            let raw = try await RawTestClient.exchange(port: server.port, sending: Self.get("/"))
            let wire = try #require(RawHTTPResponse(parsing: raw.received))
            #expect(!wire.headers.contains(name: "Content-Length"))
            let sizes = try #require(wire.chunkSizes)
            #expect(sizes.count > 1 && sizes.dropLast().allSatisfy { $0 == 7 })
            let decoded = try await NIOTestClient.http1(port: server.port, path: "/", decompress: true)
            #expect(decoded.text == text)
        }
    }

    @Test(arguments: TestContentCoding.allCases)
    func compressionBombDecodesToDeclaredSize(coding: TestContentCoding) async throws {
        let sizes = [0, 1, 2, 258, 259, 260, 517, 3_000_000]
        try await withTestHTTPServer(handler: { request in
            .compressionBomb(coding, decodedSize: Int(request.path.dropFirst()) ?? 0, byte: UInt8(ascii: "z"))
        }) { server in
            for size in sizes {
                let decoded = try await NIOTestClient.http1(port: server.port, path: "/\(size)", decompress: true)
                #expect(decoded.body.count == size)
                #expect(decoded.body.allSatisfy { $0 == UInt8(ascii: "z") })
            }
            let raw = try await RawTestClient.exchange(port: server.port, sending: Self.get("/3000000"))
            let wire = try #require(RawHTTPResponse(parsing: raw.received))
            #expect(wire.headers.first(name: "Content-Encoding") == coding.rawValue)
            #expect(wire.body.count < 3_000_000 / 900, "ratio near DEFLATE's maximum of ~1030:1")
        }
    }

    @Test func checksumsMatchKnownVectors() {
        // gzip trailer = CRC-32 then size; the CRC of "123456789" is the standard check value.
        let gzip = TestCompression.gzip(Array("123456789".utf8))
        #expect(Array(gzip.suffix(8)) == [0x26, 0x39, 0xF4, 0xCB, 9, 0, 0, 0])
        // zlib trailer = Adler-32, big-endian; "Wikipedia" is the textbook example (0x11E60398).
        #expect(Array(TestCompression.zlib(Array("Wikipedia".utf8)).suffix(4)) == [0x11, 0xE6, 0x03, 0x98])
        // The run encoders checksum without materialising the run; they must agree with the plain ones.
        for count in [0, 1, 2, 3, 4, 258, 259, 260, 261, 70_000, 1_048_583, (32 << 20) + 3] {
            let run = [UInt8](repeating: 7, count: count)
            #expect(TestCompression.gzip(repeating: 7, count: count).suffix(8) == TestCompression.gzip(run).suffix(8))
            #expect(TestCompression.zlib(repeating: 7, count: count).suffix(4) == TestCompression.zlib(run).suffix(4))
        }
        // A gigabyte bomb is built in a blink and stays about a thousandth of its decoded size.
        var bomb: [UInt8] = []
        let duration = ContinuousClock().measure { bomb = TestCompression.gzip(repeating: 0, count: 1 << 30) }
        #expect(duration < atOnce)
        #expect(bomb.count < (1 << 30) / 1_000)
        #expect(Array(bomb.suffix(4)) == [0, 0, 0, 64], "ISIZE = 2^30")
    }

    // MARK: Streaming and broken bodies

    @Test func chunkedPatternArrivesInDeclaredChunks() async throws {
        try await withTestHTTPServer(handler: { _ in .chunked(totalBytes: 100_000, chunkSize: 16_384) }) { server in
            let exchange = try await RawTestClient.exchange(port: server.port, sending: Self.get("/"))
            let response = try #require(RawHTTPResponse(parsing: exchange.received))
            #expect(response.headers.first(name: "Transfer-Encoding") == "chunked")
            #expect(!response.headers.contains(name: "Content-Length"))
            #expect(response.chunkSizes == Array(repeating: 16_384, count: 6) + [1_696])
            #expect(response.isComplete)
            #expect(response.body == TestPattern.bytes(count: 100_000))
        }
    }

    @Test func slowDripWaitsBetweenChunks() async throws {
        try await withTestHTTPServer(handler: { _ in .chunked(["a", "", "b", "c"], interval: .milliseconds(60)) }) { server in
            var exchange: RawTestClient.Exchange?
            let duration = try await Self.elapsed {
                exchange = try await RawTestClient.exchange(port: server.port, sending: Self.get("/"))
            }
            let received = try #require(exchange).received
            let response = try #require(RawHTTPResponse(parsing: received))
            #expect(response.chunkSizes == [1, 1, 1])
            #expect(response.bodyText == "abc")
            #expect(duration >= .milliseconds(120), "two pauses between three chunks")
        }
    }

    @Test(arguments: [TestResponse.ConnectionEnding.close, .reset])
    func chunkedStreamCanBeCutMidBody(ending: TestResponse.ConnectionEnding) async throws {
        try await withTestHTTPServer(handler: { _ in
            .chunked(totalBytes: 10_000, chunkSize: 1_000, abortAfterBytes: 2_500, abortEnding: ending)
        }) { server in
            let exchange = try await RawTestClient.exchange(port: server.port, sending: Self.get("/"))
            #expect(exchange.ending == (ending == .close ? .closed : .reset))
            let response = try #require(RawHTTPResponse(parsing: exchange.received))
            #expect(!response.isComplete)
            #expect(response.chunkSizes == [1_000, 1_000, 1_000])
        }
    }

    @Test(arguments: [TestResponse.ConnectionEnding.close, .reset])
    func truncatedBodyEndsTheConnectionEarly(ending: TestResponse.ConnectionEnding) async throws {
        try await withTestHTTPServer(handler: { _ in .truncated(declaredLength: 100, sentBytes: 40, ending: ending) }) { server in
            let exchange = try await RawTestClient.exchange(port: server.port, sending: Self.get("/", close: false))
            #expect(exchange.ending == (ending == .close ? .closed : .reset))
            let response = try #require(RawHTTPResponse(parsing: exchange.received))
            #expect(response.headers.first(name: "Content-Length") == "100")
            #expect(!response.isComplete)
            // RST may discard bytes still in flight; FIN never does.
            if ending == .close { #expect(response.body == TestPattern.bytes(count: 40)) }
        }
    }

    @Test func dropEndsTheConnectionWithoutAResponse() async throws {
        try await withTestHTTPServer(handler: { $0.path == "/close" ? .closeConnection : .resetConnection }) { server in
            let closed = try await RawTestClient.exchange(port: server.port, sending: Self.get("/close", close: false))
            #expect(closed.ending == .closed)
            #expect(closed.received.isEmpty)
            let reset = try await RawTestClient.exchange(port: server.port, sending: Self.get("/reset", close: false))
            #expect(reset.ending == .reset)
            #expect(reset.received.isEmpty)
            #expect(server.requestCount == 2)
        }
    }

    @Test func neverRespondHoldsTheConnectionOpen() async throws {
        try await withTestHTTPServer(handler: { _ in .neverRespond }) { server in
            // 5 s: the client's close can discard a request a starved server has not read yet.
            let exchange = try await RawTestClient.exchange(
                port: server.port, sending: Self.get("/"), readTimeout: .seconds(5)
            )
            #expect(exchange.ending == .timedOut)
            #expect(exchange.received.isEmpty)
            _ = try await server.waitForRequests(count: 1)
            #expect(server.requestCount == 1)
        }
    }

    @Test func delayedResponseWaitsRealTime() async throws {
        try await withTestHTTPServer(handler: { _ in .ok("late").delayed(by: .milliseconds(150)) }) { server in
            var exchange: RawTestClient.Exchange?
            let duration = try await Self.elapsed {
                exchange = try await RawTestClient.exchange(port: server.port, sending: Self.get("/"))
            }
            let received = try #require(exchange).received
            #expect(RawHTTPResponse(parsing: received)?.bodyText == "late")
            #expect(duration >= .milliseconds(150))
        }
    }

    @Test func handlerStateSupportsATokenRefreshServer() async throws {
        let validToken = LockedValue("old")
        try await withTestHTTPServer(handler: TestHandlers.routes([
            "/refresh": { _ in
                validToken.value = "fresh"
                return .json(#"{"access_token":"fresh"}"#)
            },
            "/me": { request in
                request.header("Authorization") == "Bearer \(validToken.value)" ? .json(#"{"id":1}"#) : .status(.unauthorized)
            },
        ])) { server in
            func me(_ token: String) async throws -> Int? {
                let exchange = try await RawTestClient.exchange(
                    port: server.port, sending: Self.get("/me", headers: ["Authorization: Bearer \(token)"])
                )
                return RawHTTPResponse(parsing: exchange.received)?.status
            }
            #expect(try await me("fresh") == 401)
            _ = try await RawTestClient.exchange(port: server.port, sending: Self.get("/refresh"))
            #expect(try await me("fresh") == 200)
            #expect(server.requests.map(\.path) == ["/me", "/refresh", "/me"])
        }
    }

    // MARK: Lifecycle

    @Test func countingWithoutRecording() async throws {
        let server = try await TestHTTPServer.start(recordsRequests: false) { _ in .ok() }
        _ = try await RawTestClient.exchange(port: server.port, sending: Self.get("/"))
        try await server.waitForRequests(count: 1)
        #expect(server.requestCount == 1)
        #expect(server.requests.isEmpty)
        try await server.shutdown()
    }

    @Test func shutdownIsPromptWithHungConnectionsAndIdempotent() async throws {
        let server = try await TestHTTPServer.start { request in
            request.path == "/slow" ? .ok("too late").delayed(by: .seconds(300)) : .neverRespond
        }
        let port = server.port
        let clients = ["/hang", "/slow"].map { path in
            Task { try await RawTestClient.exchange(port: port, sending: Self.get(path), readTimeout: .seconds(120)) }
        }
        try await server.waitForRequests(count: 2)
        #expect(server.openConnectionCount == 2)
        let duration = try await Self.elapsed { try await server.shutdown() }
        #expect(duration < atOnce)  // not the delay
        for client in clients {
            let exchange = try await client.value
            #expect(exchange.ending != .timedOut, "the client saw the server drop it")
            #expect(exchange.received.isEmpty)
        }
        #expect(server.openConnectionCount == 0)
        try await server.shutdown()
        await #expect(throws: (any Error).self) {
            try await RawTestClient.exchange(port: port, sending: Self.get("/"))
        }
    }

    @Test func waitForRequestsTimesOut() async throws {
        try await withTestHTTPServer(handler: { _ in .ok() }) { server in
            await #expect(throws: TestServerError.self) {
                try await server.waitForRequests(count: 1, timeout: .milliseconds(50))
            }
        }
    }

    // MARK: TLS, mutual TLS, HTTP/2

    @Test func committedPinsMatchTheCertificates() throws {
        for identity in [TestCertificates.server, TestCertificates.otherServer, TestCertificates.selfSigned] {
            let spki = try identity.certificate().extractPublicKey().toSPKIBytes()
            let pin = Data(SHA256.hash(spki)).base64EncodedString()
            #expect(try identity.opensslSPKIPin() == pin, "pin of \(identity)")
        }
        #expect(try TestCertificates.server.opensslSPKIPin() != TestCertificates.otherServer.opensslSPKIPin())
        #expect(throws: TestCertificateError.self) { try TestCertificates.ca.opensslSPKIPin() }
        #expect(FileManager.default.fileExists(atPath: TestCertificates.client.privateKeyPath))
        // Known answer, so the SHA-256 used above is itself trustworthy.
        #expect(SHA256.hash(Array("abc".utf8)).map { String(format: "%02x", $0) }.joined()
            == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func httpsWithTheTestCA() async throws {
        try await withTestHTTPServer(tls: .trusted, handler: { _ in .ok("secure") }) { server in
            #expect(server.baseURL.scheme == "https")
            let exchange = try await RawTestClient.exchange(
                port: server.port, tls: .init(applicationProtocols: ["http/1.1"]), sending: Self.get("/")
            )
            #expect(exchange.negotiatedProtocol == "http/1.1")
            #expect(RawHTTPResponse(parsing: exchange.received)?.bodyText == "secure")
            #expect(server.tlsHandshakeCount == 1)
            #expect(server.lastRequest?.clientCertificate == nil)
        }
    }

    @Test(arguments: [TestServerTLS.untrusted, .selfSigned, .expired, .wrongHost])
    func untrustedCertificatesFailVerification(tls: TestServerTLS) async throws {
        try await withTestHTTPServer(tls: tls, handler: { _ in .ok() }) { server in
            let exchange = try await RawTestClient.exchange(port: server.port, tls: .init(), sending: Self.get("/"))
            guard case .failed(let reason) = exchange.ending else {
                Issue.record("\(tls.identity) was accepted: \(exchange.ending)")
                return
            }
            let expected = tls.identity == TestCertificates.wrongHost ? "failedToValidateHostname" : "CERTIFICATE_VERIFY_FAILED"
            #expect(reason.contains(expected), "\(reason)")
            #expect(exchange.received.isEmpty)
            #expect(server.requestCount == 0)
        }
    }

    @Test func mutualTLSRequiresAClientCertificate() async throws {
        try await withTestHTTPServer(tls: .mutual, handler: { _ in .ok("hello client") }) { server in
            let anonymous = try await RawTestClient.exchange(port: server.port, tls: .init(), sending: Self.get("/"))
            guard case .failed(let reason) = anonymous.ending else {
                Issue.record("a client without certificate got: \(anonymous.ending)")
                return
            }
            #expect(reason.contains("CERTIFICATE_REQUIRED"), "\(reason)")
            #expect(server.requestCount == 0)
            #expect(server.tlsHandshakeCount == 0)

            let authenticated = try await RawTestClient.exchange(
                port: server.port, tls: .init(clientIdentity: TestCertificates.client), sending: Self.get("/")
            )
            #expect(RawHTTPResponse(parsing: authenticated.received)?.bodyText == "hello client")
            #expect(server.lastRequest?.clientCertificate == (try TestCertificates.client.certificate()))
        }
    }

    @Test func http2IsOfferedByALPN() async throws {
        try await withTestHTTPServer(tls: .trusted, handler: { request in
            switch request.path {
            case "/stream": .chunked(totalBytes: 50_000, chunkSize: 10_000)
            case "/cut": .truncated(declaredLength: 1_000, sentBytes: 10, ending: .reset)
            default: .ok("over \(request.version)")
            }
        }) { server in
            let plain = try await NIOTestClient.http2(port: server.port, path: "/plain")
            #expect(plain.head.status == .ok)
            #expect(plain.text == "over HTTP/2.0")
            let streamed = try await NIOTestClient.http2(port: server.port, path: "/stream")
            #expect(streamed.body == TestPattern.bytes(count: 50_000))
            #expect(server.requests.map(\.version) == [HTTPVersion(major: 2, minor: 0), HTTPVersion(major: 2, minor: 0)])
            #expect(server.requests.first?.header("host") == "127.0.0.1:\(server.port)")
            await #expect(throws: (any Error).self, "a truncated HTTP/2 body fails the stream") {
                try await NIOTestClient.http2(port: server.port, path: "/cut")
            }

            let offeredBoth = try await RawTestClient.exchange(
                port: server.port, tls: .init(applicationProtocols: ["h2", "http/1.1"]), sending: Self.get("/"),
                stopWhen: { !$0.isEmpty }
            )
            #expect(offeredBoth.negotiatedProtocol == "h2", "h2 preferred when the client offers it")
        }
        try await withTestHTTPServer(tls: TestServerTLS.trusted.http1Only(), handler: { _ in .ok() }) { server in
            let exchange = try await RawTestClient.exchange(
                port: server.port, tls: .init(applicationProtocols: ["h2", "http/1.1"]), sending: Self.get("/")
            )
            #expect(exchange.negotiatedProtocol == "http/1.1")
        }
    }

    // MARK: Raw servers

    @Test func blackholeConnectHangs() async throws {
        let blackhole = try BlackholeServer.start()
        defer { blackhole.shutdown() }
        let duration = await Self.elapsed {
            await #expect(throws: ChannelError.connectTimeout(.milliseconds(300))) {
                try await RawTestClient.exchange(
                    port: blackhole.port, sending: Self.get("/"), connectTimeout: .milliseconds(300)
                )
            }
        }
        #expect(duration >= .milliseconds(300))
        #expect(duration < atOnce)
    }

    @Test func closedPortRefusesAtOnce() async throws {
        let port = try TestPorts.closedPort()
        #expect(try TestPorts.closedPort() == port)
        let duration = await Self.elapsed {
            await #expect(throws: (any Error).self) {
                try await RawTestClient.exchange(port: port, sending: Self.get("/"), connectTimeout: .seconds(120))
            }
        }
        #expect(duration < atOnce)  // refused, not the connect timeout
    }

    @Test func silentServerStallsTheTLSHandshake() async throws {
        let silent = try await SilentTCPServer.start()
        let exchange = try await RawTestClient.exchange(
            port: silent.port, tls: .init(), sending: Self.get("/"), readTimeout: .milliseconds(250)
        )
        #expect(exchange.ending == .timedOut)
        #expect(exchange.negotiatedProtocol == nil)
        #expect(silent.connectionCount == 1)
        // The server's thread may count the ClientHello after the client gave up (a busy machine).
        let deadline = ContinuousClock.now + .seconds(60)
        while silent.receivedByteCount == 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(silent.receivedByteCount > 0, "the ClientHello arrived and went unanswered")
        try await silent.shutdown()
    }
}
