import DispatcherCore
import Foundation
import Synchronization
import Testing
import TestTraits

/// The cookie jar against the cases of RFC 6265: host-only and domain cookies, path matching,
/// Secure, Expires and Max-Age, replacement and ordering.
@Suite(.offPool) struct CookieJarTests {
    let now = Date(timeIntervalSince1970: 1_700_000_000)
    func url(_ text: String) -> URL { URL(string: text)! }

    @Test func aHostOnlyCookieGoesBackToItsHostOnly() {
        let jar = CookieJar()
        jar.store(setCookie: ["sid=abc; Path=/"], from: url("http://api.example.com/login"), at: now)
        #expect(jar.header(for: url("http://api.example.com/me"), at: now) == "sid=abc")
        #expect(jar.header(for: url("http://www.api.example.com/me"), at: now) == nil)
        #expect(jar.header(for: url("http://example.com/me"), at: now) == nil)
    }

    @Test func aDomainCookieCoversSubdomainsAndAForeignDomainIsRefused() {
        let jar = CookieJar()
        jar.store(setCookie: ["a=1; Domain=.example.com", "b=2; Domain=other.org", "c=3; Domain=com"], from: url("http://api.example.com/"), at: now)
        #expect(jar.header(for: url("http://www.example.com/"), at: now) == "a=1")
        #expect(jar.header(for: url("http://example.com/"), at: now) == "a=1")
        #expect(jar.all(at: now).map(\.name) == ["a"])
    }

    @Test func pathsMatchAtSlashBoundariesAndTheDefaultIsTheDirectory() {
        let jar = CookieJar()
        jar.store(setCookie: ["p=1; Path=/docs", "d=2"], from: url("http://h.example/docs/guide/page"), at: now)
        #expect(jar.header(for: url("http://h.example/docs"), at: now) == "p=1")
        #expect(jar.header(for: url("http://h.example/docs/guide/x"), at: now) == "d=2; p=1", "longer paths first")
        #expect(jar.header(for: url("http://h.example/docsearch"), at: now) == nil)
        #expect(jar.all(at: now).first { $0.name == "d" }?.path == "/docs/guide")
    }

    @Test func secureCookiesAreNeitherSetNorSentOverHTTP() {
        let jar = CookieJar()
        jar.store(setCookie: ["s=1; Secure"], from: url("http://h.example/"), at: now)
        #expect(jar.all(at: now).isEmpty)
        jar.store(setCookie: ["s=1; Secure; HttpOnly"], from: url("https://h.example/"), at: now)
        #expect(jar.header(for: url("https://h.example/"), at: now) == "s=1")
        #expect(jar.header(for: url("http://h.example/"), at: now) == nil)
    }

    /// A loopback host is a secure context (curl, browsers): a development server's Secure cookie works.
    @Test func secureCookiesWorkOnLoopbackOverHTTP() {
        let jar = CookieJar()
        jar.store(setCookie: ["s=1; Secure"], from: url("http://127.0.0.1:8080/"), at: now)
        jar.store(setCookie: ["t=2; Secure"], from: url("http://localhost:8080/"), at: now)
        #expect(jar.header(for: url("http://127.0.0.1:9/"), at: now) == "s=1")
        #expect(jar.header(for: url("http://localhost/"), at: now) == "t=2")
        jar.store(setCookie: ["u=3; Secure"], from: url("http://127.0.0.1.example/"), at: now)
        #expect(jar.all(at: now).map(\.name) == ["s", "t"])
    }

    @Test func expiresAndMaxAgeBoundALifeAndMaxAgeWins() {
        let jar = CookieJar()
        jar.store(setCookie: [
            "e=1; Expires=Wed, 15 Nov 2023 00:00:00 GMT",
            "m=2; Max-Age=60; Expires=Thu, 01 Jan 1970 00:00:00 GMT",
            "old=3; Expires=Sun, 06-Nov-1994 08:49:37 GMT",
        ], from: url("http://h.example/"), at: now)
        #expect(jar.header(for: url("http://h.example/"), at: now) == "e=1; m=2")
        #expect(jar.header(for: url("http://h.example/"), at: now.addingTimeInterval(61)) == "e=1")
        #expect(jar.header(for: url("http://h.example/"), at: Date(timeIntervalSince1970: 1_700_006_400)) == nil)
    }

    @Test func aCookieIsReplacedByNameDomainAndPathAndDeletedByAPastExpiry() {
        let jar = CookieJar()
        jar.store(setCookie: ["sid=one"], from: url("http://h.example/"), at: now)
        jar.store(setCookie: ["sid=two"], from: url("http://h.example/"), at: now.addingTimeInterval(5))
        #expect(jar.header(for: url("http://h.example/"), at: now) == "sid=two")
        #expect(jar.all(at: now).first?.created == now, "the creation time of the replaced cookie is kept")
        jar.store(setCookie: ["sid=; Max-Age=0"], from: url("http://h.example/"), at: now)
        #expect(jar.header(for: url("http://h.example/"), at: now) == nil)
    }

    @Test func malformedValuesAreIgnored() {
        let jar = CookieJar()
        jar.store(setCookie: ["", "novalue", "=x", "; Path=/"], from: url("http://h.example/"), at: now)
        #expect(jar.all(at: now).isEmpty)
    }

    @Test func thePluginStoresAndSendsThroughTheDispatcher() async throws {
        let jar = CookieJar()
        let transport = CookieEchoTransport()
        let dispatcher = Dispatcher<CookieTarget>(
            environment: Environment(name: "t", baseURL: URL(string: "http://h.example")!, fixtures: .never),
            transport: transport, plugins: [CookiePlugin(jar: jar, now: { Date(timeIntervalSince1970: 1_700_000_000) })])
        // The login answers 200 without a body (mapped to noData for a GET): its cookie is kept all the same.
        let login = await dispatcher.send(CookieTarget(path: "/login"))
        #expect(login.error?.kind == .noData)
        #expect(jar.all(at: Date(timeIntervalSince1970: 1_700_000_000)).map(\.name) == ["sid"])
        let exchange = await dispatcher.send(CookieTarget(path: "/me"))
        #expect(exchange.request.headers["Cookie"] == "sid=s3cret")
        #expect(transport.received.withLock { $0 } == [nil, "sid=s3cret"])
    }
}

/// Answers `/login` with a cookie and records the Cookie header of every request.
final class CookieEchoTransport: Transport, Sendable {
    let received = Mutex<[String?]>([])

    func send(_ request: Request) async throws(TransportError) -> Response {
        received.withLock { $0.append(request.headers["Cookie"]) }
        let headers = request.url.path == "/login" ? Headers([("Set-Cookie", "sid=s3cret; Path=/; HttpOnly")], origin: .server) : Headers()
        return Response(status: 200, headers: headers, body: Data(), url: request.url)
    }
}

struct CookieTarget: TargetType {
    var path: String
    var method: HTTPMethod { .get }
}
