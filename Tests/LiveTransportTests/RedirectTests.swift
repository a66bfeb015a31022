import DispatcherCore
import Foundation
import LiveTransport
import NIOHTTP1
import TestSupport
import Testing
import TestTraits

@Suite("Redirects", .offPool)
struct RedirectTests {
    @Test func aChainIsFollowedAndKeptForDisplay() async throws {
        try await withServerAndTransport(handler: TestHandlers.redirectChain(status: .movedPermanently)) { server, transport in
            let response = try await transport.send(request(server.url("/redirect/3"), in: liveEnvironment(server.baseURL)))
            #expect(response.status == 200)
            #expect(response.text == "done")
            #expect(response.url == server.url("/redirect/0"))
            #expect(response.redirects == [
                Redirect(status: 301, from: server.url("/redirect/3"), to: server.url("/redirect/2")),
                Redirect(status: 301, from: server.url("/redirect/2"), to: server.url("/redirect/1")),
                Redirect(status: 301, from: server.url("/redirect/1"), to: server.url("/redirect/0")),
            ])
            #expect(server.requestCount == 4)
        }
    }

    @Test func aLoopIsDetected() async throws {
        try await withServerAndTransport(handler: TestHandlers.redirectLoop()) { server, transport in
            let error = await failure(of: request(server.url("/loop/a"), in: liveEnvironment(server.baseURL)), through: transport)
            #expect(error?.code == .tooManyRedirects)
            #expect(
                error?.message == "The redirects loop: \(server.url("/loop/a")) → \(server.url("/loop/b")) → \(server.url("/loop/a")), "
                    + "sending the same request again (its cookies unchanged).")
            #expect(error?.partialResponse?.status == 302)
            #expect(server.requestCount == 2)
        }
    }

    @Test func theLimitStopsALongChain() async throws {
        try await withServerAndTransport(handler: TestHandlers.redirectChain()) { server, transport in
            let environment = liveEnvironment(server.baseURL, redirects: RedirectPolicy(follow: true, limit: 2))
            let error = await failure(of: request(server.url("/redirect/5"), in: environment), through: transport)
            #expect(error?.code == .tooManyRedirects)
            #expect(error?.message.hasPrefix("Stopped after 2 redirects (the limit)") == true)
            #expect(error?.partialResponse?.redirects.count == 2)
            #expect(server.requestCount == 3)
            // Exactly at the limit is fine.
            let response = try await transport.send(request(server.url("/redirect/2"), in: environment))
            #expect(response.redirects.count == 2)
        }
    }

    @Test func followingCanBeSwitchedOff() async throws {
        try await withServerAndTransport(handler: TestHandlers.redirectChain()) { server, transport in
            let environment = liveEnvironment(server.baseURL, redirects: RedirectPolicy(follow: false))
            let response = try await transport.send(request(server.url("/redirect/1"), in: environment))
            #expect(response.status == 302)
            #expect(response.headers["Location"] == "/redirect/0")
            #expect(response.redirects.isEmpty)
            #expect(server.requestCount == 1)
        }
    }

    @Test(arguments: [(303, "GET", ""), (302, "GET", ""), (301, "GET", ""), (307, "POST", "payload"), (308, "POST", "payload")])
    func methodAndBodyAfterARedirect(status: Int, method: String, body: String) async throws {
        try await withServerAndTransport(handler: { request in
            request.path == "/form" ? .redirect(to: "/result", status: HTTPResponseStatus(statusCode: status)) : .ok("\(request.method) \(request.bodyText)")
        }) { server, transport in
            var headers = Headers()
            headers.set("Content-Type", "text/plain", origin: .body)
            let response = try await transport.send(
                request(server.url("/form"), .post, in: liveEnvironment(server.baseURL), headers: headers, body: Data("payload".utf8)))
            #expect(response.text == "\(method) \(body)")
            let final = try #require(server.lastRequest)
            #expect((final.header("Content-Type") != nil) == (method == "POST"))
        }
    }

    @Test func credentialsAreDroppedOnACrossOriginRedirectButKeptOnTheSameOrigin() async throws {
        try await withTestHTTPServer(handler: { _ in .ok("other") }) { other in
            try await withServerAndTransport(handler: { request in
                switch request.path {
                case "/same": .redirect(to: "/landing")
                case "/cross": .redirect(to: other.url("/landing").absoluteString)
                default: .ok("landing")
                }
            }) { server, transport in
                var headers = Headers()
                headers.set("Authorization", "Bearer secret", origin: .auth("bearer"))
                headers.set("X-API-Key", "key-1", origin: .auth("api key"))
                headers.set("Cookie", "session=1", origin: .endpoint)
                headers.set("X-Trace", "t", origin: .endpoint)
                let environment = liveEnvironment(server.baseURL)

                _ = try await transport.send(request(server.url("/same"), in: environment, headers: headers))
                let same = try #require(server.lastRequest)
                #expect(same.path == "/landing")
                #expect(same.header("Authorization") == "Bearer secret")
                #expect(same.header("X-API-Key") == "key-1")

                let response = try await transport.send(request(server.url("/cross"), in: environment, headers: headers))
                #expect(response.text == "other")
                let cross = try #require(other.lastRequest)
                #expect(cross.header("Authorization") == nil)
                #expect(cross.header("X-API-Key") == nil)
                #expect(cross.header("Cookie") == nil)
                #expect(cross.header("X-Trace") == "t")
            }
        }
    }

    @Test func aHeaderHoldingASecretValueIsDroppedOnACrossOriginRedirect() async throws {
        try await withTestHTTPServer(handler: { _ in .ok("other") }) { other in
            try await withServerAndTransport(handler: { request in
                request.path == "/cross" ? .redirect(to: other.url("/landing").absoluteString) : .ok("landing")
            }) { server, transport in
                var headers = Headers()
                // Neither name nor origin says it is a credential: its value is a known secret.
                headers.set("X-Tenant", "tenant-canary-4242", origin: .group("signedIn"))
                headers.set("X-Signed", "v1 tenant-canary-4242 sig", origin: .endpoint)
                headers.set("X-Trace", "t", origin: .endpoint)
                var options = RequestOptions()
                options.secrets = SecretRegistry(["tenant-canary-4242"])
                let response = try await transport.send(request(server.url("/cross"), in: liveEnvironment(server.baseURL), headers: headers, options: options))
                #expect(response.text == "other")
                let cross = try #require(other.lastRequest)
                #expect(cross.header("X-Tenant") == nil)
                #expect(cross.header("X-Signed") == nil)
                #expect(cross.header("X-Trace") == "t")
            }
        }
    }

    @Test func aBodyHoldingASecretIsNotSentOnToAnotherOrigin() async throws {
        try await withTestHTTPServer(handler: { _ in .ok("other") }) { other in
            try await withServerAndTransport(handler: { _ in .redirect(to: other.url("/take").absoluteString, status: .temporaryRedirect) }) { server, transport in
                var options = RequestOptions()
                options.secrets = SecretRegistry(["password-canary-77"])
                let sent = request(
                    server.url("/login"), .post, in: liveEnvironment(server.baseURL), body: Data(#"{"password":"password-canary-77"}"#.utf8),
                    options: options)
                let error = await failure(of: sent, through: transport)
                #expect(error?.code == .badServerResponse)
                #expect(error?.message.contains("a body holding a secret is not sent on to another origin") == true)
                #expect(other.requestCount == 0)
            }
        }
    }

    @Test func credentialsDoNotFollowARedirectFromHTTPSToHTTPUnlessTheEnvironmentAllowsIt() async throws {
        try await withTestHTTPServer(handler: { _ in .ok("plain") }) { plain in
            try await withServerAndTransport(tls: .trusted, handler: { _ in .redirect(to: plain.url("/landing").absoluteString) }) { server, transport in
                var headers = Headers()
                headers.set("Authorization", "Bearer canary", origin: .group("signedIn"))
                let refused = await failure(of: request(server.url("/"), in: liveEnvironment(server.baseURL, trust: testCATrust), headers: headers), through: transport)
                #expect(refused?.code == .badServerResponse)
                #expect(refused?.message.contains("is not followed from https to http") == true, "\(refused?.message ?? "")")
                #expect(plain.requestCount == 0)

                // Without credentials the redirect is an ordinary one.
                let anonymous = try await transport.send(request(server.url("/"), in: liveEnvironment(server.baseURL, trust: testCATrust)))
                #expect(anonymous.text == "plain")

                // Allowed: followed, the credentials dropped all the same.
                let allowing = liveEnvironment(server.baseURL, trust: testCATrust, redirects: RedirectPolicy(allowsDowngrade: true))
                let response = try await transport.send(request(server.url("/"), in: allowing, headers: headers))
                #expect(response.text == "plain")
                #expect(plain.lastRequest?.header("Authorization") == nil)
            }
        }
    }

    @Test func postRedirectGetToTheSameURLIsNotALoop() async throws {
        try await withServerAndTransport(handler: { request in
            request.method == .POST ? .redirect(to: "/form", status: .seeOther) : .ok("the form again")
        }) { server, transport in
            let response = try await transport.send(request(server.url("/form"), .post, in: liveEnvironment(server.baseURL), body: Data("a=1".utf8)))
            #expect(response.text == "the form again")
            #expect(response.redirects.count == 1)
        }
    }

    @Test func aRedirectToANonHTTPSchemeIsNotFollowed() async throws {
        try await withServerAndTransport(handler: { _ in .redirect(to: "ftp://example.com/file") }) { server, transport in
            let error = await failure(of: request(server.url("/"), in: liveEnvironment(server.baseURL)), through: transport)
            #expect(error?.code == .badServerResponse)
            #expect(error?.message.contains("ftp:") == true)
        }
    }
}

