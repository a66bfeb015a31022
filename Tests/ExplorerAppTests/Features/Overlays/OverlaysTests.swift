import Catalog
import DispatcherCore
import ExplorerApp
import ExplorerTestSupport
import Foundation
import Sessions
import TerminalKit
import Testing
import TestTraits

/// The windows over the panes (Features/Overlays): a question's choices picked with the arrows
/// and Tab, `v` inside the cookie and token windows, and `W` asking before it writes.
@Suite(.offPool) struct OverlaysTests {
    /// The pets catalog stopped at its tag question (`choices: [red, blue]`, default red).
    static func asked(size: Size = Size(width: 120, height: 40)) -> AppState {
        var state = AppState(
            catalog: CatalogLoader.load(fileSystem: InMemoryFileSystem(texts: ["pets.yaml": ReducerChainingTests.pets]), source: .bundled), size: size)
        _ = state.press("Enter")
        _ = state.finish(ticket: 1, ReducerChainingTests.created())
        _ = state.press("j j Enter")
        return state
    }

    static func dialog(_ state: AppState) -> PromptDialog? {
        if case .exchanges(.prompt(let dialog))? = state.overlay { dialog } else { nil }
    }

    @Test func choicesArePickedWithTheArrowsAndTab() throws {
        var state = Self.asked()
        #expect(Self.dialog(state)?.choice == 0 && Self.dialog(state)?.input.text == "red")
        _ = state.press("Down")
        #expect(Self.dialog(state)?.choice == 1 && Self.dialog(state)?.input.text == "blue")
        // Tab moves on too, wrapping around; Up goes back.
        _ = state.press("Tab")
        #expect(Self.dialog(state)?.input.text == "red")
        _ = state.press("Up")
        #expect(Self.dialog(state)?.input.text == "blue")
        _ = state.press("Enter")
        // The next question (no choices): arrows do nothing there.
        _ = state.press("Down s")
        let ticket = try #require(state.press("Enter").sent.first)
        #expect(ticket.call.values == ["prompt.tag": "blue", "prompt.note": "s"])
    }

    @Test func aTypedChoiceMovesTheCursorAndAWrongOneIsRefused() {
        var state = Self.asked()
        _ = state.press("C-u b l u e")
        #expect(Self.dialog(state)?.choice == 1)
        _ = state.press("C-u g r e e n Enter")
        #expect(Self.dialog(state)?.choice == nil)
        #expect(state.notice == "Answer one of: red, blue (↑/↓ or Tab picks one).")
    }

    @Test(arguments: ScreenSnapshotTests.sizes)
    func theChoicesOnScreen(size: Size) {
        var state = Self.asked(size: size)
        _ = state.press("Down")
        assertSnapshot(state.screen, named: "prompt-choices-\(size)")
    }

    @Test func vRevealsInsideTheCookieAndTokenWindowsAndKeepsThemOpen() {
        var state = TestCatalog.state()
        let environment = TestCatalog.key("shop", "local")
        let cookie = Cookie(name: "sid", value: "abc123", domain: "127.0.0.1")
        _ = AppReducer.reduce(&state, .auth(.cookiesLoaded(environment: environment, mode: .stub, cookies: [cookie], at: TestCatalog.now)))
        #expect(!state.screen.contains("abc123"))
        _ = state.press("v")
        #expect(state.revealsSecrets && state.screen.contains("abc123"))
        if case .auth(.cookies)? = state.overlay {} else { Issue.record("the cookie window closed") }
        _ = state.press("v")
        #expect(!state.revealsSecrets && !state.screen.contains("abc123"))
        // The token window too.
        let token = SessionToken(source: "oauth2", value: "tok-0123456789abcdef", type: "Bearer")
        _ = AppReducer.reduce(&state, .auth(.tokensLoaded(environment: environment, mode: .stub, tokens: [token], at: TestCatalog.now)))
        #expect(!state.screen.contains("tok-0123456789abcdef"))
        _ = state.press("v")
        #expect(state.screen.contains("tok-0123456789abcdef"))
        if case .auth(.tokens)? = state.overlay {} else { Issue.record("the token window closed") }
    }
}
