import FoundationEssentials
import TextSupport

/// Credentials written in a URL's userinfo (`http://ann:pw@host/`), as curl reads them: the user
/// and password percent-decoded (`ann%40corp` is `ann@corp`), sent as `Authorization: Basic`
/// (RFC 7617), never in the request line. A URL that names only a user sends an empty password.
package struct URLCredentials: Sendable, Hashable {
    /// The user, decoded.
    package var user: String
    /// The password, decoded (empty when the URL gives none).
    package var password: String

    /// The credentials of `url`; nil when it has no userinfo.
    package init?(_ url: URL) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false), let user = components.percentEncodedUser else { return nil }
        self.user = PercentEncoding.decode(user) ?? user
        self.password = components.percentEncodedPassword.map { PercentEncoding.decode($0) ?? $0 } ?? ""
    }

    /// `Basic dXNlcjpwYXNz`.
    package var authorization: String {
        "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    }

    /// What a redactor must know to mask them wherever they appear: the password and the
    /// encoded pair (an empty password is nothing to mask).
    package var secretValues: [String] {
        password.isEmpty ? [] : [password, String(authorization.dropFirst("Basic ".count))]
    }

    /// `url` without its userinfo.
    package static func removing(from url: URL) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false), components.percentEncodedUser != nil else { return url }
        components.percentEncodedUser = nil
        components.percentEncodedPassword = nil
        return components.url ?? url
    }
}
