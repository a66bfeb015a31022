import Catalog
import DispatcherCore
import ExplorerApp
import ExplorerTestSupport
import Foundation
import TerminalKit
import Testing
import TestTraits

/// The Edit and Vars tabs: every change is an action with undo and redo, kept as a draft per
/// endpoint and environment, and sent exactly as shown.
@Suite(.offPool) struct ReducerEditingTests {
    /// The shop's getItem (group signedIn: an inherited Authorization header) in the Edit tab.
    static func editingGetItem() -> AppState {
        var state = TestCatalog.state()
        _ = state.press("j Tab 6")
        #expect(state.selectedEndpoint?.id == "getItem" && state.tab == .edit && state.focus == .response)
        return state
    }

    var key: DraftKey { DraftKey(endpoint: EndpointKey(service: "shop", endpoint: "getItem"), in: TestCatalog.key("shop", "local")) }

    /// On the Edit tab Enter changes the row whatever pane has focus (the tab is where the eye is);
    /// C-s sends; j/k still move in the focused pane.
    @Test func enterChangesOnTheEditTabWhateverPaneHasFocus() throws {
        var state = TestCatalog.state()
        _ = state.press("6")
        #expect(state.focus == .endpoints && state.tab == .edit)
        _ = state.press("j")
        #expect(state.selectedEndpoint?.id == "getItem" && state.editor.row == 0)
        #expect(state.press("Enter").sent.isEmpty)
        #expect(state.editor.input?.row == .method)
        #expect(state.screen.contains("› Method"))
        _ = state.press("C-u P U T Enter")
        #expect(state.drafts[key] == EndpointEdits(method: .put))
        let ticket = try #require(state.press("C-s").sent.first)
        #expect(ticket.call.edits == EndpointEdits(method: .put))
        // The Vars tab acts from the list too.
        _ = state.press("7 Enter")
        #expect(state.variablesTab.input != nil)
    }

    /// The draft files the effects ask to keep.
    func kept(_ effects: [AppEffect]) -> [EnvironmentKey: [String: EndpointEdits]]? {
        effects.lazy.compactMap { if case .editing(.saveDrafts(let drafts)) = $0 { drafts } else { nil } }.last
    }

    @Test func changingTheMethodAndPathMakesADraftThatIsKept() {
        var state = Self.editingGetItem()
        _ = state.press("Enter C-u p a t c h Enter")
        #expect(state.drafts[key]?.method == .patch)
        let effects = state.press("j Enter C-u / i t e m s / 7 Enter")
        #expect(state.drafts[key]?.path == "/items/7")
        #expect(kept(effects)?[TestCatalog.key("shop", "local")]?["getItem"]?.path == "/items/7")
        #expect(state.screen.contains("PATCH  /items/7 ✎"))
    }

    @Test func aMethodThatDoesNotExistIsExplainedAndNothingChanges() {
        var state = Self.editingGetItem()
        _ = state.press("Enter C-u f e t c h Enter")
        #expect(state.drafts[key] == nil)
        #expect(state.notice?.contains("'fetch' is not a method") == true)
    }

    @Test func queryItemsAreAddedToggledAndRemoved() {
        var state = Self.editingGetItem()
        _ = state.press("j j a p a g e = 2 Enter")
        #expect(state.drafts[key]?.query == [EndpointEdits.Item(name: "page", value: "2")])
        _ = state.press("j Space")
        #expect(state.drafts[key]?.query?.first?.isEnabled == false)
        _ = state.press("d")
        #expect(state.drafts[key] == nil)  // back to the catalog's: no draft
    }

    /// Issue 49: a multipart body read "Body none" here while the catalog's form was sent; it shows
    /// the parts, and `d` (sending none) is a change that stays, though both read as none before.
    @Test func aMultipartBodyIsShownAsItsPartsAndRemovingItIsADraft() throws {
        let album = """
            service: photos
            environments:
              local: { baseURL: "http://127.0.0.1:9", fixtures: immediate }
            endpoints:
              album:
                method: POST
                path: /albums
                multipart:
                  - { name: title, value: "Trip {{year}}" }
                  - { name: photo, file: photos/beach.png, filename: sea.png }
            """
        let catalog = CatalogLoader.load(fileSystem: InMemoryFileSystem(files: ["photos.yaml": Data(album.utf8), "photos/beach.png": Data([0x89, 0x50])]), source: .bundled)
        var state = AppState(catalog: catalog, size: Size(width: 160, height: 30))
        _ = state.press("Tab 6")
        #expect(state.screen.contains("Body     multipart form, 2 parts: title=Trip {{year}}, photo=@sea.png (2 B)"))
        #expect(!state.screen.contains("none (Enter types one"))
        // method, path, + query, + header, body
        _ = state.press("j j j j d")
        let key = DraftKey(endpoint: EndpointKey(service: "photos", endpoint: "album"), in: TestCatalog.key("photos", "local"))
        #expect(state.drafts[key]?.body == EndpointEdits.Body.none)
        #expect(state.screen.contains("none (Enter types one"))
        _ = state.press("4")
        #expect(state.screen.contains("- body multipart form, 2 parts"))
    }

