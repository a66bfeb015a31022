import DispatcherCore
import FoundationEssentials
import JSONSupport
import JWTKit

/// What is known of a JWT's signature, for the token view.
public enum JWTSignature: Sendable, Hashable {
    /// It verifies with one of the issuer's published keys.
    case verified(algorithm: String, keyID: String?)
    /// It does not: the reason (no such key, a bad signature, an algorithm the keys do not allow).
    case failed(String)
    /// It was not checked: why (no issuer, no published keys, the keys could not be read).
    case unchecked(String)
}

/// Checks JWT signatures against an issuer's JSON Web Key Set (RFC 7517), with vapor/jwt-kit.
/// Only the signature: the claims (expiry, audience) are shown, not judged, since the token view
/// is for reading tokens, expired ones included.
public enum JWTSignatureCheck {
    /// The signature of `token` checked against the keys of `jwks` (the JWKS document's bytes).
    public static func check(_ token: String, jwks: Data) async -> JWTSignature {
        let keys = JWTKeyCollection()
        do {
            try await keys.add(jwksJSON: String(decoding: jwks, as: UTF8.self))
        } catch {
            return .unchecked("the issuer's key set could not be read (\(error))")
        }
        let header = JWTParts(token)
        // The kid names the key (RFC 7515 §4.1.4): one the set lacks is not replaced by another.
        if let kid = header?.keyID, case .array(let published)? = (try? JSONValue.parse(jwks))?["keys"],
            !published.contains(where: { $0["kid"]?.stringValue == kid })
        {
            return .failed("no key '\(kid)' in the issuer's key set")
        }
        do {
            _ = try await keys.verify(token, as: AnyClaims.self)
            return .verified(algorithm: header?.algorithm ?? "?", keyID: header?.keyID)
        } catch let error as JWTError {
            switch error.errorType {
            case .signatureVerificationFailed: return .failed("the signature does not match the issuer's key\(header?.keyID.map { " '\($0)'" } ?? "")")
            case .unknownKID: return .failed("no key '\(header?.keyID ?? "")' in the issuer's key set")
            default: return .failed(error.reason ?? "\(error.errorType)")
            }
        } catch {
            return .failed("\(error)")
        }
    }

    /// Fetches an issuer's key set.
    public static func fetchKeys(at url: URL, transport: any Transport) async throws(OAuth2Error) -> Data {
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

    /// Any claims: the signature is what is checked.
    private struct AnyClaims: JWTPayload {
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }
}
