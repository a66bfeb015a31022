import CryptoSupport
import DispatcherCore
import FoundationEssentials
import JSONSupport

/// What is known of a JWT's signature, for the token view.
package enum JWTSignature: Sendable, Hashable {
    /// It verifies with one of the issuer's published keys.
    case verified(algorithm: String, keyID: String?)
    /// It does not: the reason (no such key, a bad signature, an algorithm the keys do not allow).
    case failed(String)
    /// It was not checked: why (no issuer, no published keys, the keys could not be read).
    case unchecked(String)
}

/// Checks JWT signatures against an issuer's JSON Web Key Set (RFC 7517): RS, PS and ES with
/// SHA-256/384/512 and EdDSA (Ed25519), by the system's libcrypto. Only the signature: the claims
/// (expiry, audience) are shown, not judged, since the token view is for reading tokens, expired
/// ones included.
package enum JWTSignatureCheck {
    /// The signature of `token` checked against the keys of `jwks` (the JWKS document's bytes).
    package static func check(_ token: String, jwks: Data) -> JWTSignature {
        let published: [JSONValue]
        do {
            guard case .array(let keys)? = try JSONValue.parse(jwks)["keys"] else {
                return .unchecked("the issuer's key set could not be read (it has no \"keys\" list)")
            }
            published = keys
        } catch {
            return .unchecked("the issuer's key set could not be read (\(error))")
        }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let header = JWTParts(token), let signature = Base64URL.decode(parts[2]) else {
            return .failed("the token is not a signed JWT")
        }
        let name = header.algorithm ?? "none"
        guard let algorithm = SignatureAlgorithm(rawValue: name) else { return .failed("the algorithm '\(name)' is not supported") }
        // The kid names the key (RFC 7515 §4.1.4): one the set lacks is not replaced by another.
        var candidates = published
        if let kid = header.keyID {
            candidates = published.filter { $0["kid"]?.stringValue == kid }
            if candidates.isEmpty { return .failed("no key '\(kid)' in the issuer's key set") }
        }
        let keys = candidates.compactMap { jwk -> VerifyingKey? in
            if let use = jwk["use"]?.stringValue, use != "sig" { return nil }
            if let alg = jwk["alg"]?.stringValue, alg != name { return nil }
            return (try? verifyingKey(jwk)).flatMap { $0.fits(algorithm) ? $0 : nil }
        }
        guard !keys.isEmpty else { return .failed("no key in the issuer's key set checks \(name)\(header.keyID.map { " (kid '\($0)')" } ?? "")") }
        let signed = Array("\(parts[0]).\(parts[1])".utf8)
        guard keys.contains(where: { $0.isValidSignature(signature, for: signed, algorithm: algorithm) }) else {
            return .failed("the signature does not match the issuer's key\(header.keyID.map { " '\($0)'" } ?? "")")
        }
        return .verified(algorithm: name, keyID: header.keyID)
    }

    /// The key a JWK describes (RSA, EC or OKP Ed25519).
    static func verifyingKey(_ jwk: JSONValue) throws -> VerifyingKey? {
        func bytes(_ member: String) -> [UInt8]? { jwk[member]?.stringValue.flatMap { Base64URL.decode($0) } }
        switch jwk["kty"]?.stringValue {
        case "RSA":
            guard let n = bytes("n"), let e = bytes("e") else { return nil }
            return try VerifyingKey.rsa(modulus: n, exponent: e)
        case "EC":
            guard let curve = jwk["crv"]?.stringValue.flatMap(EllipticCurve.init(rawValue:)), let x = bytes("x"), let y = bytes("y") else { return nil }
            return try VerifyingKey.ec(curve: curve, x: x, y: y)
        case "OKP":
            guard jwk["crv"]?.stringValue == "Ed25519", let x = bytes("x") else { return nil }
            return try VerifyingKey.ed25519(x)
        default:
            return nil
        }
    }

    /// Fetches an issuer's key set.
    package static func fetchKeys(at url: URL, transport: any Transport) async throws(OAuth2Error) -> Data {
        let request = Request(
            identifier: "oauth2 jwks", method: .get, url: url, headers: Headers([("Accept", "application/json")], origin: .plugin("oauth2")),
            settings: TransportSettings(environment: Environment(name: "oauth2", baseURL: url, cachePolicy: .reloadIgnoringCache)))
        let response: Response
        do {
            response = try await transport.send(request)
        } catch {
            throw OAuth2Error(code: "transport", message: "The issuer's keys at \(url.absoluteString) could not be fetched: \(error.message)")
        }
        guard response.status == 200 else {
            throw OAuth2Error(code: "invalid_response", message: "The issuer's keys at \(url.absoluteString) answered \(response.statusLine).")
        }
        return response.body
    }
}
