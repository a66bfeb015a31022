import DispatcherCore
import FoundationEssentials
import JSONSupport

/// Asks a token endpoint for tokens (RFC 6749 §3.2, §4.3, §4.4, §6) through a `Transport`, so the
/// live transport's TLS, proxy and limits apply and no second HTTP stack is needed.
package struct OAuth2Client: Sendable {
    /// The configuration.
    package let configuration: OAuth2Configuration
    private let transport: any Transport
    private let now: @Sendable () -> Date
    private let sleep: @Sendable (Duration) async throws -> Void
    private let prompt: @Sendable (DeviceAuthorization) -> Void
    private let openBrowser: @Sendable (URL) -> Void
    private let redirectTimeout: Duration

    /// Makes a client. `prompt` shows the device flow's code and URL to the user; `sleep` waits
    /// between its polls (tests give their own).
    package init(
        configuration: OAuth2Configuration, transport: any Transport, now: @escaping @Sendable () -> Date = { Date() },
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        prompt: @escaping @Sendable (DeviceAuthorization) -> Void = { _ in },
        openBrowser: @escaping @Sendable (URL) -> Void = { _ in }, redirectTimeout: Duration = .seconds(300)
    ) {
        self.openBrowser = openBrowser
        self.redirectTimeout = redirectTimeout
        self.configuration = configuration
        self.transport = transport
        self.now = now
        self.sleep = sleep
        self.prompt = prompt
    }

    /// A new token by the configured grant.
    package func signIn() async throws(OAuth2Error) -> OAuth2Token {
        var form = [("grant_type", configuration.grant.type)]
        switch configuration.grant {
        case .clientCredentials: break
        case .password(let username, let password): form += [("username", username), ("password", password)]
        case .deviceCode(let url):
            let authorization = try await authorizeDevice(at: url)
            prompt(authorization)
            return try await pollDeviceToken(authorization)
        case .authorizationCode(let url):
            return try await signInWithBrowser(authorizationURL: url)
        }
        return try await request(form)
    }

    /// Asks for a device code and a user code (RFC 8628 §3.1).
    package func authorizeDevice(at url: URL) async throws(OAuth2Error) -> DeviceAuthorization {
        let json = try await post([], to: url, what: "device authorization endpoint")
        guard let deviceCode = json["device_code"]?.stringValue, let userCode = json["user_code"]?.stringValue,
            let uri = json["verification_uri"]?.stringValue ?? json["verification_url"]?.stringValue
        else {
            throw OAuth2Error(code: "invalid_response", message: "The device authorization endpoint answered without device_code, user_code and verification_uri.")
        }
        return DeviceAuthorization(
            deviceCode: deviceCode, userCode: userCode, verificationURI: uri, verificationURIComplete: json["verification_uri_complete"]?.stringValue,
            expiresIn: .seconds(Self.number(json["expires_in"]) ?? 900), interval: .seconds(Self.number(json["interval"]) ?? 5))
    }

    /// Polls until the user approved (§3.4–3.5): `authorization_pending` waits another interval,
    /// `slow_down` adds 5 s to it, `access_denied` and `expired_token` end it.
    package func pollDeviceToken(_ authorization: DeviceAuthorization) async throws(OAuth2Error) -> OAuth2Token {
        var interval = authorization.interval
        var waited = Duration.zero
        while true {
            do {
                try await sleep(interval)
            } catch {
                throw OAuth2Error(code: "cancelled", message: "Signing in was cancelled.")
            }
            waited += interval
            do throws(OAuth2Error) {
                return try await request([("grant_type", configuration.grant.type), ("device_code", authorization.deviceCode)])
            } catch {
                switch error.code {
                case "authorization_pending": break
                case "slow_down": interval += .seconds(5)
                case "access_denied": throw OAuth2Error(code: error.code, message: "Signing in was refused at \(authorization.verificationURI).", status: error.status)
                case "expired_token": throw OAuth2Error(code: error.code, message: "The code \(authorization.userCode) expired before it was approved; sign in again.", status: error.status)
                default: throw error
                }
                if waited >= authorization.expiresIn {
                    throw OAuth2Error(code: "expired_token", message: "The code \(authorization.userCode) expired before it was approved; sign in again.")
                }
            }
        }
    }

    /// The authorization code flow: the browser is sent to the authorization endpoint with a PKCE
    /// challenge and a `state`; the redirect to 127.0.0.1 brings the code back, which is exchanged
    /// with the verifier (RFC 6749 §4.1.3, RFC 7636 §4.5).
    package func signInWithBrowser(authorizationURL: URL) async throws(OAuth2Error) -> OAuth2Token {
        let redirect: LoopbackRedirect
        do {
            redirect = try await LoopbackRedirect.start()
        } catch {
            throw OAuth2Error(code: "transport", message: "Could not listen on 127.0.0.1 for the sign-in redirect: \(error).")
        }
        let pkce = PKCE()
        let state = PKCE.randomState()
        var components = URLComponents(url: authorizationURL, resolvingAgainstBaseURL: false) ?? URLComponents()
        var items = components.queryItems ?? []
        items += [
            URLQueryItem(name: "response_type", value: "code"), URLQueryItem(name: "client_id", value: configuration.clientID),
            URLQueryItem(name: "redirect_uri", value: redirect.redirectURI), URLQueryItem(name: "state", value: state),
            URLQueryItem(name: "code_challenge", value: pkce.challenge), URLQueryItem(name: "code_challenge_method", value: pkce.method),
        ]
        if !configuration.scopes.isEmpty { items.append(URLQueryItem(name: "scope", value: configuration.scopes.joined(separator: " "))) }
        if let audience = configuration.audience { items.append(URLQueryItem(name: "audience", value: audience)) }
        components.queryItems = items
        guard let url = components.url else {
            await redirect.close()
            throw OAuth2Error(code: "invalid_request", message: "The authorization URL \(authorizationURL.absoluteString) is not valid.")
        }
        openBrowser(url)
        let timeout = redirectTimeout
        let result = await withTaskGroup(of: LoopbackRedirect.Result?.self) { group in
            group.addTask { await redirect.wait() }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            // A wait cannot be cancelled: closing the listener ends it.
            if first == nil { await redirect.close() }
            return first
        }
        await redirect.close()
        guard let query = result?.query else {
            throw OAuth2Error(code: "expired_token", message: "No sign-in came back from the browser within \(timeout.components.seconds) s.")
        }
        guard query["state"] == state else {
            throw OAuth2Error(code: "invalid_request", message: "The sign-in redirect carried another state than the one sent: it was not ours, so it was refused.")
        }
        if let error = query["error"] {
            throw OAuth2Error(code: error, message: "Signing in was refused: \(error)\(query["error_description"].map { " (\($0))" } ?? "").")
        }
        guard let code = query["code"] else {
            throw OAuth2Error(code: "invalid_request", message: "The sign-in redirect carried no code.")
        }
        return try await request([
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirect.redirectURI), ("code_verifier", pkce.verifier),
        ])
    }

    static func number(_ value: JSONValue?) -> Double? {
        guard let value else { return nil }
        if case .number(let text) = value { return Double(text) }
        return value.stringValue.flatMap(Double.init)
    }

    /// A new token from a refresh token (§6); a server that rotates refresh tokens sends a new one,
    /// else the old one stays.
    package func refresh(_ refreshToken: String) async throws(OAuth2Error) -> OAuth2Token {
        var token = try await request([("grant_type", "refresh_token"), ("refresh_token", refreshToken)])
        if token.refreshToken == nil { token.refreshToken = refreshToken }
        return token
    }

    /// The token request: a form POST with the client's authentication, scopes and extra parameters.
    func request(_ base: [(String, String)]) async throws(OAuth2Error) -> OAuth2Token {
        let json = try await post(base, to: configuration.tokenURL, what: "token endpoint")
        guard let access = json["access_token"]?.stringValue, !access.isEmpty else {
            throw OAuth2Error(code: "invalid_response", message: "The token endpoint answered without an access_token.")
        }
        return OAuth2Token(
            accessToken: access, tokenType: json["token_type"]?.stringValue ?? "Bearer",
            expiresAt: Self.number(json["expires_in"]).map { now().addingTimeInterval($0) }, refreshToken: json["refresh_token"]?.stringValue,
            scope: json["scope"]?.stringValue, idToken: json["id_token"]?.stringValue)
    }

    /// A form POST to an endpoint of the authorization server with the client's authentication,
    /// scopes and extra parameters; its JSON answer, or the §5.2 error explained.
    func post(_ base: [(String, String)], to url: URL, what endpoint: String) async throws(OAuth2Error) -> JSONValue {
        var form = base
        if !configuration.scopes.isEmpty { form.append(("scope", configuration.scopes.joined(separator: " "))) }
        if let audience = configuration.audience { form.append(("audience", audience)) }
        form += configuration.parameters
        var headers = Headers([("Accept", "application/json"), ("Content-Type", "application/x-www-form-urlencoded")], origin: .plugin("oauth2"))
        // A public client (no secret, as device apps are) names itself in the form.
        switch configuration.clientSecret == nil ? .post : configuration.clientAuthentication {
        case .basic:
            // §2.3.1: the id and secret are form-encoded before Basic.
            let pair = FormEncoding.escape(configuration.clientID) + ":" + FormEncoding.escape(configuration.clientSecret ?? "")
            headers.set("Authorization", "Basic " + Data(pair.utf8).base64EncodedString(), origin: .plugin("oauth2"))
        case .post:
            form.append(("client_id", configuration.clientID))
            if let secret = configuration.clientSecret { form.append(("client_secret", secret)) }
        }
        let body = Data(FormEncoding.encode(form.map { QueryItem(name: $0.0, value: $0.1) }).utf8)
        let request = Request(
            identifier: "oauth2 \(endpoint)", method: .post, url: url, headers: headers, body: body,
            settings: TransportSettings(environment: Environment(name: "oauth2", baseURL: url, cachePolicy: .reloadIgnoringCache)))
        let response: Response
        do {
            response = try await transport.send(request)
        } catch {
            throw OAuth2Error(code: "transport", message: "The \(endpoint) \(url.absoluteString) could not be reached: \(error.message)")
        }
        let json = try? JSONValue.parse(response.body)
        guard (200..<300).contains(response.status) else {
            let code = json?["error"]?.stringValue ?? "http_\(response.status)"
            let detail = json?["error_description"]?.stringValue.map { " (\($0))" } ?? ""
            throw OAuth2Error(
                code: code, message: "The \(endpoint) answered \(response.statusLine) \(code): \(OAuth2Error.explanation(code))\(detail).",
                status: response.status)
        }
        guard let json else {
            throw OAuth2Error(code: "invalid_response", message: "The \(endpoint) answered \(response.statusLine) without JSON.", status: response.status)
        }
        return json
    }
}