    @Test func anInheritedHeaderIsTurnedOffAndAnEditedOneSaysSo() throws {
        var state = Self.editingGetItem()
        // method, path, + query, + header, Authorization (group signedIn)
        _ = state.press("j j j j Space")
        #expect(state.drafts[key]?.removedHeaders == ["Authorization"])
        #expect(state.screen.contains("☐ Authorization: Bearer ••••"))
        _ = state.press("Space a X - T r a c e : o n Enter")
        #expect(state.drafts[key]?.removedHeaders == [])
        #expect(state.drafts[key]?.headers == [EndpointEdits.Item(name: "X-Trace", value: "on")])
        #expect(state.screen.contains("X-Trace: on  ← edited"))
    }

    @Test func undoAndRedoWalkTheEdits() {
        var state = Self.editingGetItem()
        _ = state.press("Enter C-u P U T Enter j Enter C-u / x Enter")
        #expect(state.drafts[key] == EndpointEdits(method: .put, path: "/x"))
        _ = state.press("u")
        #expect(state.drafts[key] == EndpointEdits(method: .put))
        _ = state.press("u")
        #expect(state.drafts[key] == nil)
        _ = state.press("u")
        #expect(state.notice == "Nothing to undo.")
        _ = state.press("C-r C-r")
        #expect(state.drafts[key] == EndpointEdits(method: .put, path: "/x"))
        _ = state.press("R")
        #expect(state.drafts[key] == nil)
        _ = state.press("u")
        #expect(state.drafts[key] == EndpointEdits(method: .put, path: "/x"))
    }

    @Test func escCancelsTypingWithoutAChange() {
        var state = Self.editingGetItem()
        _ = state.press("Enter C-u D E L E T E Esc")
        #expect(state.drafts[key] == nil && state.editor.input == nil)
    }

    @Test func aJSONBodyThatDoesNotParseIsNotSentAndSaysWhere() {
        var state = TestCatalog.state()
        _ = state.press("j j Tab 6")
        #expect(state.selectedEndpoint?.id == "createItem")
        // method, path, + query, + header, body
        _ = state.press("j j j j Enter C-u { \" n a m e \" : Enter")
        #expect(state.notice?.contains("line 1, column 9") == true)
        let effects = state.press("C-s")
        #expect(effects.sent.isEmpty)
        #expect(state.notice?.hasPrefix("Not sent:") == true)
    }

    /// The one-line field shows multi-line JSON compacted; Enter without a change keeps the bytes
    /// of the body (formatting is never a side effect), and a real change is kept as typed.
    @Test func confirmingTheBodyFieldUnchangedKeepsItsBytes() {
        var state = TestCatalog.state()
        _ = state.press("j j Tab 6")
        let key = DraftKey(endpoint: EndpointKey(service: "shop", endpoint: "createItem"), in: TestCatalog.key("shop", "local"))
        let typed = "{\n  \"name\":   \"Desk\"\n}"
        _ = AppReducer.reduce(&state, .editing(.bodyEdited(key: key, text: typed, message: nil)))
        _ = state.press("j j j j Enter")
        #expect(state.editor.input?.input.text == #"{"name":"Desk"}"#)
        _ = state.press("Enter")
        #expect(state.drafts[key]?.body == .text(typed, isJSON: true))
        _ = state.press("Enter C-u { \" n a m e \" : \" L a m p \" } Enter")
        #expect(state.drafts[key]?.body == .text(#"{"name":"Lamp"}"#, isJSON: true))
    }

    /// F pretty-prints a JSON draft body on demand (the only way its bytes change besides typing);
    /// u undoes it, and a body that is not JSON is left as typed with the reason.
    @Test func fFormatsAJSONBodyOnDemandAndUUndoesIt() {
        var state = TestCatalog.state()
        _ = state.press("j j Tab 6")
        let key = DraftKey(endpoint: EndpointKey(service: "shop", endpoint: "createItem"), in: TestCatalog.key("shop", "local"))
        let typed = #"{"name":"Desk","tags":["a",1.50]}"#
        _ = AppReducer.reduce(&state, .editing(.bodyEdited(key: key, text: typed, message: nil)))
        _ = state.press("F")
        #expect(state.drafts[key]?.body == .text("{\n  \"name\": \"Desk\",\n  \"tags\": [\n    \"a\",\n    1.50\n  ]\n}", isJSON: true))
        #expect(state.notice?.contains("formatted") == true, "\(state.notice ?? "")")
        _ = state.press("u")
        #expect(state.drafts[key]?.body == .text(typed, isJSON: true))
        _ = AppReducer.reduce(&state, .editing(.bodyEdited(key: key, text: "{\"name\": ", message: nil)))
        let before = state.drafts[key]
        _ = state.press("F")
        #expect(state.drafts[key] == before)
        #expect(state.notice?.contains("not valid JSON") == true, "\(state.notice ?? "")")
    }

