import Catalog
import DispatcherCore
import ExplorerApp
import ExplorerTestSupport
import Sessions
import Testing
import TestTraits

/// A session that signed out (its request says so, typed, whatever its notes read): the banner
/// says where and why until a request there succeeds, and the values captured in that session are
/// forgotten.
@Suite(.offPool) struct ReducerSignOutTests {
    @Test func aSignOutShowsABannerAndForgetsCapturedValuesUntilASuccess() {
        var state = TestCatalog.state()
        let environment = TestCatalog.key("shop", "local")
        var captured = CapturedValues()
        captured.stub = ["itemId": CapturedValue(value: "7", endpoint: "shop/createItem", date: TestCatalog.now)]
        _ = AppReducer.reduce(&state, .exchanges(.capturedLoaded([environment: captured])))
        _ = state.press("Enter")
        let expired = TestCatalog.exchange(status: 0, error: DispatchError(kind: .forbidden, message: "no", status: 403, source: "status 403"))
        state.finish(ticket: 1, expired, signOut: .byHandler(.forbidden))
        #expect(state.auth.signedOut[environment] == .byHandler(.forbidden))
        #expect(state.screen.contains("shop · local  signed out: forbidden"))
        #expect(state.captured[environment]?.stub.isEmpty == true)
        _ = state.press("Enter")
        state.finish(ticket: 2, TestCatalog.exchange(status: 200))
        #expect(state.auth.signedOut[environment] == nil)
        #expect(!state.screen.contains("signed out of"))
    }

    @Test func anOAuth2TokenThatCouldNotBeRenewedSignsOutWithItsReason() {
        var state = TestCatalog.state()
        let environment = TestCatalog.key("shop", "local")
        _ = state.press("Enter")
        let message = "signed out of shop · local: the OAuth 2.0 token could not be renewed (the grant was revoked); the next request signs in again."
        let refused = DispatchError(kind: .unauthorized, message: message, source: ServiceSession.oauth2SignOutSource)
        state.finish(ticket: 1, TestCatalog.exchange(status: 0, error: refused), signOut: .tokenNotRenewed("the grant was revoked"))
        #expect(state.auth.signedOut[environment] == .tokenNotRenewed("the grant was revoked"))
        #expect(state.screen.contains("shop · local  signed out: the OAuth 2.0 token coul"))
    }

    /// A note that reads like a sign-out is only words: nothing signed out unless the session says so.
    @Test func aNoteThatReadsLikeASignOutSignsNothingOut() {
        var state = TestCatalog.state()
        let environment = TestCatalog.key("shop", "local")
        _ = state.press("Enter")
        var exchange = TestCatalog.exchange(status: 200)
        exchange.notes = ["signed out of shop · local: forbidden"]
        state.finish(ticket: 1, exchange)
        #expect(state.auth.signedOut[environment] == nil)
        #expect(!state.screen.contains("signed out:"))
    }
}
