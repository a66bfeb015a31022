import BodyViewer
import Catalog
import DispatcherCore
import ExplorerApp
import ExplorerTestSupport
import Foundation
import TerminalKit
import Testing
import TestTraits

/// Typing a search into a large body: each key scans at most `BodyState.searchScanBytes` on the
/// UI thread; a match further away is looked for by a background scan the next key replaces, and
/// an answer for a query typed over since moves nothing.
@Suite(.offPool) struct BodySearchTypingTests {
    /// ~1.4 MB of items without a 'z', then one "zq" at the end.
    static let body = Data(("[" + (0..<64_000).map { #"{"id":\#($0),"v":"abc"}"# }.joined(separator: ",") + #",{"id":-1,"v":"zq"}]"#).utf8)

    static func finds(_ effects: [AppEffect]) -> [BodySearchQuery] {
        effects.compactMap { if case .body(.find(_, _, let query, _)) = $0 { query } else { nil } }
    }

    @Test func aFarMatchIsFoundInTheBackgroundAndAStaleAnswerIsIgnored() throws {
        #expect(Self.body.count > BodyState.searchScanBytes)
        var state = BodyTabTests.focused(Self.body)
        let key = BodyTabTests.key
        let document = try #require(state.selectedBodyPane?.main?.document)
        let handle = BodyHandle(document)
        _ = state.press("/")
        #expect(Self.finds(state.press("z")) == [BodySearchQuery("z")])
        #expect(state.bodyView?.cursorLine == 0, "the key did not wait for the scan")
        // The next key asks for a new scan (the runtime cancels the one before: one per body).
        #expect(Self.finds(state.press("q")) == [BodySearchQuery("zq")])
        let stale = document.firstMatch(of: BodySearchQuery("z"), from: 0)
        _ = AppReducer.reduce(&state, .body(.matchFound(key: key, document: handle, query: BodySearchQuery("z"), scan: stale)))
        #expect(state.bodyView?.cursorLine == 0 && state.bodyView?.search?.currentMatch == nil)
        let current = document.firstMatch(of: BodySearchQuery("zq"), from: 0)
        _ = AppReducer.reduce(&state, .body(.matchFound(key: key, document: handle, query: BodySearchQuery("zq"), scan: current)))
        #expect((state.bodyView?.cursorLine ?? 0) > 64_000 * 4, "on the match near the end")
        #expect(state.bodyView?.search?.currentMatch != nil)
        // A match near where the search began is found on the spot: no background scan.
        _ = state.press("Esc g /")
        let near = state.press("i d")
        #expect(Self.finds(near).isEmpty && near.contains(.body(.cancel(key: key, work: .find))))
        // Esc ends the search and its scans.
        #expect(state.press("Esc") == [.body(.cancel(key: key, work: .count)), .body(.cancel(key: key, work: .find))])
    }
}
