import Catalog
import ExplorerApp
import ExplorerTestSupport
import Foundation
import TerminalKit
import Testing
import TestTraits

/// While the catalogs load (issue 47, item 4): the panes count the files read, and `q` quits at
/// once, without waiting for them, unless keys typed before it are waiting (they may be text).
@Suite(.offPool) struct ReducerLoadingTests {
    static func loading() -> AppState {
        var state = AppState(launching: LaunchOptions(), size: Size(width: 120, height: 40), timeZone: .utc)
        _ = AppReducer.reduce(&state, .launched)
        _ = AppReducer.reduce(&state, .launch(.loadingScreenDue))
        return state
    }

    static func key(_ text: String) throws -> AppAction { .terminal(.key(try #require(KeyEvent.parseSequence(text).first))) }

    @Test func thePanesCountTheFilesRead() {
        var state = Self.loading()
        #expect(state.loadingText == "Loading catalogs…")
        _ = AppReducer.reduce(&state, .launch(.loadProgressed(read: 3412, total: 10_000)))
        #expect(state.loadingText == "Loading 3412/10000 catalog files")
        #expect(AppView.render(state).buffer.plainText().contains("Loading 3412/10000 catalog files"))
        // Once loaded, a late count changes nothing.
        _ = AppReducer.reduce(&state, .catalogLoaded(TestCatalog.load(), SecretStore(processEnvironment: [:])))
        _ = AppReducer.reduce(&state, .launch(.loadProgressed(read: 1, total: 2)))
        #expect(state.catalogLoadProgress?.read != 1)
    }

    @Test func qQuitsDuringTheLoadWithoutWaitingForIt() throws {
        var state = Self.loading()
        let effects = AppReducer.reduce(&state, try Self.key("q"))
        #expect(state.isQuitting)
        #expect(effects.contains { if case .quit = $0 { true } else { false } })
    }

    @Test func qAfterOtherKeysWaitsWithThemForTheCatalogs() throws {
        var state = Self.loading()
        _ = AppReducer.reduce(&state, try Self.key("/"))
        _ = AppReducer.reduce(&state, try Self.key("q"))
        #expect(!state.isQuitting)
        #expect(state.pendingEvents.count == 2)
    }
}
