import CryptoSupport
import FoundationEssentials
import JSONSupport

/// The header and claims of a compact JWS (`xxx.yyy.zzz`, base64url JSON), read without checking
/// anything: what the token view shows and what picks the key to check it with.
package struct JWTParts: Sendable, Hashable {
    /// The JOSE header (`alg`, `kid` …).
    package var header: JSONValue
    /// The claims.
    package var claims: JSONValue

    /// The parts of `token`, nil when it is not a JWT.
    package init?(_ token: String) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let header = Self.base64URLJSON(parts[0]), let claims = Self.base64URLJSON(parts[1]),
            case .object = header, case .object = claims
        else { return nil }
        self.header = header
        self.claims = claims
    }

    /// The signing algorithm the header names.
    package var algorithm: String? { header["alg"]?.stringValue }
    /// The key the header names.
    package var keyID: String? { header["kid"]?.stringValue }

    private static func base64URLJSON(_ part: Substring) -> JSONValue? {
        Base64URL.decode(part).flatMap { try? JSONValue.parse(Data($0)) }
    }
}
