import DispatcherCore
import Foundation
import JWTKit
import OAuth2
import Synchronization
import TestSupport
import Testing

@testable import Catalog

/// A JWT access token's signature, checked in the token view against the keys the issuer
/// publishes (`jwks_uri` of its metadata), with vapor/jwt-kit.
@Suite struct JWTSignatureTests {
    struct Claims: JWTPayload {
        var sub: SubjectClaim
        var exp: ExpirationClaim
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    /// A signed token and the JWKS that verifies it.
    static func signed(kid: String = "k1", signingKey: ES256PrivateKey, publishedKey: ES256PrivateKey) async throws -> (token: String, jwks: String) {
        let signer = JWTKeyCollection()
        await signer.add(ecdsa: signingKey, kid: JWKIdentifier(string: kid))
        let token = try await signer.sign(Claims(sub: "ann", exp: ExpirationClaim(value: Date().addingTimeInterval(600))), kid: JWKIdentifier(string: kid))
        let parameters = try #require(publishedKey.publicKey.parameters)
        let jwks = #"{"keys":[{"kty":"EC","crv":"P-256","use":"sig","alg":"ES256","kid":"k1","x":"\#(parameters.x)","y":"\#(parameters.y)"}]}"#
        return (token, jwks)
    }

    @Test func aSignatureVerifiesOnlyWithTheKeyThatMadeIt() async throws {
        let key = ES256PrivateKey()
        let (token, jwks) = try await Self.signed(signingKey: key, publishedKey: key)
        #expect(await JWTSignatureCheck.check(token, jwks: Data(jwks.utf8)) == .verified(algorithm: "ES256", keyID: "k1"))
        let forged = try await Self.signed(signingKey: ES256PrivateKey(), publishedKey: key)
        #expect(await JWTSignatureCheck.check(forged.token, jwks: Data(jwks.utf8)) == .failed("the signature does not match the issuer's key 'k1'"))
        let unknown = try await Self.signed(kid: "k9", signingKey: key, publishedKey: key)
        let result = await JWTSignatureCheck.check(unknown.token, jwks: Data(jwks.utf8))
        #expect(result == .failed("no key 'k9' in the issuer's key set"), "\(result)")
        guard case .unchecked = await JWTSignatureCheck.check(token, jwks: Data("not json".utf8)) else {
            Issue.record("an unreadable key set leaves the signature unchecked")
            return
        }
    }

    @Test func theTokenViewChecksALiveTokenAgainstTheIssuersKeys() async throws {
        let key = ES256PrivateKey()
        let (token, jwks) = try await Self.signed(signingKey: key, publishedKey: key)
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
