import Catalog
import DispatcherCore
import ExplorerApp
import ExplorerTestSupport
import Sessions
import Testing
import TestTraits

/// A catalog handler that signed out: the banner says where and why until a request there
/// succeeds, and the values captured in that session are forgotten.
@Suite(.offPool) struct ReducerSignOutTests {
    @Test func aSignOutShowsABannerAndForgetsCapturedValuesUntilASuccess() {
        var state = TestCatalog.state()
        let environment = TestCatalog.key("shop", "local")
        var captured = CapturedValues()
        captured.stub = ["itemId": CapturedValue(value: "7", endpoint: "shop/createItem", date: TestCatalog.now)]
        state.captured[environment] = captured
        _ = state.press("Enter")
        var expired = TestCatalog.exchange(status: 0, error: DispatchError(kind: .forbidden, message: "no", status: 403, source: "status 403"))
        expired.trace.append(TraceEvent(at: .zero, kind: .handled(by: "signOut on 403 (shop.yaml:9)", note: "signed out of shop · local")))
        state.finish(ticket: 1, expired)
        #expect(state.auth.signedOut[environment] == "signed out of shop · local: forbidden")
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
        state.finish(ticket: 1, TestCatalog.exchange(status: 0, error: refused))
        #expect(state.auth.signedOut[environment] == "signed out of shop · local: the OAuth 2.0 token could not be renewed (the grant was revoked)")
        #expect(state.screen.contains("shop · local  signed out: the OAuth 2.0 token coul"))
    }
}
