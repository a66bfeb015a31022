import Catalog
import DispatcherCore
import FoundationEssentials
import OAuth2

/// `auth.oauth2` in a session: a token obtained when first needed and sent with every request of
/// the service; a 401 drops it and resumes the request once with a new one. Stub requests get the
/// catalog's stub token from a session of their own, so stub and live never share a token.
extension ServiceSession {
    /// The live and stub token sessions.
    struct OAuth2Sessions: Sendable {
        let live: OAuth2Session?
        let stub: OAuth2Session
        let settings: OAuth2Settings
        /// Where the issuer's signing keys are, for checking JWT signatures (live only).
        let keys: IssuerKeys?
        /// Whose tokens (named when a failed renewal signs out).
        let environment: EnvironmentKey
    }

    /// The source of the error a failed token renewal gives: the session was signed out.
    package static let oauth2SignOutSource = "oauth2 sign-out"

    /// The token sessions of `settings`, its texts rendered (secrets resolved and registered).
    static func oauth2Sessions(
        _ settings: OAuth2Settings, builder: RequestBuilder, transport: (any Transport)?, registry: SecretRegistry,
        environment: EnvironmentKey, prompt: (@Sendable (SignInPrompt) -> Void)?, persistence: (any TokenPersistence)?
    ) -> OAuth2Sessions? {
        func render(_ text: String?) -> String? { text.flatMap { builder.render(serviceText: $0) } }
        guard let clientID = render(settings.clientID) else { return nil }
        let secret = render(settings.clientSecret)
        let password = render(settings.password)
        registry.register([secret, password].compactMap { $0 }.filter { !$0.isEmpty })
        let username = render(settings.username) ?? ""
        let audience = render(settings.audience)
        let parameters = settings.parameters.sorted { $0.key < $1.key }.map { ($0.key, render($0.value) ?? $0.value) }
        let written = (
            token: render(settings.tokenURL).flatMap(URL.init(string:)), authorization: render(settings.authorizationURL).flatMap(URL.init(string:)),
            device: render(settings.deviceAuthorizationURL).flatMap(URL.init(string:)))
        let issuer = render(settings.issuer).flatMap(URL.init(string:))
        // The endpoints written in the catalog win over the issuer's published ones.
        @Sendable func configuration(discovered: OAuth2Discovery?) -> OAuth2Configuration? {
            guard let tokenURL = written.token ?? discovered?.tokenURL else { return nil }
            let grant: OAuth2Grant
            switch settings.grant {
            case "password": grant = .password(username: username, password: password ?? "")
            case "authorization_code":
                guard let url = written.authorization ?? discovered?.authorizationURL else { return nil }
                grant = .authorizationCode(authorizationURL: url)
            case "device_code":
                guard let url = written.device ?? discovered?.deviceAuthorizationURL else { return nil }
                grant = .deviceCode(authorizationURL: url)
            default: grant = .clientCredentials
            }
            return OAuth2Configuration(
                tokenURL: tokenURL, grant: grant, clientID: clientID, clientSecret: secret,
                clientAuthentication: OAuth2ClientAuthentication(rawValue: settings.clientAuth) ?? .basic, scopes: settings.scopes,
                audience: audience, parameters: parameters)
        }
        if issuer == nil, configuration(discovered: nil) == nil { return nil }
        let show: @Sendable (DeviceAuthorization) -> Void = { authorization in
            prompt?(SignInPrompt(
                environment: environment, userCode: authorization.userCode, verificationURL: authorization.verificationURI,
                completeURL: authorization.verificationURIComplete))
        }
        // `persist: true`: the live token outlives the run (stub tokens are fixtures, never kept).
        let keeper = settings.persist ? persistence : nil
        let initial = keeper?.token(for: environment)
        let keys = transport.map { IssuerKeys(issuer: issuer, transport: $0) }
        let live = transport.map { transport in
            let openBrowser: @Sendable (URL) -> Void = { url in
                prompt?(SignInPrompt(environment: environment, userCode: "", verificationURL: url.absoluteString))
            }
            let keep: @Sendable (OAuth2Token?) -> Void = { token in keeper?.keep(token, for: environment) }
            // With an issuer, its metadata is read when a sign-in is first needed (OpenID Connect Discovery).
            return OAuth2Session(initial: initial, onChange: keep) { refreshToken throws(OAuth2Error) in
                let discovered = try await issuer.asyncMap { issuer throws(OAuth2Error) in try await OAuth2Discovery.discover(issuer: issuer, transport: transport) }
                keys?.discovered(discovered)
                guard let configuration = configuration(discovered: discovered) else {
                    throw OAuth2Error(code: "invalid_request", message: "Neither the catalog nor the issuer's metadata gives the endpoints the \(settings.grant) grant needs.")
                }
                let client = OAuth2Client(configuration: configuration, transport: transport, prompt: show, openBrowser: openBrowser)
                return try await OAuth2Session.obtain(with: client, refreshToken: refreshToken)
            }
        }
        let stubToken = settings.stubToken
        let stub = OAuth2Session { _ throws(OAuth2Error) in OAuth2Token(accessToken: stubToken, scope: settings.scopes.joined(separator: " ")) }
        return OAuth2Sessions(live: live, stub: stub, settings: settings, keys: keys, environment: environment)
    }

