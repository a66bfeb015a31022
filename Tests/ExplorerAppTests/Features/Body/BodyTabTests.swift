import BodyViewer
import Catalog
import DispatcherCore
import ExplorerApp
import ExplorerTestSupport
import Foundation
import TerminalKit
import Testing
import TestTraits

/// The Body tab in the reducer: builds as effects, keys, the input line and background results.
@Suite(.offPool) struct BodyTabTests {
    /// 60 items, 8 lines each, inside one array: 482 lines.
    static let items = Data(("[" + (0..<60).map { #"{"id":\#($0),"name":"Lamp \#($0)","tags":["light","home"]}"# }.joined(separator: ",") + "]").utf8)

    /// The body received and built, the response pane focused on the Body tab.
    static func focused(_ body: Data = items, contentType: String? = "application/json") -> AppState {
        var state = AppState.answered(body, contentType: contentType)
        _ = state.press("Tab")
        #expect(state.focus == .response)
        #expect(state.tab == .body)
        return state
    }

    static let key: EndpointKey = "shop/listItems"

    @Test func aResponseStartsABuildOffTheUIThreadAndProgressShows() throws {
        var state = TestCatalog.state()
        _ = state.press("Enter")
        let exchange = TestCatalog.exchange(status: 200, body: #"{"a":1}"#)
        let effects = AppReducer.reduce(&state, .exchanges(.finished(FinishedExchange(ticket: 1, exchange: exchange, redactor: .standard, finishedAt: TestCatalog.now))))
        #expect(effects.contains(.body(.build(key: Self.key, generation: 1, data: Data(#"{"a":1}"#.utf8), contentType: nil))))
        #expect(state.selectedBodyPane?.building == BodyBuildStatus(bytesProcessed: 0, totalBytes: 7))
        #expect(state.screen.contains("Formatting 0% · 0 B of 7 B · Esc cancels"))

        let preview = BodyHandle(BodyDocument(data: Data(#"{"a":1}"#.utf8)))
        let status = BodyBuildStatus(bytesProcessed: 3, totalBytes: 7)
        _ = AppReducer.reduce(&state, .body(.buildProgressed(key: Self.key, generation: 1, status: status, preview: preview)))
        #expect(state.selectedBodyPane?.building == status)
        #expect(state.selectedBodyPane?.main?.document === preview.document, "the preview shows at once")
        #expect(state.screen.contains("Formatting 42%"))

        // Progress of another build is stale.
        _ = AppReducer.reduce(&state, .body(.buildProgressed(key: Self.key, generation: 9, status: BodyBuildStatus(bytesProcessed: 7, totalBytes: 7), preview: nil)))
        #expect(state.selectedBodyPane?.building == status)

        let final = BodyHandle(BodyDocument(data: Data(#"{"a":1}"#.utf8)))
        _ = AppReducer.reduce(&state, .body(.built(key: Self.key, generation: 1, document: final)))
        #expect(state.selectedBodyPane?.building == nil)
        #expect(state.selectedBodyPane?.main?.document === final.document)
        #expect(state.screen.contains("JSON · 3 lines"))
        #expect(state.screen.contains(#""a": 1"#))
        #expect(!state.hasBodyWorkInProgress)
    }

    @Test func escCancelsABuildAndALateResultIsIgnored() {
        var state = TestCatalog.state()
        _ = state.press("Enter")
        _ = AppReducer.reduce(&state, .exchanges(.finished(FinishedExchange(ticket: 1, exchange: TestCatalog.exchange(status: 200), redactor: .standard, finishedAt: TestCatalog.now))))
        #expect(state.hasBodyWorkInProgress)
        #expect(state.press("Esc") == [.body(.cancel(key: Self.key, work: .build))])
        #expect(state.selectedBodyPane?.building == nil)
        #expect(state.screen.contains("Formatting cancelled: r resends the request to try again."))
        _ = AppReducer.reduce(&state, .body(.built(key: Self.key, generation: 1, document: BodyHandle(BodyDocument(data: Data("{}".utf8))))))
        #expect(state.selectedBodyPane?.main == nil)
        #expect(!state.hasBodyWorkInProgress)
    }

    @Test func aNewerResponseCancelsTheBuildOfTheOlderOne() {
        var state = TestCatalog.state()
        _ = state.press("Enter")
        _ = AppReducer.reduce(&state, .exchanges(.finished(FinishedExchange(ticket: 1, exchange: TestCatalog.exchange(status: 200), redactor: .standard, finishedAt: TestCatalog.now))))
        _ = state.press("r")
        let effects = AppReducer.reduce(&state, .exchanges(.finished(FinishedExchange(ticket: 2, exchange: TestCatalog.exchange(status: 200), redactor: .standard, finishedAt: TestCatalog.now))))
        #expect(effects.first == .body(.cancel(key: Self.key, work: .build)))
        #expect(effects.contains(.body(.build(key: Self.key, generation: 2, data: Data("{}".utf8), contentType: nil))))
    }

    @Test func movementKeysMoveInTheBody() throws {
        var state = Self.focused()
        _ = state.press("j j Down")
        #expect(state.bodyView?.cursorLine == 3)
        _ = state.press("k Up")
        #expect(state.bodyView?.cursorLine == 1)
        let height = try #require(state.bodyView?.viewportHeight)
        _ = state.press("PageDown")
        #expect(state.bodyView?.topLine == height)
        _ = state.press("C-d")
        #expect(state.bodyView?.topLine == 2 * height)
        _ = state.press("C-u PageUp")
        #expect(state.bodyView?.topLine == 0)
        _ = state.press("G")
        #expect(state.bodyView?.cursorLine == 481)
        #expect(state.screen.contains("482 ]"))
        _ = state.press("g")
        #expect(state.bodyView?.cursorLine == 0)
        #expect(state.bodyView?.topLine == 0)
    }

    @Test func theWheelScrollsTheBodyUnderThePointer() throws {
        var state = Self.focused()
        _ = state.press("Tab")  // focus elsewhere: the wheel still scrolls the pane it is over
        let inside = Position(x: state.layout.responseContent.x + 2, y: state.layout.responseContent.y + 3)
        _ = AppReducer.reduce(&state, .terminal(.mouse(MouseEvent(.wheelDown, at: inside))))
        #expect(state.bodyView?.topLine == 3)
        _ = AppReducer.reduce(&state, .terminal(.mouse(MouseEvent(.wheelUp, at: inside))))
        #expect(state.bodyView?.topLine == 0)
    }

    @Test func hAndLScrollSidewaysOnlyWhenNotWrapping() {
        let long = Data(#"{"text":"\#(String(repeating: "abcdefghij", count: 30))"}"#.utf8)
        var state = Self.focused(long)
        #expect(state.bodyView?.isWrapping == false, "JSON does not wrap by default")
        _ = state.press("l Right")
        #expect(state.bodyView?.horizontalOffset == 16)
        _ = state.press("h")
        #expect(state.bodyView?.horizontalOffset == 8)
        _ = state.press("Left Left")
        #expect(state.bodyView?.horizontalOffset == 0)
        _ = state.press("w")
        #expect(state.bodyView?.isWrapping == true)
        #expect(state.notice == "Wrapping long lines.")
        _ = state.press("l")
        #expect(state.bodyView?.horizontalOffset == 0)
        #expect(state.notice == "Long lines wrap: w turns wrapping off to scroll sideways.")
        _ = state.press("w")
        #expect(state.bodyView?.isWrapping == false)
    }

    @Test func foldKeysFoldUnfoldAndJumpToTheMatchingBracket() throws {
        var state = Self.focused()
        let document = try #require(state.selectedBodyPane?.main?.document)
        _ = state.press("j z")
        #expect(state.bodyView?.isFolded(line: 1, in: document) == true)
        #expect(state.screen.contains(#"{ … }, 3 keys"#))
        _ = state.press("z")
        #expect(state.bodyView?.isFolded(line: 1, in: document) == false)
        _ = state.press("Z")
        #expect(state.bodyView?.isFolded(line: 9, in: document) == true)
        _ = state.press("U")
        #expect(state.bodyView?.isFolded(line: 9, in: document) == false)
        _ = state.press("g %")
        #expect(state.bodyView?.cursorLine == 481)
        _ = state.press("%")
        #expect(state.bodyView?.cursorLine == 0)
    }

    @Test func foldKeysOnTextSaySoInsteadOfDoingNothing() {
        var state = Self.focused(Data("plain text".utf8), contentType: "text/plain")
        _ = state.press("Z")
        #expect(state.notice == "Only JSON bodies fold.")
        #expect(state.bodyView?.isWrapping == true, "text wraps by default")
    }

    @Test func hashTogglesLineNumbers() {
        var state = Self.focused()
        #expect(state.screen.contains("  1 ["))
        _ = state.press("#")
        #expect(state.bodyView?.showsLineNumbers == false)
        #expect(!state.screen.contains("  1 ["))
        _ = state.press("#")
        #expect(state.bodyView?.showsLineNumbers == true)
    }

    @Test func slashSearchesIncrementallyAndCountsInTheBackground() throws {
        var state = Self.focused()
        #expect(state.press("/").isEmpty)
        #expect(state.selectedBodyPane?.prompt?.kind == .search)
        let effects = state.pressAndPerform("l a m p Space 4")
        let handle = BodyHandle(try #require(state.selectedBodyPane?.main?.document))
        #expect(effects.last == .body(.countMatches(key: Self.key, document: handle, query: BodySearchQuery("lamp 4"))))
        #expect(state.bodyView?.search?.query.text == "lamp 4")
        #expect(state.bodyView?.cursorLine == 35, "on the first match: Lamp 4")
        #expect(state.bodyView?.search?.count?.count == 11)
        #expect(state.screen.contains("1/11"))
        _ = state.press("Enter")
        #expect(state.selectedBodyPane?.prompt == nil)
        _ = state.press("n")
        #expect(state.bodyView?.cursorLine == 323)
        #expect(state.screen.contains("2/11"))
        _ = state.press("N N")
        #expect(state.bodyView?.cursorLine == 395, "wrapped to the last match")
        #expect(state.notice == "Search wrapped to the end.")
        #expect(state.press("Esc") == [.body(.cancel(key: Self.key, work: .count)), .body(.cancel(key: Self.key, work: .find))])
        #expect(state.bodyView?.search == nil)
        _ = state.press("n")
        #expect(state.notice == "No search: / starts one.")
    }

    @Test func escInTheSearchLineEndsTheSearch() {
        var state = Self.focused()
        _ = state.pressAndPerform("/ z z z")
        #expect(state.screen.contains("no match"))
        #expect(state.press("Esc") == [.body(.cancel(key: Self.key, work: .count)), .body(.cancel(key: Self.key, work: .find))])
        #expect(state.selectedBodyPane?.prompt == nil)
        #expect(state.bodyView?.search == nil)
    }

    @Test func colonRunsAJSONPathQueryAndEscShowsTheWholeBodyAgain() throws {
        var state = Self.focused()
        _ = state.press(":")
        #expect(state.selectedBodyPane?.prompt?.kind == .query)
        let handle = BodyHandle(try #require(state.selectedBodyPane?.main?.document))
        let effects = state.press("$ [ 1 ] . n a m e Enter")
        #expect(effects == [.body(.select(key: Self.key, id: 2, document: handle, kind: .query("$[1].name")))])
        #expect(state.screen.contains("Running query $[1].name… · Esc cancels"))
        let result = BodyHandle(BodyDocument(data: Data(#""Lamp 1""#.utf8)))
        _ = AppReducer.reduce(&state, .body(.selectionFinished(key: Self.key, id: 2, outcome: .success(BodySelectionResult(document: result, count: 1)))))
        #expect(state.selectedBodyPane?.selection?.layer.document === result.document)
        #expect(state.screen.contains("query $[1].name · 1 value · Esc shows the whole body"))
        #expect(state.press("Esc").isEmpty)
        #expect(state.selectedBodyPane?.selection == nil)
        #expect(state.screen.contains("JSON · 482 lines"))
    }

    @Test func escCancelsARunningQuery() {
        var state = Self.focused()
        _ = state.press(": $ Enter")
        #expect(state.press("Esc") == [.body(.cancel(key: Self.key, work: .selection))])
        _ = AppReducer.reduce(&state, .body(.selectionFinished(key: Self.key, id: 2, outcome: .failure(BodySelectionError("late")))))
        #expect(state.notice == "Cancelled.")
    }

    @Test func pipeRunsJqAndAFailureIsExplained() throws {
        var state = Self.focused()
        let handle = BodyHandle(try #require(state.selectedBodyPane?.main?.document))
        let effects = state.press("| l e n g t h Enter")
        #expect(effects == [.body(.select(key: Self.key, id: 2, document: handle, kind: .jq("length")))])
        _ = AppReducer.reduce(&state, .body(.selectionFinished(key: Self.key, id: 2, outcome: .failure(BodySelectionError("jq is not installed (no jq on PATH)")))))
        #expect(state.notice == "jq failed: jq is not installed (no jq on PATH)")
        #expect(state.selectedBodyPane?.selection == nil)
    }

    @Test func yCopiesTheValueAtTheCursorOffTheUIThread() throws {
        var state = Self.focused()
        let handle = BodyHandle(try #require(state.selectedBodyPane?.main?.document))
        #expect(state.press("j y") == [.body(.copyValue(document: handle, line: 1))])
    }

    @Test func capitalSSavesAndAsksBeforeOverwriting() throws {
        var state = Self.focused()
        let handle = BodyHandle(try #require(state.selectedBodyPane?.main?.document))
        _ = state.press("S")
        #expect(state.selectedBodyPane?.prompt?.input.text == "listItems.json")
        #expect(state.screen.contains("Save to: listItems.json"))
        let effects = state.press("C-u o u t . j s o n Enter")
        #expect(effects == [.body(.save(key: Self.key, document: handle, path: "out.json", overwrite: false))])
        _ = AppReducer.reduce(&state, .body(.saveFinished(key: Self.key, path: "out.json", byteCount: 0, error: .fileExists(path: "out.json"))))
        #expect(state.selectedBodyPane?.prompt?.kind == .confirmOverwrite(path: "out.json"))
        #expect(state.screen.contains("out.json exists. Overwrite it? (y/n)"))
        #expect(state.press("j").isEmpty, "other keys wait for an answer")
        #expect(state.press("n").isEmpty)
        #expect(state.notice == "Not saved: out.json is left as it was.")
        _ = AppReducer.reduce(&state, .body(.saveFinished(key: Self.key, path: "out.json", byteCount: 0, error: .fileExists(path: "out.json"))))
        #expect(state.press("y") == [.body(.save(key: Self.key, document: handle, path: "out.json", overwrite: true))])
        _ = AppReducer.reduce(&state, .body(.saveFinished(key: Self.key, path: "out.json", byteCount: 2048, error: nil)))
        #expect(state.notice == "Saved 2.0 kB to out.json.")
    }

    @Test func oAndCapitalOOpenThePagerAndTheEditor() throws {
        var state = Self.focused()
        let handle = BodyHandle(try #require(state.selectedBodyPane?.main?.document))
        #expect(state.press("o") == [.body(.open(document: handle, program: .pager))])
        #expect(state.press("O") == [.body(.open(document: handle, program: .editor))])
    }

    @Test func bodyKeysApplyOnlyInTheBodyTabWithFocusAndGlobalKeysStillWork() {
        var state = Self.focused()
        _ = state.press("2 n z")
        #expect(state.tab == .headers)
        #expect(state.bodyView?.search == nil)
        _ = state.press("1 S-Tab /")
        #expect(state.focus == .endpoints)
        #expect(state.filter != nil, "/ filters endpoints outside the Body tab")
        _ = state.press("Esc Tab s")
        #expect(state.mode == .live, "s still switches stub / live in the Body tab")
    }

    @Test func helpListsTheBodyKeys() {
        let body = Keymap.bindings.filter { $0.scope == .bodyTab }
        #expect(body.map(\.keyLabel) == ["h/←", "l/→", "z", "Z", "U", "%", "w", "#", "/", "n", "N", ":", "|", "y", "S", "o", "O"])
        let bodyKeys = body.flatMap(\.triggers).compactMap { trigger -> KeyEvent? in
            if case .key(let key) = trigger, key != KeyEvent(.character("/")) { key } else { nil }
        }
        for key in bodyKeys { #expect(Keymap.command(for: key, in: .panes(nil)) == nil, "\(key) is also bound globally") }
    }
}
