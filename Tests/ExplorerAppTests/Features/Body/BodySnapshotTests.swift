import BodyViewer
import ExplorerApp
import ExplorerTestSupport
import Foundation
import TerminalKit
import Testing
import TestTraits

/// The Body tab as text grids: folds with counts, line numbers, search with its count, hex, notices.
@Suite(.offPool) struct BodySnapshotTests {
    static let size = Size(width: 80, height: 24)

    static let nested = Data(#"""
        {"store":{"name":"Lamps & Co","open":true,"rating":4.5,"owner":null},
         "items":[{"id":1,"name":"Desk lamp","tags":["light","home"]},{"id":2,"name":"Floor lamp","tags":[]}],
         "pages":{"next":"/items?page=2&size=50&sort=name&filter=lamps-and-lights-of-every-kind","total":12}}
        """#.utf8)

    @Test func foldedJSONShowsHiddenCountsAndLineNumbers() {
        var state = AppState.answered(Self.nested, size: Self.size)
        _ = state.press("Tab Z")
        assertSnapshot(state.screen, named: "body-folded-80x24")
        _ = state.press("j j z")
        assertSnapshot(state.screen, named: "body-folded-items-open-80x24")
    }

    @Test func withoutLineNumbersAndScrolledSideways() {
        var state = AppState.answered(Self.nested, size: Self.size)
        _ = state.press("Tab # G l")
        assertSnapshot(state.screen, named: "body-no-numbers-scrolled-80x24")
    }

    @Test func searchShowsTheMatchNumberAndCount() {
        var state = AppState.answered(BodyTabTests.items, size: Self.size)
        _ = state.pressAndPerform("Tab / l a m p Space 4")
        assertSnapshot(state.screen, named: "body-search-typing-80x24")
        _ = state.pressAndPerform("Enter n")
        assertSnapshot(state.screen, named: "body-search-next-80x24")
    }

    @Test func aBinaryBodyIsAHexDump() {
        let bytes = Data((0..<80).map { UInt8($0 * 7 % 256) }) + Data("PNG binary tail".utf8)
        var state = AppState.answered(bytes, contentType: "image/png", size: Self.size)
        _ = state.press("Tab")
        assertSnapshot(state.screen, named: "body-hex-80x24")
    }

    @Test func invalidUTF8IsReplacedAndNoted() {
        let bytes = Data("caf".utf8) + Data([0xE9]) + Data(" au lait\nsecond line\n".utf8)
        var state = AppState.answered(bytes, contentType: "text/plain", size: Self.size)
        _ = state.press("Tab")
        assertSnapshot(state.screen, named: "body-invalid-utf8-80x24")
    }

    @Test func aLargeBodyWhileFormattingShowsProgress() {
        var state = TestCatalog.state(size: Self.size)
        _ = state.press("Enter")
        _ = AppReducer.reduce(&state, .exchanges(.finished(FinishedExchange(ticket: 1, exchange: TestCatalog.exchange(status: 200, body: "[1,2,3]"), redactor: .standard, finishedAt: TestCatalog.now))))
        let preview = BodyHandle(BodyDocument(data: Data("[1,2,3]".utf8)))
        _ = AppReducer.reduce(&state, .body(.buildProgressed(key: "shop/listItems", generation: 1,
            status: BodyBuildStatus(bytesProcessed: 3, totalBytes: 7), preview: preview)))
        assertSnapshot(state.screen, named: "body-building-80x24")
    }
}
