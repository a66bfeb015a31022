import DispatcherCore
import FoundationEssentials
import JSONSupport

/// Asks a token endpoint for tokens (RFC 6749 §3.2, §4.3, §4.4, §6) through a `Transport`, so the
/// live transport's TLS, proxy and limits apply and no second HTTP stack is needed.
public struct OAuth2Client: Sendable {
    /// The configuration.
    public let configuration: OAuth2Configuration
    private let transport: any Transport
    private let now: @Sendable () -> Date

    /// Makes a client.
    public init(configuration: OAuth2Configuration, transport: any Transport, now: @escaping @Sendable () -> Date = { Date() }) {
        self.configuration = configuration
        self.transport = transport
        self.now = now
    }

    /// A new token by the configured grant.
    public func signIn() async throws(OAuth2Error) -> OAuth2Token {
        var form = [("grant_type", configuration.grant.type)]
        if case .password(let username, let password) = configuration.grant {
            form += [("username", username), ("password", password)]
        }
        return try await request(form)
    }

    /// A new token from a refresh token (§6); a server that rotates refresh tokens sends a new one,
    /// else the old one stays.
    public func refresh(_ refreshToken: String) async throws(OAuth2Error) -> OAuth2Token {
        var token = try await request([("grant_type", "refresh_token"), ("refresh_token", refreshToken)])
        if token.refreshToken == nil { token.refreshToken = refreshToken }
        return token
    }

    /// The token request: a form POST with the client's authentication, scopes and extra parameters.
    func request(_ base: [(String, String)]) async throws(OAuth2Error) -> OAuth2Token {
        var form = base
        if !configuration.scopes.isEmpty { form.append(("scope", configuration.scopes.joined(separator: " "))) }
        if let audience = configuration.audience { form.append(("audience", audience)) }
        form += configuration.parameters
        var headers = Headers([("Accept", "application/json"), ("Content-Type", "application/x-www-form-urlencoded")], origin: .plugin("oauth2"))
        switch configuration.clientAuthentication {
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
            identifier: "oauth2 token", method: .post, url: configuration.tokenURL, headers: headers, body: body,
            settings: TransportSettings(environment: Environment(name: "oauth2", baseURL: configuration.tokenURL, cachePolicy: .reloadIgnoringCache)))
        let response: Response
        do {
            response = try await transport.send(request)
        } catch {
            throw OAuth2Error(code: "transport", message: "The token endpoint \(configuration.tokenURL.absoluteString) could not be reached: \(error.message)")
        }
        let json = try? JSONValue.parse(response.body)
        guard (200..<300).contains(response.status) else {
            let code = json?["error"]?.stringValue ?? "http_\(response.status)"
            let detail = json?["error_description"]?.stringValue.map { " (\($0))" } ?? ""
            throw OAuth2Error(
                code: code, message: "The token endpoint answered \(response.statusLine) \(code): \(OAuth2Error.explanation(code))\(detail).",
                status: response.status)
        }
        guard let json, let access = json["access_token"]?.stringValue, !access.isEmpty else {
            throw OAuth2Error(code: "invalid_response", message: "The token endpoint answered \(response.statusLine) without an access_token.", status: response.status)
        }
        let expiresIn = json["expires_in"].flatMap { value -> Double? in
            if case .number(let text) = value { Double(text) } else { value.stringValue.flatMap(Double.init) }
        }
        return OAuth2Token(
            accessToken: access, tokenType: json["token_type"]?.stringValue ?? "Bearer",
            expiresAt: expiresIn.map { now().addingTimeInterval($0) }, refreshToken: json["refresh_token"]?.stringValue,
            scope: json["scope"]?.stringValue)
    }
}
