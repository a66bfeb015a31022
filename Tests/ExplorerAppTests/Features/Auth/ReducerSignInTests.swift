import Catalog
import DispatcherCore
import ExplorerApp
import ExplorerTestSupport
import Testing
import TestTraits

/// A device sign-in waiting for the person: the code and URL shown while the request waits, the URL
/// copied, and gone once the request ends.
@Suite(.offPool) struct ReducerSignInTests {
    @Test func theCodeAndURLShowWhileTheRequestWaitsAndTheURLIsCopied() {
        var state = TestCatalog.state()
        _ = state.press("Enter")
        let prompt = SignInPrompt(
            environment: TestCatalog.key("shop", "local"), userCode: "WDJB-MJHT",
            verificationURL: "https://example.com/device", completeURL: "https://example.com/device?user_code=WDJB-MJHT")
        let effects = AppReducer.reduce(&state, .auth(.signInPrompted(prompt)))
        #expect(effects.contains(.copyToClipboard(text: "https://example.com/device?user_code=WDJB-MJHT", description: "the sign-in URL")))
        let screen = state.screen
        #expect(screen.contains("Sign in: open https://example.com/device and enter WDJB-MJHT"))
        state.finish(ticket: 1, TestCatalog.exchange(status: 200))
        #expect(state.auth.signInPrompts.isEmpty)
        #expect(!state.screen.contains("WDJB-MJHT"))
    }
}
