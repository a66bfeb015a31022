import Catalog
import DispatcherCore
import ExplorerApp
import ExplorerTestSupport
import Foundation
import TerminalKit
import Testing
import TestTraits

/// Editing where the eye is: `P` and `A` set a query item or a header from any pane or tab, and
/// `C-s` while typing accepts and sends in one key.
@Suite(.offPool) struct DirectEditingTests {
    var key: DraftKey { DraftKey(endpoint: EndpointKey(service: "shop", endpoint: "getItem"), in: TestCatalog.key("shop", "local")) }

    /// getItem selected, sent once, its Body tab shown with the list focused.
    static func afterASend() -> AppState {
        var state = TestCatalog.state()
        _ = state.press("j")
        #expect(state.press("Enter").sent.count == 1)
        #expect(state.tab == .body && state.focus == .endpoints)
        return state
    }

    @Test func pSetsAQueryItemFromTheListAndCtrlSSendsIt() throws {
        var state = Self.afterASend()
        #expect(state.press("P").isEmpty)
        #expect(state.tab == .edit && state.editor.input?.row == .setQuery)
        #expect(state.screen.contains("Set query item"))
        let ticket = try #require(state.press("p a g e = 2 C-s").sent.first)
        #expect(ticket.call.edits?.query == [EndpointEdits.Item(name: "page", value: "2")])
        #expect(state.editor.input == nil)
        // Set again by name: the item is replaced, not repeated.
        let again = try #require(state.press("P p a g e = 3 C-s").sent.first)
        #expect(again.call.edits?.query == [EndpointEdits.Item(name: "page", value: "3")])
    }

    @Test func aSetsAHeaderReplacingOneOfTheSameNameWhateverItsCase() throws {
        var state = Self.afterASend()
        _ = state.press("A X - T r a c e : o n Enter")
        #expect(state.drafts[key]?.headers == [EndpointEdits.Item(name: "X-Trace", value: "on")])
        let ticket = try #require(state.press("A x - t r a c e : o f f C-s").sent.first)
        #expect(ticket.call.edits?.headers == [EndpointEdits.Item(name: "x-trace", value: "off")])
    }

    @Test func aSetsAnInheritedHeaderTurnedOffBackOn() {
        var state = Self.afterASend()
        // method, path, + query, + header, Authorization (group signedIn): turned off.
        _ = state.press("6 Tab j j j j Space")
        #expect(state.drafts[key]?.removedHeaders == ["Authorization"])
        _ = state.press("A A u t h o r i z a t i o n : x y z Enter")
        #expect(state.drafts[key]?.removedHeaders == [])
        #expect(state.drafts[key]?.headers == [EndpointEdits.Item(name: "Authorization", value: "xyz")])
    }

    @Test func aRefusedTextIsNotSentAndSaysWhy() {
        var state = Self.afterASend()
        #expect(state.press("A n o c o l o n C-s").sent.isEmpty)
        #expect(state.notice == "Write a header as 'Name: value'.")
        #expect(state.drafts[key] == nil)
    }

    @Test func ctrlSInTheVarsTabSetsTheValueAndSends() throws {
        var state = Self.afterASend()
        let ticket = try #require(state.press("7 Enter C-u 4 2 C-s").sent.first)
        #expect(ticket.call.values["id"] == "42")
    }

    @Test func ctrlSElsewhereIsEnter() {
        var state = Self.afterASend()
        // The filter: C-s accepts it like Enter and sends nothing.
        #expect(state.press("/ c r e a t e C-s").sent.isEmpty)
        #expect(state.filter?.isEditing != true)
    }

    @Test func escLeavesTheRequestAsItWas() {
        var state = Self.afterASend()
        _ = state.press("P p a g e = 2 Esc")
        #expect(state.editor.input == nil && state.drafts[key] == nil)
    }
}
