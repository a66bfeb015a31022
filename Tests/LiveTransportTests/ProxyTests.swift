import DispatcherCore
import Foundation
import LiveTransport
import TestSupport
import Testing
import TestTraits

@Suite("Proxies from the environment", .offPool)
struct ProxyTests {
    @Test func httpsAndHTTPProxiesAreReadLikeCurlLowercaseFirst() throws {
        let configuration = ProxyConfiguration.fromEnvironment([
            "https_proxy": "http://lower:3128", "HTTPS_PROXY": "http://upper:3128",
            "HTTP_PROXY": "upper-http:8080", "http_proxy": "lower-http",
        ])
        #expect(configuration.https == ProxyServer(host: "lower", port: 3128))
        #expect(configuration.http == ProxyServer(host: "lower-http", port: 1080))  // curl's default proxy port
        #expect(configuration.issues.isEmpty)
    }

    /// curl reads `http_proxy` in lowercase only (a CGI program gets `HTTP_PROXY` from a request's
    /// `Proxy:` header); HTTPS_PROXY and ALL_PROXY in either case.
    @Test func httpProxyIsLowercaseOnlyTheRestEitherCase() {
        let configuration = ProxyConfiguration.fromEnvironment(["HTTP_PROXY": "http://h:1", "HTTPS_PROXY": "http://u:2", "ALL_PROXY": "socks5://s:1081"])
        #expect(configuration.http == ProxyServer(kind: .socks5, host: "s", port: 1081))
        #expect(configuration.https == ProxyServer(host: "u", port: 2))
        #expect(configuration.issues == ["HTTP_PROXY is ignored, as curl ignores it (a CGI program gets it from a request's Proxy header); set http_proxy"])
        #expect(ProxyConfiguration.fromEnvironment(["HTTP_PROXY": "http://h:1"]).http == nil)
    }

    @Test func credentialsAreReadAndNeverShown() throws {
        let server = try ProxyServer(parsing: "http://alice:s%40cret@proxy.corp:3128")
        #expect(server.username == "alice")
        #expect(server.password == "s@cret")
        #expect(server.description == "http://alice:***@proxy.corp:3128")
        #expect(!server.description.contains("cret"))
    }

    @Test func unusableValuesAreReportedNotUsed() {
        let configuration = ProxyConfiguration.fromEnvironment(["https_proxy": "https://secure-proxy:443", "http_proxy": "ftp://x"])
        #expect(configuration.https == nil)
        #expect(configuration.http == nil)
        #expect(configuration.issues.count == 2)
        #expect(configuration.issues.contains { $0.hasPrefix("https_proxy is ignored: HTTPS proxies") })
    }

    @Test func noProxyMatchesLikeCurl() throws {
        let rules = NoProxyRule.parseList("example.com, .internal.net,localhost:8080, 10.0.0.0/8 ,[::1], 192.168.1.5")
        func bypasses(_ host: String, _ port: Int = 443) -> Bool { rules.contains { $0.matches(host: host, port: port) } }
        #expect(bypasses("example.com"))
        #expect(bypasses("api.example.com"))
        #expect(!bypasses("notexample.com"))
        #expect(bypasses("internal.net"))
        #expect(bypasses("a.b.internal.net"))
        #expect(bypasses("localhost", 8080))
        #expect(!bypasses("localhost", 8081))
        #expect(bypasses("10.20.30.40"))
        #expect(!bypasses("11.0.0.1"))
        #expect(bypasses("::1"))
        #expect(bypasses("[::1]"))
        #expect(bypasses("192.168.1.5"))
        #expect(!bypasses("192.168.1.6"))
        #expect(bypasses("EXAMPLE.COM."))
        #expect(NoProxyRule.parseList("*").first?.matches(host: "anything", port: 1) == true)
    }

