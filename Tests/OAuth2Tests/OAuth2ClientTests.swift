import DispatcherCore
import Foundation
import LiveTransport
import NIOHTTP1
import OAuth2
import Synchronization
import TestSupport
import Testing
import TestTraits

/// The OAuth 2.0 client against an authorization server written for the tests (RFC 6749): client
/// credentials and password grants, both client authentications, refresh with rotation, errors
/// of §5.2 explained, and concurrent requests sharing one sign-in.
@Suite(.offPool) struct OAuth2ClientTests {
    /// A token endpoint: client `app` / secret `s3cr:et`, user `ann` / `pw`; refresh tokens rotate.
    final class AuthorizationServer: Sendable {
        let issued = Mutex(0)
        let validRefreshTokens = Mutex<Set<String>>([])
        let forms = Mutex<[[String: String]]>([])

        var handler: TestHTTPServer.Handler {
            { [self] request in
                let form = Dictionary(
                    String(decoding: request.body, as: UTF8.self).split(separator: "&").map { pair -> (String, String) in
                        let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? String($0) }
                        return (parts[0], parts.count > 1 ? parts[1] : "")
                    }, uniquingKeysWith: { $1 })
                forms.withLock { $0.append(form) }
                var client = (form["client_id"], form["client_secret"])
                if let basic = request.headers.first(name: "Authorization"), basic.hasPrefix("Basic "),
                    let decoded = Data(base64Encoded: String(basic.dropFirst(6))).map({ String(decoding: $0, as: UTF8.self) })
                {
                    let pair = decoded.split(separator: ":", maxSplits: 1).map { String($0).removingPercentEncoding ?? String($0) }
                    client = (pair.first, pair.count > 1 ? pair[1] : nil)
                }
                guard client.0 == "app", client.1 == "s3cr:et" else {
                    return .json(#"{"error":"invalid_client","error_description":"unknown client"}"#, status: .unauthorized)
                }
                switch form["grant_type"] {
                case "client_credentials": break
                case "password":
                    guard form["username"] == "ann", form["password"] == "pw" else { return .json(#"{"error":"invalid_grant"}"#, status: .badRequest) }
                case "refresh_token":
                    guard let token = form["refresh_token"], validRefreshTokens.withLock({ $0.remove(token) }) != nil else {
                        return .json(#"{"error":"invalid_grant","error_description":"refresh token revoked"}"#, status: .badRequest)
                    }
                default: return .json(#"{"error":"unsupported_grant_type"}"#, status: .badRequest)
                }
                let number = issued.withLock { count in
                    count += 1
                    return count
                }
                validRefreshTokens.withLock { _ = $0.insert("rt-\(number)") }
                return .json(#"{"access_token":"at-\#(number)","token_type":"Bearer","expires_in":3600,"refresh_token":"rt-\#(number)","scope":"read"}"#)
            }
        }
    }

    /// One transport for the suite (an HTTP client lives until the process ends).
    static let transport = HTTPTransport()

    static func configuration(_ server: TestHTTPServer, grant: OAuth2Grant = .clientCredentials, auth: OAuth2ClientAuthentication = .basic) -> OAuth2Configuration {
        OAuth2Configuration(
            tokenURL: server.url("/token"), grant: grant, clientID: "app", clientSecret: "s3cr:et", clientAuthentication: auth,
            scopes: ["read", "write"], audience: "https://api.example.com", parameters: [("resource", "pets")])
    }

    @Test func clientCredentialsWithBasicAuthenticationSendsTheFormRFC6749Asks() async throws {
        let authorization = AuthorizationServer()
        try await withTestHTTPServer(handler: authorization.handler) { server in
            let client = OAuth2Client(configuration: Self.configuration(server), transport: Self.transport, now: { Date(timeIntervalSince1970: 0) })
            let token = try await client.signIn()
            #expect(token == OAuth2Token(accessToken: "at-1", expiresAt: Date(timeIntervalSince1970: 3600), refreshToken: "rt-1", scope: "read"))
            let sent = try #require(server.lastRequest)
            // "s3cr:et" is form-encoded before Basic (§2.3.1): the colon becomes %3A.
            #expect(sent.headers.first(name: "Authorization") == "Basic " + Data("app:s3cr%3Aet".utf8).base64EncodedString())
            #expect(sent.headers.first(name: "Content-Type") == "application/x-www-form-urlencoded")
            #expect(authorization.forms.withLock { $0.last } == [
                "grant_type": "client_credentials", "scope": "read write", "audience": "https://api.example.com", "resource": "pets",
            ])
        }
    }

    @Test func clientSecretPostAndThePasswordGrant() async throws {
        let authorization = AuthorizationServer()
        try await withTestHTTPServer(handler: authorization.handler) { server in
            let client = OAuth2Client(configuration: Self.configuration(server, grant: .password(username: "ann", password: "pw"), auth: .post), transport: Self.transport)
            let token1 = try await client.signIn()

            #expect(token1.accessToken == "at-1")
            #expect(server.lastRequest?.headers.first(name: "Authorization") == nil)
            let form = try #require(authorization.forms.withLock { $0.last })
            #expect(form["client_id"] == "app" && form["client_secret"] == "s3cr:et")
            #expect(form["grant_type"] == "password" && form["username"] == "ann" && form["password"] == "pw")
        }
    }

    @Test func errorsOfSection5_2AreExplained() async throws {
        let authorization = AuthorizationServer()
        try await withTestHTTPServer(handler: authorization.handler) { server in
            var configuration = Self.configuration(server)
            configuration.clientSecret = "wrong"
            let refused = await #expect(throws: OAuth2Error.self) { try await OAuth2Client(configuration: configuration, transport: Self.transport).signIn() }
            #expect(refused?.code == "invalid_client")
            #expect(refused?.status == 401)
            #expect(refused?.message == "The token endpoint answered 401 Unauthorized invalid_client: the client id or secret was refused (check clientID, clientSecret and clientAuth) (unknown client).")
            let badUser = OAuth2Client(configuration: Self.configuration(server, grant: .password(username: "ann", password: "nope")), transport: Self.transport)
            let grant = await #expect(throws: OAuth2Error.self) { try await badUser.signIn() }
            #expect(grant?.code == "invalid_grant")
        }
    }

    @Test func anExpiredTokenIsRefreshedWithRotationAndARevokedRefreshTokenSignsInAgain() async throws {
        let authorization = AuthorizationServer()
        try await withTestHTTPServer(handler: authorization.handler) { server in
            let clock = Mutex(Date(timeIntervalSince1970: 0))
            let session = OAuth2Session(client: OAuth2Client(configuration: Self.configuration(server), transport: Self.transport) , now: { clock.withLock { $0 } })
            let token2 = try await session.validToken()

            #expect(token2.accessToken == "at-1")
            let token3 = try await session.validToken()

            #expect(token3.accessToken == "at-1")
            // The client's own clock stamps expiry; move past it.
            clock.withLock { $0 = Date().addingTimeInterval(3600) }
            let token4 = try await session.validToken()

            #expect(token4.accessToken == "at-2")
            #expect(authorization.forms.withLock { $0.last?["refresh_token"] } == "rt-1")
            #expect(session.token?.refreshToken == "rt-2")
            // Revoked: the refresh fails with invalid_grant and the session signs in again.
            authorization.validRefreshTokens.withLock { $0.removeAll() }
            clock.withLock { $0 = Date().addingTimeInterval(7200) }
            let token5 = try await session.validToken()

            #expect(token5.accessToken == "at-3")
            #expect(authorization.forms.withLock { $0.last?["grant_type"] } == "client_credentials")
        }
    }

    @Test func concurrentRequestsShareOneSignIn() async throws {
        let authorization = AuthorizationServer()
        try await withTestHTTPServer(handler: authorization.handler) { server in
            let session = OAuth2Session(client: OAuth2Client(configuration: Self.configuration(server), transport: Self.transport))
            let tokens = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<20 { group.addTask { try await session.validToken().accessToken } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(Set(tokens) == ["at-1"])
            #expect(authorization.issued.withLock { $0 } == 1)
            // A refused token is dropped: the next request gets another.
            session.invalidate("at-1")
            let token6 = try await session.validToken()

            #expect(token6.accessToken == "at-2")
        }
    }

    /// A device flow server: the first polls are pending, one says slow down, then it is approved
    /// (or refused, or the code expires).
    final class DeviceServer: Sendable {
        let answers: Mutex<[String]>
        let polls = Mutex<[String: String]>([:])
        init(answers: [String]) { self.answers = Mutex(answers) }

        var handler: TestHTTPServer.Handler {
            { [self] request in
                let body = String(decoding: request.body, as: UTF8.self)
                if request.path == "/device" {
                    #expect(body.contains("client_id=tv-app"))
                    return .json(#"{"device_code":"dev-1","user_code":"WDJB-MJHT","verification_uri":"https://example.com/device","verification_uri_complete":"https://example.com/device?user_code=WDJB-MJHT","expires_in":600,"interval":1}"#)
                }
                #expect(body.contains("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Adevice_code"))
                #expect(body.contains("device_code=dev-1"))
                let next = answers.withLock { $0.isEmpty ? "approved" : $0.removeFirst() }
                if next == "approved" { return .json(#"{"access_token":"device-token","token_type":"Bearer","expires_in":60}"#) }
                return .json(#"{"error":"\#(next)"}"#, status: .badRequest)
            }
        }
    }

    /// What a device flow waited and showed.
    final class DeviceObserver: Sendable {
        let waits = Mutex<[Duration]>([])
        let shown = Mutex<DeviceAuthorization?>(nil)
    }

    static func deviceClient(_ server: TestHTTPServer, observer: DeviceObserver) -> OAuth2Client {
        OAuth2Client(
            configuration: OAuth2Configuration(tokenURL: server.url("/token"), grant: .deviceCode(authorizationURL: server.url("/device")), clientID: "tv-app"),
            transport: Self.transport, sleep: { duration in observer.waits.withLock { $0.append(duration) } },
            prompt: { authorization in observer.shown.withLock { $0 = authorization } })
    }

    @Test func theDeviceFlowShowsTheCodePollsAtTheIntervalAndSlowsDownWhenAsked() async throws {
        let device = DeviceServer(answers: ["authorization_pending", "slow_down", "authorization_pending"])
        try await withTestHTTPServer(handler: device.handler) { server in
            let observer = DeviceObserver()
            let token = try await Self.deviceClient(server, observer: observer).signIn()
            #expect(token.accessToken == "device-token")
            #expect(observer.shown.withLock { $0?.userCode } == "WDJB-MJHT")
            #expect(observer.shown.withLock { $0?.verificationURIComplete } == "https://example.com/device?user_code=WDJB-MJHT")
            // 1 s, then 1 s, then slow_down adds 5 s (RFC 8628 §3.5) for every later poll.
            #expect(observer.waits.withLock { $0 } == [.seconds(1), .seconds(1), .seconds(6), .seconds(6)])
        }
    }

    @Test func aRefusedOrExpiredDeviceCodeEndsTheFlowWithASentence() async throws {
        for (answer, message) in [
            ("access_denied", "Signing in was refused at https://example.com/device."),
            ("expired_token", "The code WDJB-MJHT expired before it was approved; sign in again."),
        ] {
            let device = DeviceServer(answers: ["authorization_pending", answer])
            try await withTestHTTPServer(handler: device.handler) { server in
                let client = Self.deviceClient(server, observer: DeviceObserver())
                let error = await #expect(throws: OAuth2Error.self) { try await client.signIn() }
                #expect(error?.code == answer)
                #expect(error?.message == message)
            }
        }
    }

    @Test func pkceMatchesRFC7636AppendixB() {
        #expect(PKCE.challenge(for: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk") == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        let pkce = PKCE()
        #expect(pkce.verifier.count == 43)
        #expect(pkce.verifier.allSatisfy { $0.isLetter || $0.isNumber || "-._~".contains($0) })
    }

    /// A browser following a redirect: a GET.
    static func browse(_ url: URL) async {
        let request = Request(identifier: "browser", method: .get, url: url, settings: TransportSettings(environment: Environment(name: "browser", baseURL: url)))
        _ = try? await transport.send(request)
    }

    /// What the "browser" saw, and the server's check of the verifier.
    final class BrowserFlow: Sendable {
        let opened = Mutex<URL?>(nil)
        let verified = Mutex(false)
    }

    @Test func theAuthorizationCodeFlowRedirectsToTheLoopbackAndExchangesTheCodeWithItsVerifier() async throws {
        let flow = BrowserFlow()
        let handler: TestHTTPServer.Handler = { request in
            let form = Dictionary(
                String(decoding: request.body, as: UTF8.self).split(separator: "&").map { pair -> (String, String) in
                    let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? String($0) }
                    return (parts[0], parts.count > 1 ? parts[1] : "")
                }, uniquingKeysWith: { $1 })
            let opened = flow.opened.withLock { $0 }
            let challenge = opened.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "code_challenge" }?.value }
            guard form["grant_type"] == "authorization_code", form["code"] == "code-1", let verifier = form["code_verifier"],
                PKCE.challenge(for: verifier) == challenge
            else { return .json(#"{"error":"invalid_grant"}"#, status: .badRequest) }
            flow.verified.withLock { $0 = true }
            return .json(#"{"access_token":"browser-token","expires_in":60}"#)
        }
        try await withTestHTTPServer(handler: handler) { server in
            let client = OAuth2Client(
                configuration: OAuth2Configuration(
                    tokenURL: server.url("/token"), grant: .authorizationCode(authorizationURL: URL(string: "https://auth.example/authorize")!),
                    clientID: "cli", scopes: ["openid", "read"]),
                transport: Self.transport,
                openBrowser: { url in
                    flow.opened.withLock { $0 = url }
                    // The "browser": the user approves and the server redirects to the loopback.
                    Task {
                        let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
                        let redirect = query.first { $0.name == "redirect_uri" }?.value ?? ""
                        let state = query.first { $0.name == "state" }?.value ?? ""
                        await Self.browse(URL(string: "\(redirect)?code=code-1&state=\(state)")!)
                    }
                })
            let token = try await client.signIn()
            #expect(token.accessToken == "browser-token")
            #expect(flow.verified.withLock { $0 })
            let opened = try #require(flow.opened.withLock { $0 })
            let query = Dictionary(uniqueKeysWithValues: (URLComponents(url: opened, resolvingAgainstBaseURL: false)?.queryItems ?? []).map { ($0.name, $0.value ?? "") })
            #expect(query["response_type"] == "code" && query["client_id"] == "cli" && query["code_challenge_method"] == "S256")
            #expect(query["scope"] == "openid read")
            #expect(query["redirect_uri"]?.hasPrefix("http://127.0.0.1:") == true && query["redirect_uri"]?.hasSuffix("/callback") == true)
        }
    }

    @Test func aRedirectWithAnotherStateIsRefused() async throws {
        try await withTestHTTPServer(handler: { _ in .json(#"{"access_token":"x"}"#) }) { server in
            let client = OAuth2Client(
                configuration: OAuth2Configuration(tokenURL: server.url("/token"), grant: .authorizationCode(authorizationURL: URL(string: "https://auth.example/a")!), clientID: "cli"),
                transport: Self.transport,
                openBrowser: { url in
                    Task {
                        let redirect = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "redirect_uri" }?.value ?? ""
                        await Self.browse(URL(string: "\(redirect)?code=c&state=forged")!)
                    }
                })
            let error = await #expect(throws: OAuth2Error.self) { try await client.signIn() }
            #expect(error?.message == "The sign-in redirect carried another state than the one sent: it was not ours, so it was refused.")
        }
    }
}