/// Cookies along a redirect chain, as `curl -L -b jar -c jar` keeps them: each hop's `Set-Cookie`
/// is in the jar before the next hop is sent, and each hop carries the jar's cookies for its URL.
@Suite("Redirect cookies", .offPool)
struct RedirectCookieTests {
    static func site(_ request: TestRequest) -> TestResponse {
        switch request.path {
        case "/login": .redirect(to: "/step", headers: ["Set-Cookie": "sid=abc; Path=/; HttpOnly"])
        case "/step": .redirect(to: "/me", status: .seeOther, headers: ["Set-Cookie": "theme=dark; Path=/"])
        default: .text("me", headers: ["Set-Cookie": "seen=1; Path=/"])
        }
    }

    @Test func everyHopStoresItsCookiesAndTheNextHopSendsThem() async throws {
        let jar = CookieJar()
        try await withServerAndTransport(handler: Self.site) { server, transport in
            var options = RequestOptions()
            options.cookies = RedirectCookies(jar: jar)
            let response = try await transport.send(
                request(server.url("/login"), .post, in: liveEnvironment(server.baseURL), body: Data("u=1".utf8), options: options))
            #expect(response.status == 200)
            #expect(response.redirects.count == 2)
            #expect(server.requests.map { $0.header("Cookie") } == [nil, "sid=abc", "sid=abc; theme=dark"])
            // The final response's cookies are the plugin's to store (`CookiePlugin.didReceive`).
            #expect(jar.all(at: Date()).map(\.name) == ["sid", "theme"])
        }
    }