    @Test func sendingCarriesTheEditsAndTheRunTimeValues() throws {
        var state = Self.editingGetItem()
        _ = state.press("j Enter C-u / i t e m s / { { i d } } / p a r t s Enter 7 Enter C-u 4 2 Enter")
        #expect(state.activeValues == ["id": "42"])
        let ticket = try #require(state.press("C-s").sent.first)
        #expect(ticket.call.edits == EndpointEdits(path: "/items/{{id}}/parts"))
        #expect(ticket.call.values == ["id": "42"])
    }

    @Test func theRequestTabShowsTheDraftAndTheNextRequest() {
        var state = Self.editingGetItem()
        _ = state.press("Enter C-u P U T Enter j j j j Space 4")
        let screen = state.screen
        #expect(screen.contains("- method GET"))
        #expect(screen.contains("+ method PUT"))
        #expect(screen.contains("- header Authorization ← group signedIn  (turned off)"))
        #expect(screen.contains("PUT http://127.0.0.1:9/shop/items/1"))
    }

    @Test func runTimeValuesAreSetClearedAndSecretsAreNotKept() {
        var state = Self.editingGetItem()
        _ = state.press("7")
        let rows = state.variableRows.map(\.name)
        #expect(rows == ["id", "secret.SHOP_TOKEN"])
        var effects = state.press("Enter C-u 9 Enter")
        #expect(state.activeValues["id"] == "9")
        #expect(effects.contains(.editing(.saveValues([TestCatalog.key("shop", "local"): ["id": "9"]]))))
        effects = state.press("j Enter C-u s 3 c r 3 t")
        // A fixed mask while typed: neither the value nor its length shows.
        #expect(state.screen.contains("••••") && !state.screen.contains("•••••"))
        #expect(!state.screen.contains("s3cr3t"))
        effects = state.press("Enter")
        #expect(state.activeValues["secret.SHOP_TOKEN"] == "s3cr3t")
        #expect(effects.contains(.editing(.saveValues([TestCatalog.key("shop", "local"): ["id": "9"]]))))
        _ = state.press("k d")
        #expect(state.activeValues["id"] == nil)
    }

    @Test func aLargeBodyIsSummedUpInTheRequestTab() {
        var state = TestCatalog.state()
        _ = state.press("j j")
        let key = DraftKey(endpoint: EndpointKey(service: "shop", endpoint: "createItem"), in: TestCatalog.key("shop", "local"))
        func body(items: Int) -> String {
            "[\n" + (0..<items).map { "{\"id\": \($0), \"name\": \"item \($0)\"}" }.joined(separator: ",\n") + "\n]"
        }
        // Past 16 kB: the start of the encoded body, and how much is sent.
        _ = AppReducer.reduce(&state, .editing(.bodyEdited(key: key, text: body(items: 1_000), message: nil)))
        _ = state.press("Tab 4")
        #expect(state.screen.contains("JSON, 1002 lines: [ …"))
        // The body is shown as it is sent, line by line: the summary is at the end of the tab.
        _ = state.press("G")
        #expect(state.screen.contains("the first 16 kB are shown, the whole body is sent"))
        // Past 64 kB: not built on every frame, only its size.
        _ = AppReducer.reduce(&state, .editing(.bodyEdited(key: key, text: body(items: 4_000), message: nil)))
        #expect(state.screen.contains("Body: 138 kB from the draft, filled in and encoded when it"))
        #expect(state.screen.contains("Content-Type  application/json"))
    }

    @Test func draftsFromTheLastRunAreRestoredWithANotice() {
        var state = TestCatalog.state()
        let environment = TestCatalog.key("shop", "local")
        _ = AppReducer.reduce(&state, .editing(.draftsLoaded([environment: ["getItem": EndpointEdits(method: .head)]])))
        #expect(state.drafts[key] == EndpointEdits(method: .head))
        #expect(state.notice?.contains("Restored 1 draft") == true)
        #expect(state.screen.contains("HEAD   /items/{{id}} ✎"))
    }

    @Test func theBundledCatalogsCannotBeWritten() {
        var state = Self.editingGetItem()
        _ = state.press("Enter C-u P U T Enter")
        let effects = state.press("W")
        #expect(!effects.contains { if case .editing(.writeDraft) = $0 { true } else { false } })
        #expect(state.notice?.contains("bundled catalogs cannot be written") == true)
    }

