import CryptoSupport
import FoundationEssentials

/// Proof Key for Code Exchange (RFC 7636): a random verifier kept here and its S256 challenge sent
/// with the authorization request, so a stolen code is useless without the verifier.
package struct PKCE: Sendable, Hashable {
    /// 43–128 characters of `[A-Za-z0-9-._~]` (§4.1): 32 random bytes, base64url.
    package let verifier: String
    /// `BASE64URL(SHA256(verifier))` (§4.2).
    package var challenge: String { Self.challenge(for: verifier) }
    /// Always `S256`.
    package let method = "S256"

    /// A new random verifier.
    package init() {
        var generator = SystemRandomNumberGenerator()
        verifier = Base64URL.encode((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// A given verifier (tests use RFC 7636's own example).
    package init(verifier: String) {
        self.verifier = verifier
    }

    /// The S256 challenge of a verifier.
    package static func challenge(for verifier: String) -> String {
        Base64URL.encode(HashFunction.sha256.hash(verifier.utf8))
    }

    /// A random `state` value, checked when the redirect comes back (RFC 6749 §10.12).
    package static func randomState() -> String {
        var generator = SystemRandomNumberGenerator()
        return Base64URL.encode((0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }
}
