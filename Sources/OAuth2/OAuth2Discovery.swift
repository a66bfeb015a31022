import DispatcherCore
import FoundationEssentials
import JSONSupport

/// The endpoints an authorization server publishes (OpenID Connect Discovery 1.0 §4, RFC 8414 §3):
/// read from `ISSUER/.well-known/openid-configuration`, else `ISSUER/.well-known/oauth-authorization-server`.
package struct OAuth2Discovery: Sendable, Hashable {
    /// The token endpoint.
    package var tokenURL: URL
    /// The authorization endpoint (browser sign-in), if published.
    package var authorizationURL: URL?
    /// The device authorization endpoint, if published.
    package var deviceAuthorizationURL: URL?
    /// The signing keys' location, if published.
    package var jwksURL: URL?

    /// Reads the issuer's metadata; the issuer it states must be the one asked for (§4.3).
    package static func discover(issuer: URL, transport: any Transport) async throws(OAuth2Error) -> OAuth2Discovery {
        let base = issuer.absoluteString.hasSuffix("/") ? String(issuer.absoluteString.dropLast()) : issuer.absoluteString
        var failures: [String] = []
        for path in ["/.well-known/openid-configuration", "/.well-known/oauth-authorization-server"] {
            guard let url = URL(string: base + path) else { continue }
            let request = Request(
                identifier: "oauth2 discovery", method: .get, url: url, headers: Headers([("Accept", "application/json")], origin: .plugin("oauth2")),
                settings: TransportSettings(environment: Environment(name: "oauth2", baseURL: url, cachePolicy: .reloadIgnoringCache)))
            let response: Response
            do {
                response = try await transport.send(request)
            } catch {
                throw OAuth2Error(code: "transport", message: "The issuer \(base) could not be reached for its metadata: \(error.message)")
            }
            guard response.status == 200, let json = try? JSONValue.parse(response.body) else {
                failures.append("\(path) answered \(response.statusLine)")
                continue
            }
            if let stated = json["issuer"]?.stringValue, stated.trimmingSuffix("/") != base {
                throw OAuth2Error(code: "invalid_response", message: "The metadata at \(url.absoluteString) names another issuer (\(stated)); it was not used.")
            }
            guard let token = json["token_endpoint"]?.stringValue.flatMap(URL.init(string:)) else {
                throw OAuth2Error(code: "invalid_response", message: "The metadata at \(url.absoluteString) has no token_endpoint.")
            }
            return OAuth2Discovery(
                tokenURL: token, authorizationURL: json["authorization_endpoint"]?.stringValue.flatMap(URL.init(string:)),
                deviceAuthorizationURL: json["device_authorization_endpoint"]?.stringValue.flatMap(URL.init(string:)),
                jwksURL: json["jwks_uri"]?.stringValue.flatMap(URL.init(string:)))
        }
        throw OAuth2Error(code: "invalid_response", message: "The issuer \(base) publishes no metadata (\(failures.joined(separator: "; "))).")
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}
