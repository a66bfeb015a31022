import Catalog
import ExplorerApp
import ExplorerTestSupport
import Testing
import TestTraits

/// The drift badges (Features/Drift): the last `apiexplorer check` per endpoint, in the active environment.
@Suite(.offPool) struct DriftBadgeTests {
    @Test func theLastDriftCheckIsShownPerEndpointInTheActiveEnvironmentOnly() {
        var state = TestCatalog.state()
        _ = AppReducer.reduce(&state, .drift(.loaded([
            TestCatalog.key("shop", "local"): ["listItems": .drifted, "getItem": .matches],
            TestCatalog.key("shop", "staging"): ["createItem": .failed],
        ])))
        var screen = state.screen
        #expect(screen.contains("GET    /items ≠drift"))
        #expect(screen.contains("/items/{{id}} =stub"))
        #expect(!screen.contains("✗check"))  // staging's result is not this environment's
        _ = state.press("e")
        screen = state.screen
        #expect(screen.contains("✗check"))
        #expect(!screen.contains("≠drift"))
    }
}