    @Test func theDispatcherKeepsTheChainsCookiesForLaterRequests() async throws {
        let jar = CookieJar()
        try await withServerAndTransport(handler: Self.site) { server, transport in
            let dispatcher = Dispatcher<Target>(
                environment: liveEnvironment(server.baseURL), transport: transport, plugins: [CookiePlugin(jar: jar)])
            _ = try await dispatcher.request(Target(.get, "/login"))
            _ = try await dispatcher.request(Target(.get, "/later"))
            #expect(server.requests.map { $0.header("Cookie") } == [nil, "sid=abc", "sid=abc; theme=dark", "sid=abc; theme=dark; seen=1"])
        }
    }

    @Test func aCookieOfOneHostIsNotSentToAnotherAlongTheChain() async throws {
        let jar = CookieJar()
        try await withTestHTTPServer(handler: { request in .text(request.header("Cookie") ?? "none") }) { other in
            // `localhost` is another host than 127.0.0.1 for cookies (RFC 6265 ignores ports).
            let elsewhere = "http://localhost:\(other.port)/landing"
            try await withServerAndTransport(handler: { _ in .redirect(to: elsewhere, headers: ["Set-Cookie": "sid=abc; Path=/"]) }) { server, transport in
                var options = RequestOptions()
                options.cookies = RedirectCookies(jar: jar)
                let response = try await transport.send(request(server.url("/go"), in: liveEnvironment(server.baseURL), options: options))
                #expect(response.text == "none")
                #expect(jar.all(at: Date()).map(\.name) == ["sid"])
            }
        }
    }
}
