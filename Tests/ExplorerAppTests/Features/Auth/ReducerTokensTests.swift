import Catalog
import DispatcherCore
import ExplorerApp
import ExplorerTestSupport
import Foundation
import Sessions
import Testing
import TestTraits

/// `T`: the environment's tokens read by the runtime, shown with their expiry counted from when
/// they were read, masked until revealed; Enter signs out.
@Suite(.offPool) struct ReducerTokensTests {
    @Test func tAsksForTheTokensAndTheWindowShowsThemMaskedUntilRevealed() {
        var state = TestCatalog.state()
        let environment = TestCatalog.key("shop", "local")
        #expect(state.press("T") == [.auth(.loadTokens(environment: environment, mode: .stub))])
        let jwtPart = { (json: String) in Data(json.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "") }
        let jwt = jwtPart(#"{"alg":"HS256"}"#) + "." + jwtPart(#"{"sub":"ann"}"#) + ".sig"
        let token = SessionToken(source: "oauth2", value: jwt, type: "Bearer", scope: "read", expiresAt: TestCatalog.now.addingTimeInterval(600), hasRefreshToken: true)
        _ = AppReducer.reduce(&state, .auth(.tokensLoaded(environment: environment, mode: .stub, tokens: [token], at: TestCatalog.now)))
        var screen = state.screen
        #expect(screen.contains("Tokens · shop · local · STUB"))
        #expect(screen.contains("oauth2 · Bearer · scope read"))
        #expect(screen.contains("in 10 min 0 s (at 22:23:20)"))
        #expect(screen.contains("a refresh token is held"))
        #expect(screen.contains(#""sub": "ann""#))
        #expect(!screen.contains(jwt))
        // Revealed with v (outside the window), the value shows when it is opened again.
        _ = state.press("Esc v")
        _ = AppReducer.reduce(&state, .auth(.tokensLoaded(environment: environment, mode: .stub, tokens: [token], at: TestCatalog.now)))
        screen = state.screen
        #expect(screen.contains(String(jwt.prefix(20))))
        #expect(state.press("Enter") == [.auth(.signOut(environment: environment, mode: .stub))])
        #expect(state.overlay == nil)
        #expect(state.auth.signedOut[environment] == .byPerson)
    }

    @Test func theIDTokensClaimsShowWithTimesAsDatesAndDistances() {
        var state = TestCatalog.state()
        let environment = TestCatalog.key("shop", "local")
        let jwtPart = { (json: String) in Data(json.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "") }
        let now = Int(TestCatalog.now.timeIntervalSince1970)
        let exp = now + 9 * 86_400 + 23 * 3600 + 120
        let claims = #"{"sub":"ann","email":"ann@example.com","exp":\#(exp),"iat":\#(now - 3600)}"#
        let idToken = SessionToken(source: SessionToken.idTokenSource, value: jwtPart(#"{"alg":"RS256"}"#) + "." + jwtPart(claims) + ".sig", type: "OpenID Connect ID token")
        _ = AppReducer.reduce(&state, .auth(.tokensLoaded(environment: environment, mode: .live, tokens: [idToken], at: TestCatalog.now)))
        let screen = state.screen
        #expect(screen.contains("oauth2 id_token · OpenID Connect ID token"))
        #expect(screen.contains(#""email": "ann@example.com""#))
        // Ten days off: a date, not a bare clock; an hour ago today: the clock.
        let date = Date(timeIntervalSince1970: TimeInterval(exp))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        let day = String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
        #expect(screen.contains("expires  in 9 d 23 h (\(day) "), "\(screen)")
        #expect(screen.contains("exp       in 9 d 23 h (\(day) "), "\(screen)")
        #expect(screen.contains("iat       1 h 0 min ago (at "), "\(screen)")
    }

    @Test func anEnvironmentWithoutTokensSaysHowOneComes() {
        var state = TestCatalog.state()
        _ = AppReducer.reduce(&state, .auth(.tokensLoaded(environment: TestCatalog.key("shop", "local"), mode: .live, tokens: [], at: TestCatalog.now)))
        #expect(state.screen.contains("No token yet: the first request that needs one signs in."))
    }

    @Test func sSignsInAgainAndTheSignatureLineSaysWhatWasChecked() {
        var state = TestCatalog.state()
        let environment = TestCatalog.key("shop", "local")
        let jwtPart = { (json: String) in Data(json.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "") }
        var token = SessionToken(source: "oauth2", value: jwtPart(#"{"alg":"ES256","kid":"k1"}"#) + "." + jwtPart(#"{"sub":"ann"}"#) + ".sig")
        token.signature = .verified(algorithm: "ES256", keyID: "k1")
        _ = AppReducer.reduce(&state, .auth(.tokensLoaded(environment: environment, mode: .live, tokens: [token], at: TestCatalog.now)))
        #expect(state.screen.contains("signature ✓ verified (ES256, key 'k1') with the issuer's published keys"))
        #expect(state.press("S") == [.auth(.signInAgain(environment: environment, mode: .live))])
        _ = AppReducer.reduce(&state, .auth(.signInFailed("Could not sign in with OAuth 2.0: invalid_client")))
        #expect(state.notice == "Could not sign in with OAuth 2.0: invalid_client")
        token.signature = .failed("no key 'k9' in the issuer's key set")
        _ = AppReducer.reduce(&state, .auth(.tokensLoaded(environment: environment, mode: .live, tokens: [token], at: TestCatalog.now)))
        #expect(state.screen.contains("signature ✗ does not verify: no key 'k9' in the issuer's key set"))
    }

    @Test func dDeletesTheCookieUnderTheCursorAndTheCursorStays() {
        var state = TestCatalog.state()
        let environment = TestCatalog.key("shop", "local")
        let cookies = ["a", "b", "c"].map { Cookie(name: $0, value: "v", domain: "127.0.0.1") }
        _ = AppReducer.reduce(&state, .auth(.cookiesLoaded(environment: environment, mode: .live, cookies: cookies, at: TestCatalog.now)))
        #expect(state.screen.contains("› a=•"))
        _ = state.press("j")
        #expect(state.press("d") == [.auth(.deleteCookie(environment: environment, mode: .live, cookie: cookies[1]))])
        _ = AppReducer.reduce(&state, .auth(.cookiesLoaded(environment: environment, mode: .live, cookies: [cookies[0], cookies[2]], at: TestCatalog.now)))
        guard case .auth(.cookies(let window))? = state.overlay else {
            Issue.record("the cookie window stays open")
            return
        }
        #expect(window.selected == 1)
        #expect(state.screen.contains("› c=•"))
        #expect(state.press("Enter") == [.auth(.clearCookies(environment: environment, mode: .live))])
    }
}