    /// The editing state over a catalog read from a folder (which can be written).
    static func editingGetItemInAFolder() -> AppState {
        var state = editingGetItem()
        state.catalog.source = CatalogSource(origin: .option, directory: URL(fileURLWithPath: "/tmp/catalogs"), displayPath: "catalogs")
        return state
    }

    @Test func writingADraftAsksTheRunnerAndForgetsTheDraftOnlyWhenWritten() {
        var state = Self.editingGetItemInAFolder()
        _ = state.press("Enter C-u P U T Enter")
        // W asks first; n keeps the draft, y writes it.
        #expect(state.press("W").isEmpty)
        #expect(state.screen.contains("Write shop/getItem's edits into") && state.screen.contains("method: PUT"))
        #expect(state.press("n").isEmpty && state.drafts[key] != nil)
        #expect(state.notice?.hasPrefix("Not written:") == true)
        let effects = state.press("W y")
        #expect(effects == [.editing(.writeDraft(key: key, edits: EndpointEdits(method: .put)))])
        _ = AppReducer.reduce(&state, .editing(.draftWritten(key: key, error: "the file changed")))
        #expect(state.drafts[key] != nil)
        #expect(state.notice == "Not written: the file changed")
        let written = AppReducer.reduce(&state, .editing(.draftWritten(key: key, error: nil)))
        #expect(state.drafts[key] == nil)
        #expect(kept(written)?[TestCatalog.key("shop", "local")]?["getItem"] == nil)
        #expect(state.notice?.contains("Wrote shop/getItem") == true)
        // u puts the file back (the runner kept it as FILE~) and the edits back into the draft.
        #expect(state.press("u") == [.editing(.restoreCatalogFile(key: key))])
        _ = AppReducer.reduce(&state, .editing(.catalogFileRestored(key: key, error: nil)))
        #expect(state.drafts[key] == EndpointEdits(method: .put))
        #expect(state.notice?.contains("edits are a draft again") == true)
        #expect(state.press("u") != [.editing(.restoreCatalogFile(key: key))])
    }

    @Test func savingAsANewEndpointAsksForAnIdAndChecksIt() {
        var state = Self.editingGetItemInAFolder()
        _ = state.press("Enter C-u P U T Enter")
        _ = state.press("N")
        #expect(state.screen.contains("Save as endpoint getItemCopy"))
        _ = state.press("C-u b a d / i d Enter")
        #expect(state.notice?.contains("is not an endpoint id") == true)
        _ = state.press("N C-u d e l e t e I t e m Enter")
        #expect(state.notice?.contains("exists already") == true)
        let effects = state.press("N C-u p u t I t e m Enter")
        #expect(effects == [.editing(.saveDraftAsEndpoint(key: key, edits: EndpointEdits(method: .put), id: "putItem"))])
    }

    @Test func aSavedCopyTakesTheDraftAwayFromTheOriginal() {
        var state = Self.editingGetItemInAFolder()
        _ = state.press("Enter C-u P U T Enter")
        let effects = AppReducer.reduce(&state, .editing(.draftSavedAsEndpoint(key: key, id: "putItem", error: nil)))
        #expect(state.drafts[key] == nil)
        #expect(kept(effects) != nil)
        #expect(state.notice?.contains("Saved as shop/putItem") == true)
        _ = AppReducer.reduce(&state, .editing(.draftSavedAsEndpoint(key: key, id: "other", error: "shop already has an endpoint 'other'")))
        #expect(state.notice == "Not saved: shop already has an endpoint 'other'")
    }
}

/// Secrets typed in the Vars tab never reach the network log in clear.
@Suite(.offPool) struct TypedSecretTests {
    @Test func aTypedSecretIsMaskedInTheLog() throws {
        var state = TestCatalog.state()
        _ = state.press("j Tab 7 j Enter C-u t y p e d - t o k e n Enter")
        #expect(state.activeValues["secret.SHOP_TOKEN"] == "typed-token")
        let request = Request(
            identifier: "shop/getItem", method: .get, url: try #require(URL(string: "http://127.0.0.1:9/shop/items/1?sig=typed-token")),
            headers: Headers([("X-Custom", "typed-token")], origin: .endpoint), settings: TransportSettings(environment: Environment(name: "local", baseURL: try #require(URL(string: "http://127.0.0.1:9")))))
        let entry = NetworkLogEntry(
            event: .willSend, request: request,
            format: .init(options: .verbose, redactor: nil, maximumBodyLength: 100))
        _ = AppReducer.reduce(&state, .log(.networkLogged(entry)))
        #expect(!state.log.lines.isEmpty)
        #expect(!state.log.lines.joined().contains("typed-token"))
    }
}