    @Test func serverForAURLHonoursSchemeAndNoProxy() throws {
        let configuration = ProxyConfiguration.fromEnvironment([
            "https_proxy": "http://p:3128", "http_proxy": "http://q:3128", "no_proxy": "localhost,127.0.0.1",
        ])
        #expect(configuration.server(for: URL(string: "https://api.example.com/x")!)?.host == "p")
        #expect(configuration.server(for: URL(string: "http://api.example.com/x")!)?.host == "q")
        #expect(configuration.server(for: URL(string: "http://127.0.0.1:8080/x")!) == nil)
        #expect(configuration.server(for: URL(string: "http://localhost/x")!) == nil)
    }

    @Test func requestsGoThroughTheProxyUnlessNoProxySaysOtherwise() async throws {
        // The test server plays a proxy: it forwards nothing, answers plain requests with their
        // target, and refuses every tunnel, recording the CONNECT it was asked for.
        try await withTestHTTPServer(handler: { request in
            request.method == .CONNECT ? .status(.forbidden) : .ok("got \(request.uri) for \(request.headers["Host"].first ?? "")")
        }) { proxy in
            let server = ProxyServer(host: "127.0.0.1", port: proxy.port, username: "pat", password: "s3cret")
            let configuration = ProxyConfiguration(http: server, https: server, noProxy: NoProxyRule.parseList("127.0.0.1"))
            try await withTransport({ $0.proxy = configuration }) { transport in
                // Plain http: the absolute form, as curl sends it, with the proxy's credentials.
                let url = URL(string: "http://api.nonexistent.invalid/items?page=2")!
                let forwarded = try await transport.send(request(url, in: liveEnvironment(url)))
                #expect(forwarded.text == "got http://api.nonexistent.invalid/items?page=2 for api.nonexistent.invalid")
                let plain = try #require(proxy.requests.first)
                #expect(plain.method == .GET)
                #expect(plain.headers["Proxy-Authorization"] == ["Basic cGF0OnMzY3JldA=="])

                // https: a CONNECT tunnel, refused.
                let secure = URL(string: "https://api.nonexistent.invalid/items")!
                let error = await failure(of: request(secure, in: liveEnvironment(secure)), through: transport)
                #expect(error?.code == .cannotConnectToHost)
                #expect(error?.message == "The proxy http://pat:***@127.0.0.1:\(proxy.port) refused to open a tunnel to api.nonexistent.invalid:443.")
                let connect = try #require(proxy.requests.last)
                #expect(connect.method == .CONNECT)
                #expect(connect.uri == "api.nonexistent.invalid:443")

                // 127.0.0.1 is in NO_PROXY: the same server answers directly.
                let direct = try await transport.send(request(proxy.url("/here"), in: liveEnvironment(proxy.baseURL)))
                #expect(direct.text == "got /here for 127.0.0.1:\(proxy.port)")
            }
        }
    }

    /// `OPTIONS *` in asterisk form, directly and (as the origin alone) through a proxy.
    @Test func optionsAsteriskIsSentAsTheAsteriskForm() async throws {
        try await withTestHTTPServer(handler: { request in .ok(request.uri) }) { server in
            try await withTransport { transport in
                let direct = try await transport.send(request(server.url("/*"), .options, in: liveEnvironment(server.baseURL)))
                #expect(direct.text == "*")
            }
            let configuration = ProxyConfiguration(http: ProxyServer(host: "127.0.0.1", port: server.port))
            try await withTransport({ $0.proxy = configuration }) { transport in
                let url = URL(string: "http://origin.invalid:8080/*")!
                let proxied = try await transport.send(request(url, .options, in: liveEnvironment(url)))
                #expect(proxied.text == "http://origin.invalid:8080")
            }
        }
    }

    @Test func aRefusedProxyIsNamedInTheMessage() async throws {
        let port = try TestPorts.closedPort()
        try await withTransport({ $0.proxy = ProxyConfiguration(https: ProxyServer(host: "127.0.0.1", port: port)) }) { transport in
            let url = URL(string: "https://api.nonexistent.invalid/")!
            let error = await failure(of: request(url, in: liveEnvironment(url)), through: transport)
            #expect(error?.code == .cannotConnectToHost)
            #expect(error?.message == "Could not connect to the proxy http://127.0.0.1:\(port): connection refused.")
        }
    }
}
