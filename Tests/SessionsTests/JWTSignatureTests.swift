import CatalogTestSupport
import DispatcherCore
import Foundation
import CryptoSupport
import OAuth2
import Sessions
import Synchronization
import TestSupport
import Testing

@testable import Catalog
import TestTraits

/// A JWT access token's signature, checked in the token view against the keys the issuer
/// publishes (`jwks_uri` of its metadata).
@Suite(.offPool) struct JWTSignatureTests {
    /// A token signed with `signingKey` and the JWKS that publishes `publishedKey`.
    static func signed(
        kid: String = "k1", algorithm: SignatureAlgorithm = .es256, signingKey: SigningKey, publishedKey: SigningKey
    ) throws -> (token: String, jwks: String) {
        let header = Base64URL.encode(Array(#"{"alg":"\#(algorithm.rawValue)","typ":"JWT","kid":"\#(kid)"}"#.utf8))
        let claims = Base64URL.encode(Array(#"{"sub":"ann","exp":\#(Int(Date().timeIntervalSince1970) + 600)}"#.utf8))
        let signature = try signingKey.signature(for: Array("\(header).\(claims)".utf8), algorithm: algorithm)
        let members = publishedKey.publicJWK.map { #""\#($0.0)":"\#($0.1)""# } + [#""use":"sig""#, #""alg":"\#(algorithm.rawValue)""#, #""kid":"k1""#]
        return ("\(header).\(claims).\(Base64URL.encode(signature))", #"{"keys":[{\#(members.joined(separator: ","))}]}"#)
    }

    @Test func aSignatureVerifiesOnlyWithTheKeyThatMadeIt() throws {
        let key = try SigningKey.generate(.ec(.p256))
        let (token, jwks) = try Self.signed(signingKey: key, publishedKey: key)
        #expect(JWTSignatureCheck.check(token, jwks: Data(jwks.utf8)) == .verified(algorithm: "ES256", keyID: "k1"))
        let forged = try Self.signed(signingKey: try SigningKey.generate(.ec(.p256)), publishedKey: key)
        #expect(JWTSignatureCheck.check(forged.token, jwks: Data(jwks.utf8)) == .failed("the signature does not match the issuer's key 'k1'"))
        let unknown = try Self.signed(kid: "k9", signingKey: key, publishedKey: key)
        let result = JWTSignatureCheck.check(unknown.token, jwks: Data(jwks.utf8))
        #expect(result == .failed("no key 'k9' in the issuer's key set"), "\(result)")
        guard case .unchecked = JWTSignatureCheck.check(token, jwks: Data("not json".utf8)) else {
            Issue.record("an unreadable key set leaves the signature unchecked")
            return
        }
    }

    @Test(arguments: [
        (SigningKey.Kind.rsa(bits: 2048), SignatureAlgorithm.rs256), (.rsa(bits: 2048), .ps384), (.ec(.p384), .es384), (.ec(.p521), .es512),
        (.ed25519, .edDSA),
    ])
    func everyAlgorithmAnIssuerPublishesIsChecked(kind: SigningKey.Kind, algorithm: SignatureAlgorithm) throws {
        // Real providers sign ID tokens with RS256 most of all; some with PS, ES or EdDSA.
        let key = try SigningKey.generate(kind)
        let (token, jwks) = try Self.signed(algorithm: algorithm, signingKey: key, publishedKey: key)
        #expect(JWTSignatureCheck.check(token, jwks: Data(jwks.utf8)) == .verified(algorithm: algorithm.rawValue, keyID: "k1"))
        let other = try Self.signed(algorithm: algorithm, signingKey: try SigningKey.generate(kind), publishedKey: key)
        #expect(JWTSignatureCheck.check(other.token, jwks: Data(jwks.utf8)) == .failed("the signature does not match the issuer's key 'k1'"))
    }

    @Test func anUnsignedOrUnknownAlgorithmIsNotVerified() throws {
        let key = try SigningKey.generate(.ec(.p256))
        let (token, jwks) = try Self.signed(signingKey: key, publishedKey: key)
        let parts = token.split(separator: ".")
        let none = Base64URL.encode(Array(#"{"alg":"none","kid":"k1"}"#.utf8)) + "." + parts[1] + "."
        #expect(JWTSignatureCheck.check(none, jwks: Data(jwks.utf8)) == .failed("the algorithm 'none' is not supported"))
        let hs = Base64URL.encode(Array(#"{"alg":"HS256","kid":"k1"}"#.utf8)) + "." + parts[1] + "." + parts[2]
        #expect(JWTSignatureCheck.check(hs, jwks: Data(jwks.utf8)) == .failed("the algorithm 'HS256' is not supported"))
    }

    @Test func theTokenViewChecksALiveTokenAgainstTheIssuersKeys() async throws {
        let key = try SigningKey.generate(.ec(.p256))
        let (token, jwks) = try Self.signed(signingKey: key, publishedKey: key)
        let handler: TestHTTPServer.Handler = { request in
            let base = "http://127.0.0.1:\(request.headers.first(name: "Host")?.split(separator: ":").last ?? "")"
            switch request.path {
            case "/.well-known/openid-configuration":
                return .json(#"{"issuer":"\#(base)","token_endpoint":"\#(base)/oauth/token","jwks_uri":"\#(base)/jwks"}"#)
            case "/oauth/token": return .json(#"{"access_token":"\#(token)","expires_in":600}"#)
            case "/jwks": return .json(jwks)
            default: return .json(#"{"me":"ann"}"#)
            }
        }
        try await withTestHTTPServer(handler: handler) { http in
            let base = http.baseURL.absoluteString
            let text = OAuth2CatalogTests.catalog(base).replacingOccurrences(of: "    tokenURL: \"\(base)/token\"\n", with: "    issuer: \"\(base)\"\n")
            let service = try #require(CatalogLoader.load(fileSystem: InMemoryFileSystem(texts: ["api.yaml": text]), source: .bundled).service("api"))
            let session = ServiceSession(
                service: service, environment: service.environments[0], secrets: SecretStore(processEnvironment: ["APIEXPLORER_SECRET_API_SECRET": "s"]), transport: TestHTTPTransport())
            _ = await session.send("me", options: RequestOptions(stubBehavior: .never))
            let live = await session.checkedTokens(stubbed: false)
            #expect(live.first?.signature == .verified(algorithm: "ES256", keyID: "k1"))
            #expect(live.first?.jwt?.claims["sub"]?.stringValue == "ann")
            let stub = await session.checkedTokens(stubbed: true)
            #expect(stub.allSatisfy { $0.jwt == nil || $0.signature == .unchecked("a stub token: fixtures are not signed by the issuer") })
        }
    }
}
