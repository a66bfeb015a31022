import Foundation
import Synchronization
import TestSupport
import Testing
import TestTraits

extension EndToEnd {
    /// Issue 34's proofs in a real terminal against a server of the test's: a cookie sign-in that
    /// answers 302 keeps its cookie for the next request, and an example picked in stub mode never
    /// goes to the server once the explorer is switched to live.
    @Suite(.offPool) struct ExplorerFidelityTests {
        @Test func aCookieLoginThroughA302AuthenticatesTheNextRequest() async throws {
            let handler: TestHTTPServer.Handler = { request in
                switch request.path {
                case "/api/login": return .redirect(to: "/api/home", headers: ["Set-Cookie": "session=s3ss10n-value; Path=/; HttpOnly"])
                case "/api/home": return .ok("home")
                default:
                    let cookie = request.headers.first(name: "Cookie") ?? ""
                    return cookie.contains("session=s3ss10n-value") ? .json(#"{"user":"ann"}"#) : .status(.unauthorized)
                }
            }
            try await withTestHTTPServer(handler: handler) { server in
                let folder = try TemporaryDirectory()
                try folder.write("site.yaml", """
                    service: site
                    environments:
                      local: { baseURL: "\(server.baseURL.absoluteString)/api", fixtures: never, retry: none }
                    endpoints:
                      login: { method: POST, path: /login, form: { user: ann } }
                      me: { path: /me }
                    """)
                let state = try TemporaryDirectory()
                let session = try ExplorerSessionTests.launch(
                    "--trust --catalog \(TmuxSession.quote(folder.path)) --env site/local", environment: ["XDG_STATE_HOME": state.path])
                defer { session.close() }
                try await session.waitFor("Enter sends POST /login")
                try await session.send("Enter")
                try await session.waitFor("200 OK")
                try await session.send("j")
                try await session.waitFor("Enter sends GET /me")
                try await session.send("Enter")
                try await session.waitFor(#""user": "ann""#)
                #expect(server.requests.last?.headers.first(name: "Cookie") == "session=s3ss10n-value")
            }
        }

        @Test func anExamplePickedInStubModeIsNotSentLive() async throws {
            let handler: TestHTTPServer.Handler = { request in .json(#"{"live":true}"#) }
            try await withTestHTTPServer(handler: handler) { server in
                let folder = try TemporaryDirectory()
                try folder.write("shop.yaml", """
                    service: shop
                    environments:
                      local: { baseURL: "\(server.baseURL.absoluteString)", retry: none }
                    endpoints:
                      item:
                        path: /item
                        stub: { body: { stub: true } }
                        examples:
                          expired: { status: 410, body: { message: "gone" } }
                    """)
                let state = try TemporaryDirectory()
                let session = try ExplorerSessionTests.launch(
                    "--trust --catalog \(TmuxSession.quote(folder.path)) --env shop/local", environment: ["XDG_STATE_HOME": state.path])
                defer { session.close() }
                try await session.waitFor("(STUB)")
                try await session.send("x")
                try await session.waitFor("expired")
                try await session.send("g", "j")
                try await session.waitFor("› expired")
                try await session.send("Enter")
                try await session.waitFor("410")
                try await session.send("s")
                try await session.waitFor("LIVE")
                try await session.send("Enter")
                try await session.waitFor(#""live": true"#)
                let sent = try #require(server.requests.last)
                #expect(sent.headers.first(name: "X-Mock-Example") == nil)
                #expect(!(sent.uri.contains("mock-example")))
            }
        }
    }
}
