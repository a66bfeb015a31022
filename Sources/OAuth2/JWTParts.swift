import CryptoSupport
import FoundationEssentials
import JSONSupport

/// The header and claims of a compact JWS (`xxx.yyy.zzz`, base64url JSON), read without checking
/// anything: what the token view shows and what picks the key to check it with.
public struct JWTParts: Sendable, Hashable {
    /// The JOSE header (`alg`, `kid` …).
    public var header: JSONValue
    /// The claims.
    public var claims: JSONValue

    /// The parts of `token`, nil when it is not a JWT.
    public init?(_ token: String) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let header = Self.base64URLJSON(parts[0]), let claims = Self.base64URLJSON(parts[1]),
            case .object = header, case .object = claims
        else { return nil }
        self.header = header
        self.claims = claims
    }

    /// The signing algorithm the header names.
    public var algorithm: String? { header["alg"]?.stringValue }
    /// The key the header names.
    public var keyID: String? { header["kid"]?.stringValue }

    private static func base64URLJSON(_ part: Substring) -> JSONValue? {
        Base64URL.decode(part).flatMap { try? JSONValue.parse(Data($0)) }
    }
}
