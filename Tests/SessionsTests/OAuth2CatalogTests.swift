import CatalogTestSupport
import DispatcherCore
import Foundation
import NIOHTTP1
import Sessions
import Synchronization
import TestSupport
import Testing

@testable import Catalog
import TestTraits

/// `auth.oauth2` in a catalog: a token obtained before the first request and sent with each, a
/// refused one replaced and the request resumed once, stub mode's own token never sent live,
/// secrets masked by value, and bad settings diagnosed.
@Suite(.offPool) struct OAuth2CatalogTests {
    static func catalog(_ base: String) -> String {
        """
        service: api
        environments:
          local: { baseURL: "\(base)/api", fixtures: never, retry: none }
        auth:
          oauth2:
            tokenURL: "\(base)/token"
            clientID: app
            clientSecret: "{{secret.API_SECRET}}"
            scopes: [read, write]
            stubToken: offline-token
        endpoints:
          me: { path: /me, stub: { body: { me: stub } } }
        """
    }

    /// Issues at-1, at-2 …; /api/me accepts only the latest.
    final class Server: Sendable {
        let issued = Mutex(0)
        var handler: TestHTTPServer.Handler {
            { [self] request in
                if request.path == "/token" {
                    let number = issued.withLock { count in
                        count += 1
                        return count
                    }
                    return .json(#"{"access_token":"at-\#(number)","token_type":"Bearer","expires_in":3600}"#)
                }
                let latest = issued.withLock { $0 }
                return request.headers.first(name: "Authorization") == "Bearer at-\(latest)" ? .json(#"{"me":"ann"}"#) : .status(.unauthorized)
            }
        }
    }

    @Test func aTokenIsObtainedSentAndReplacedWhenRefusedAndStubModeHasItsOwn() async throws {
        let server = Server()
        try await withTestHTTPServer(handler: server.handler) { http in
            let catalog = CatalogLoader.load(fileSystem: InMemoryFileSystem(texts: ["api.yaml": Self.catalog(http.baseURL.absoluteString)]), source: .bundled)
            #expect(!catalog.hasErrors, "\(catalog.diagnostics)")
            let service = try #require(catalog.service("api"))
            #expect(service.oauth2?.scopes == ["read", "write"])
            let session = ServiceSession(
                service: service, environment: service.environments[0], secrets: SecretStore(processEnvironment: ["APIEXPLORER_SECRET_API_SECRET": "client-canary-secret"]),
                transport: TestHTTPTransport())
            let first = await session.send("me", options: RequestOptions(stubBehavior: .never))
            #expect(first.response?.status == 200)
            #expect(first.request.headers["Authorization"] == "Bearer at-1")
            // The server moves on to at-2 (revoked at-1): 401 → a new token → resumed once.
            server.issued.withLock { $0 += 1 }
            let second = await session.send("me", options: RequestOptions(stubBehavior: .never))
            #expect(second.response?.status == 200)
            #expect(second.request.headers["Authorization"] == "Bearer at-3")
            #expect(second.trace.contains { if case .resumed(by: "oauth2 token", _) = $0.kind { true } else { false } })
            // Stub mode: its own token; the live one is never sent there, nor the stub one live.
            let stub = await session.send("me", options: RequestOptions(stubBehavior: .immediate))
            #expect(stub.request.headers["Authorization"] == "Bearer offline-token")
            // The token view's source: the live token, decoded; signing out forgets it.
            let held = session.tokens(stubbed: false)
            #expect(held.map(\.value) == ["at-3"])
            #expect(held.first?.source == "oauth2" && held.first?.type == "Bearer" && held.first?.expiresAt != nil)
            #expect(session.tokens(stubbed: true).map(\.value) == ["offline-token"])
            session.signOut(stubbed: false)
            #expect(session.tokens(stubbed: false).isEmpty)
            // Tokens and the client secret are masked by value.
            let masked = session.redactor.text("at-1 at-3 client-canary-secret")
            #expect(!masked.contains("at-3") && !masked.contains("client-canary-secret"), "\(masked)")
        }
    }

    @Test func theDeviceFlowShowsItsCodeAndTheTokenIsUsedOnceApproved() async throws {
        let approved = Mutex(false)
        let handler: TestHTTPServer.Handler = { request in
            switch request.path {
            case "/device":
                return .json(#"{"device_code":"d1","user_code":"ABCD-EFGH","verification_uri":"https://auth.example/device","interval":0}"#)
            case "/token":
                // Approved on the third poll.
                let now = approved.withLock { state -> Bool in
                    defer { state = true }
                    return state
                }
                return now ? .json(#"{"access_token":"device-at","expires_in":600}"#) : .json(#"{"error":"authorization_pending"}"#, status: .badRequest)
            default:
                return request.headers.first(name: "Authorization") == "Bearer device-at" ? .json(#"{"me":"tv"}"#) : .status(.unauthorized)
            }
        }
        try await withTestHTTPServer(handler: handler) { http in
            let prompts = Mutex<[SignInPrompt]>([])
            let session = try Self.session(
                http, grant: "grant: device_code\n    deviceAuthorizationURL: \"\(http.baseURL.absoluteString)/device\"",
                onSignInPrompt: { prompt in prompts.withLock { $0.append(prompt) } })
            let exchange = await session.send("me", options: RequestOptions(stubBehavior: .never))
            #expect(exchange.response?.status == 200)
            #expect(prompts.withLock { $0 } == [SignInPrompt(environment: EnvironmentKey(session.service, environment: "local"), userCode: "ABCD-EFGH", verificationURL: "https://auth.example/device")])
            #expect(prompts.withLock { $0.first?.sentence } == "To sign in to api · local, open https://auth.example/device and enter ABCD-EFGH.")
        }
    }

    /// A session of the test catalog with another grant (`grant: …` lines), live against `http`.
    static func session(_ http: TestHTTPServer, grant: String, onSignInPrompt: @escaping @Sendable (SignInPrompt) -> Void) throws -> ServiceSession {
        let text = catalog(http.baseURL.absoluteString).replacingOccurrences(of: "    clientID: app\n", with: "    \(grant)\n    clientID: app\n")
        let catalog = CatalogLoader.load(fileSystem: InMemoryFileSystem(texts: ["api.yaml": text]), source: .bundled)
        #expect(!catalog.hasErrors, "\(catalog.diagnostics)")
        let service = try #require(catalog.service("api"))
        return ServiceSession(
            service: service, environment: service.environments[0], secrets: SecretStore(processEnvironment: ["APIEXPLORER_SECRET_API_SECRET": "s"]),
            transport: TestHTTPTransport(), onSignInPrompt: onSignInPrompt)
    }

    @Test func badSettingsAreDiagnosedWhereTheyAre() {
        let text = """
            service: api
            environments:
              local: { baseURL: "http://127.0.0.1:9" }
            auth:
              oauth2:
                grant: client_credential
                tokenURL: http://127.0.0.1:9/token
                clientID: app
                clientAuth: digest
            endpoints:
              me: { path: /me }
            """
        let catalog = CatalogLoader.load(fileSystem: InMemoryFileSystem(texts: ["api.yaml": text]), source: .bundled)
        let messages = catalog.diagnostics.filter(\.isError).map { "\($0.line):\($0.column): \($0.message)" }
        #expect(messages.contains { $0.hasPrefix("6:12: 'client_credential' is not a grant apiexplorer knows") && $0.hasSuffix("did you mean 'client_credentials'?") }, "\(messages)")
        #expect(messages.contains("9:17: auth.oauth2.clientAuth is basic or post, not 'digest'"), "\(messages)")
        let device = text.replacingOccurrences(of: "grant: client_credential", with: "grant: device_code")
        let deviceMessages = CatalogLoader.load(fileSystem: InMemoryFileSystem(texts: ["api.yaml": device]), source: .bundled).diagnostics.map(\.message)
        #expect(deviceMessages.contains("the device_code grant needs auth.oauth2.deviceAuthorizationURL (where the user code is asked for)"))
        let code = text.replacingOccurrences(of: "grant: client_credential", with: "grant: authorization_code")
        let codeMessages = CatalogLoader.load(fileSystem: InMemoryFileSystem(texts: ["api.yaml": code]), source: .bundled).diagnostics.map(\.message)
        #expect(codeMessages.contains("the authorization_code grant needs auth.oauth2.authorizationURL (where the browser signs in)"))
    }

    @Test func aJWTsHeaderAndClaimsAreDecodedAndItsExpiryRead() {
        func part(_ json: String) -> String {
            Data(json.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }
        let jwt = part(#"{"alg":"RS256","kid":"k1"}"#) + "." + part(#"{"sub":"ann","scope":"read","exp":1700000600}"#) + ".c2lnbmF0dXJl"
        let token = SessionToken(source: "oauth2", value: jwt)
        #expect(token.jwt?.header["kid"]?.stringValue == "k1")
        #expect(token.jwt?.claims["sub"]?.stringValue == "ann")
        #expect(token.expiresAt == Date(timeIntervalSince1970: 1_700_000_600))
        #expect(SessionToken(source: "x", value: "not.a.jwt").jwt == nil)
        #expect(SessionToken(source: "x", value: "opaque").jwt == nil)
    }

    @Test func theAuthorizationCodeFlowAsksForABrowserAndTheTokenIsUsed() async throws {
        let handler: TestHTTPServer.Handler = { request in
            if request.path == "/token" { return .json(#"{"access_token":"browser-at","expires_in":600}"#) }
            return request.headers.first(name: "Authorization") == "Bearer browser-at" ? .json(#"{"me":"ann"}"#) : .status(.unauthorized)
        }
        try await withTestHTTPServer(handler: handler) { http in
            let prompts = Mutex<[SignInPrompt]>([])
            let session = try Self.session(
                http, grant: "grant: authorization_code\n    authorizationURL: https://auth.example/authorize",
                onSignInPrompt: { prompt in
                    prompts.withLock { $0.append(prompt) }
                    // The browser: approved at once, redirected to the loopback with the code and state.
                    Task {
                        let query = URLComponents(string: prompt.verificationURL)?.queryItems ?? []
                        let redirect = query.first { $0.name == "redirect_uri" }?.value ?? ""
                        let state = query.first { $0.name == "state" }?.value ?? ""
                        let back = Request(identifier: "browser", method: .get, url: URL(string: "\(redirect)?code=c1&state=\(state)")!,
                            settings: TransportSettings(environment: Environment(name: "b", baseURL: http.baseURL)))
                        _ = try? await TestHTTPTransport().send(back)
                    }
                })
            let exchange = await session.send("me", options: RequestOptions(stubBehavior: .never))
            #expect(exchange.response?.status == 200)
            let prompt = try #require(prompts.withLock { $0.first })
            #expect(prompt.userCode.isEmpty)
            #expect(prompt.verificationURL.hasPrefix("https://auth.example/authorize?response_type=code&client_id=app&redirect_uri="))
            #expect(prompt.sentence.hasSuffix(" in a browser."))
        }
    }

    @Test func anIssuersMetadataGivesTheTokenEndpoint() async throws {
        let stated = Mutex<String?>(nil)
        let handler: TestHTTPServer.Handler = { request in
            switch request.path {
            case "/.well-known/openid-configuration":
                let base = "http://127.0.0.1:\(request.headers.first(name: "Host")?.split(separator: ":").last ?? "")"
                let issuer = stated.withLock { $0 } ?? base
                return .json(#"{"issuer":"\#(issuer)","token_endpoint":"\#(base)/oauth/token","jwks_uri":"\#(base)/jwks"}"#)
            case "/oauth/token": return .json(#"{"access_token":"discovered-at","expires_in":600}"#)
            default: return request.headers.first(name: "Authorization") == "Bearer discovered-at" ? .json(#"{"me":"ann"}"#) : .status(.unauthorized)
            }
        }
        try await withTestHTTPServer(handler: handler) { http in
            let base = http.baseURL.absoluteString
            let text = Self.catalog(base).replacingOccurrences(of: "    tokenURL: \"\(base)/token\"\n", with: "    issuer: \"\(base)\"\n")
            let catalog = CatalogLoader.load(fileSystem: InMemoryFileSystem(texts: ["api.yaml": text]), source: .bundled)
            #expect(!catalog.hasErrors, "\(catalog.diagnostics)")
            let service = try #require(catalog.service("api"))
            let session = ServiceSession(
                service: service, environment: service.environments[0], secrets: SecretStore(processEnvironment: ["APIEXPLORER_SECRET_API_SECRET": "s"]), transport: TestHTTPTransport())
            let exchange = await session.send("me", options: RequestOptions(stubBehavior: .never))
            #expect(exchange.response?.status == 200)
            // Metadata that names another issuer is not used.
            stated.withLock { $0 = "https://evil.example" }
            let other = ServiceSession(
                service: service, environment: service.environments[0], secrets: SecretStore(processEnvironment: ["APIEXPLORER_SECRET_API_SECRET": "s"]), transport: TestHTTPTransport())
            let refused = await other.send("me", options: RequestOptions(stubBehavior: .never))
            #expect(refused.error?.message.contains("names another issuer (https://evil.example); it was not used") == true, "\(refused.error?.message ?? "")")
        }
    }
}

extension OAuth2CatalogTests {
    @Test func aTokenThatCannotBeRenewedSignsTheSessionOut() async throws {
        let refusing = Mutex(false)
        let handler: TestHTTPServer.Handler = { request in
            switch request.path {
            case "/token":
                if refusing.withLock({ $0 }) { return .json(#"{"error":"invalid_grant","error_description":"the grant was revoked"}"#, status: .badRequest) }
                // Expires within the renewal margin: the next request renews it.
                return .json(#"{"access_token":"short-lived","expires_in":1,"refresh_token":"r1"}"#)
            default: return .json(#"{"me":"ann"}"#)
            }
        }
        try await withTestHTTPServer(handler: handler) { http in
            let service = try #require(
                CatalogLoader.load(fileSystem: InMemoryFileSystem(texts: ["api.yaml": Self.catalog(http.baseURL.absoluteString)]), source: .bundled)
                    .service("api"))
            let session = ServiceSession(
                service: service, environment: service.environments[0], secrets: SecretStore(processEnvironment: ["APIEXPLORER_SECRET_API_SECRET": "s"]), transport: TestHTTPTransport())
            let first = await session.send("me", options: RequestOptions(stubBehavior: .never))
            #expect(first.response?.status == 200)
            refusing.withLock { $0 = true }
            let second = await session.send("me", options: RequestOptions(stubBehavior: .never))
            #expect(second.error?.kind == .unauthorized)
            #expect(second.error?.source == ServiceSession.oauth2SignOutSource)
            #expect(second.error?.message.hasPrefix("signed out of api · local: the OAuth 2.0 token could not be renewed") == true, "\(second.error?.message ?? "")")
            #expect(session.tokens(stubbed: false).isEmpty)
            guard case .tokenNotRenewed? = session.signOut(of: second) else {
                Issue.record("the sign-out is not told to the caller")
                return
            }
        }
    }
}
