import DispatcherCore
import Foundation
import LiveTransport
import NIOHTTP1
import Synchronization
import TestSupport
import Testing
import TestTraits

@Suite("HTTPTransport basics", .offPool)
struct TransportBasicsTests {
    @Test func getReturnsStatusHeadersBodyVersionAndTiming() async throws {
        try await withServerAndTransport(handler: { _ in .json(#"{"id":7}"#).withHeader("X-Trace", "t1") }) { server, transport in
            let environment = liveEnvironment(server.baseURL)
            let response = try await transport.send(request(server.url("/pets/7?expand=owner"), in: environment))
            #expect(response.status == 200)
            #expect(response.text == #"{"id":7}"#)
            #expect(response.headers["x-trace"] == "t1")
            #expect(response.headers.field(named: "X-Trace")?.origin == .server)
            #expect(response.httpVersion == "HTTP/1.1")
            #expect(response.source == .network)
            #expect(response.url == server.url("/pets/7?expand=owner"))
            #expect(response.redirects.isEmpty)
            let firstByte = try #require(response.timing.firstByte)
            #expect(firstByte > .zero && firstByte <= response.timing.total)

            let seen = try #require(server.lastRequest)
            #expect(seen.uri == "/pets/7?expand=owner")
            #expect(seen.header("User-Agent") == "apiexplorer")
            #expect(seen.header("Accept-Encoding") == "gzip, deflate")
        }
    }

    @Test func postSendsMethodHeadersAndBody() async throws {
        try await withServerAndTransport(handler: { .json(#"{"got":"\#($0.bodyText)"}"#, status: .created) }) { server, transport in
            let environment = liveEnvironment(server.baseURL)
            var headers = Headers()
            headers.set("Content-Type", "text/plain", origin: .body)
            headers.set("X-Custom", "one", origin: .endpoint)
            headers.add("X-Custom", "two", origin: .endpoint)
            let response = try await transport.send(
                request(server.url("/items"), .post, in: environment, headers: headers, body: Data("hello".utf8)))
            #expect(response.status == 201)
            #expect(response.text == #"{"got":"hello"}"#)
            let seen = try #require(server.lastRequest)
            #expect(seen.method == .POST)
            #expect(seen.header("Content-Type") == "text/plain")
            #expect(seen.headers["X-Custom"] == ["one", "two"])
            #expect(seen.bodyText == "hello")
        }
    }

    @Test func requestHeadersWinOverTransportDefaults() async throws {
        try await withServerAndTransport(handler: { _ in .ok() }) { server, transport in
            let headers: Headers = ["User-Agent": "mine/1.0", "Accept-Encoding": "identity"]
            _ = try await transport.send(request(server.url("/"), in: liveEnvironment(server.baseURL), headers: headers))
            let seen = try #require(server.lastRequest)
            #expect(seen.headers["User-Agent"] == ["mine/1.0"])
            #expect(seen.headers["Accept-Encoding"] == ["identity"])
        }
    }

    @Test func http2IsUsedWhenTheServerOffersIt() async throws {
        try await withServerAndTransport(tls: .trusted, handler: { _ in .ok("over h2") }) { server, transport in
            let response = try await transport.send(request(server.url("/"), in: liveEnvironment(server.baseURL, trust: testCATrust)))
            #expect(response.httpVersion == "HTTP/2")
            #expect(response.text == "over h2")
            #expect(server.lastRequest?.version == .init(major: 2, minor: 0))
        }
    }

    @Test func http1OnlyConfigurationNeverNegotiatesHTTP2() async throws {
        try await withServerAndTransport(tls: .trusted, handler: { _ in .ok() }, configure: { $0.allowsHTTP2 = false }) { server, transport in
            let response = try await transport.send(request(server.url("/"), in: liveEnvironment(server.baseURL, trust: testCATrust)))
            #expect(response.httpVersion == "HTTP/1.1")
        }
    }

    @Test func progressReportsBytesAsTheyArrive() async throws {
        let reports = Mutex<[(Int, Int?)]>([])
        let options = RequestOptions(progress: { received, expected in reports.withLock { $0.append((received, expected)) } })
        try await withServerAndTransport(handler: { _ in .chunked(totalBytes: 40_000, chunkSize: 10_000, interval: .milliseconds(5)) }) { server, transport in
            let response = try await transport.send(request(server.url("/big"), in: liveEnvironment(server.baseURL), options: options))
            #expect(response.body.count == 40_000)
            #expect(response.body == Data(TestPattern.bytes(count: 40_000)))
        }
        let seen = reports.withLock { $0 }
        #expect(seen.count >= 2)
        #expect(seen.map(\.0) == seen.map(\.0).sorted())
        #expect(seen.last?.0 == 40_000)
        #expect(seen.allSatisfy { $0.1 == nil })  // chunked: no length announced
    }

    @Test func progressKnowsTheExpectedLengthFromContentLength() async throws {
        let last = Mutex<(Int, Int?)?>(nil)
        let options = RequestOptions(progress: { received, expected in last.withLock { $0 = (received, expected) } })
        try await withServerAndTransport(handler: { _ in .bytes(TestPattern.bytes(count: 5000)) }) { server, transport in
            _ = try await transport.send(request(server.url("/"), in: liveEnvironment(server.baseURL), options: options))
        }
        let final = try #require(last.withLock { $0 })
        #expect(final.0 == 5000)
        #expect(final.1 == 5000)
    }

    @Test func connectionsAreReusedAndOneClientServesOneTrustConfiguration() async throws {
        try await withServerAndTransport(handler: { _ in .ok() }) { server, transport in
            let environment = liveEnvironment(server.baseURL)
            for _ in 0..<5 { _ = try await transport.send(request(server.url("/"), in: environment)) }
            #expect(server.connectionCount == 1)
            #expect(transport.clientCount == 1)

            var insecure = environment
            insecure.trust = ServerTrust(allowInsecure: true)
            _ = try await transport.send(request(server.url("/"), in: insecure))
            #expect(transport.clientCount == 2)
        }
    }

    @Test func shutdownIsIdempotentAndLaterRequestsFailClearly() async throws {
        try await withTestHTTPServer(handler: { _ in .ok() }) { server in
            let transport = HTTPTransport(configuration: .init(proxy: .none))
            _ = try await transport.send(request(server.url("/"), in: liveEnvironment(server.baseURL)))
            try await transport.shutdown()
            try await transport.shutdown()
            let error = await failure(of: request(server.url("/"), in: liveEnvironment(server.baseURL)), through: transport)
            #expect(error?.code == .cancelled)
            #expect(error?.message.contains("shut down") == true)
        }
    }
}