    /// Puts the current token in the request (getting one first when needed), every attempt.
    static func oauth2Adapter(_ sessions: OAuth2Sessions, fixtures: StubBehavior, registry: SecretRegistry, signOuts: SignOutLog) -> Interceptor.Adapter {
        Interceptor.Adapter(name: "oauth2") { request throws(DispatchError) in
            let stubbed = (request.options.stubBehavior ?? fixtures).isStubbed
            guard let session = stubbed ? sessions.stub : sessions.live else {
                throw DispatchError(kind: .invalidRequest, message: "OAuth 2.0 sign-in needs live mode's transport.", source: "oauth2")
            }
            let token: OAuth2Token
            // A token held but not renewed (its refresh and a new sign-in refused) signs the session out.
            let held = session.token != nil
            do throws(OAuth2Error) {
                token = try await session.validToken()
            } catch {
                guard held else {
                    throw DispatchError(kind: .unauthorized, message: "Could not sign in with OAuth 2.0: \(error.message)", status: error.status, source: "oauth2")
                }
                session.signOut()
                signOuts.record(.tokenNotRenewed(error.message), for: request.id)
                let environment = sessions.environment
                throw DispatchError(
                    kind: .unauthorized,
                    message: "\(ServiceSession.signedOutPrefix) \(environment.service) · \(environment.environment): the OAuth 2.0 token could not be renewed "
                        + "(\(error.message)); the next request signs in again.",
                    status: error.status, source: ServiceSession.oauth2SignOutSource)
            }
            registry.register(token.accessToken)
            if let refresh = token.refreshToken { registry.register(refresh) }
            if let idToken = token.idToken { registry.register(idToken) }
            request.headers.set(sessions.settings.header, sessions.settings.prefix + token.accessToken, origin: .auth("oauth2"))
        }
    }

    /// On a 401, the token the request carried is dropped and the request resumed once: the adapter
    /// then signs in again (or refreshes).
    static func oauth2RefreshHandler(_ sessions: OAuth2Sessions, fixtures: StubBehavior) -> MatchingErrorHandler {
        MatchingErrorHandler(name: "oauth2 token", match: .statuses([401])) { _, request in
            guard !request.options.isResumed, let sent = request.headers[sessions.settings.header] else { return nil }
            let token = String(sent.dropFirst(sessions.settings.prefix.count))
            let stubbed = (request.options.stubBehavior ?? fixtures).isStubbed
            (stubbed ? sessions.stub : sessions.live)?.invalidate(token)
            return .resume(note: "the token was refused; getting a new one and resuming")
        }
    }
}

extension Optional {
    /// The wrapped value mapped by an async throwing function.
    fileprivate func asyncMap<U, E: Error>(_ transform: (Wrapped) async throws(E) -> U) async throws(E) -> U? {
        guard let self else { return nil }
        return try await transform(self)
    }
}
