import DispatcherCore
import Foundation
import LiveTransport
import OAuth2
import Synchronization
import TestSupport
import Testing
import TestTraits

/// The OpenID Connect `id_token` a token endpoint returns is kept with the access token, and
/// a refresh that sends none keeps the one held (OpenID Connect Core §12.2).
@Suite(.offPool) struct IDTokenTests {
    @Test func theIDTokenIsKeptWithTheAccessToken() async throws {
        let answer = #"{"access_token":"at","token_type":"Bearer","expires_in":60,"refresh_token":"rt","id_token":"h.c.s"}"#
        try await withTestHTTPServer(handler: { _ in .json(answer) }) { server in
            let client = OAuth2Client(
                configuration: OAuth2Configuration(tokenURL: server.url("/token"), grant: .clientCredentials, clientID: "app", clientSecret: "s"),
                transport: HTTPTransport())
            let token = try await client.signIn()
            #expect(token.idToken == "h.c.s")
            // Kept between runs too: the token file is this type, encoded.
            let decoded = try JSONDecoder().decode(OAuth2Token.self, from: JSONEncoder().encode(token))
            #expect(decoded.idToken == "h.c.s")
        }
    }

    @Test func aRefreshWithoutAnIDTokenKeepsTheOneHeld() async throws {
        let calls = Mutex(0)
        let session = OAuth2Session(now: { Date(timeIntervalSince1970: 1000) }) { refreshToken throws(OAuth2Error) in
            let call = calls.withLock { $0 += 1; return $0 }
            if refreshToken == nil {
                return OAuth2Token(accessToken: "at-\(call)", expiresAt: Date(timeIntervalSince1970: 0), refreshToken: "rt", idToken: "id-1")
            }
            return OAuth2Token(accessToken: "at-\(call)", expiresAt: Date(timeIntervalSince1970: 5000), refreshToken: "rt")
        }
        let first = try await session.validToken()
        #expect(first.idToken == "id-1")
        // Expired at once: the next asks with the refresh token, and the answer has no id_token.
        let second = try await session.validToken()
        #expect(second.accessToken == "at-2")
        #expect(second.idToken == "id-1")
        #expect(session.counts.refreshes == 1)
    }
}
