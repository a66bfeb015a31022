import Catalog
import DispatcherCore
import ExplorerApp
import ExplorerTestSupport
import Foundation
import TerminalKit
import Testing
import TestTraits

/// A response feeds later requests: captures, `{{response.…}}` references and prompts.
@Suite(.offPool) struct ReducerChainingTests {
    static let pets = """
        service: pets
        environments:
          local:
            baseURL: http://127.0.0.1:9
            fixtures: immediate
        endpoints:
          addPet:
            method: POST
            path: /pet
            captures: { petId: $.id, token: $.token }
          getPet:
            path: /pet/{{petId}}
          tagPet:
            method: PUT
            path: /pet/{{response.addPet $.id}}/tag
            query: { tag: "{{prompt.tag}}", note: "{{prompt.note}}" }
            prompts:
              tag: { message: Which tag?, default: red, choices: [red, blue] }
              note: { message: A note?, secret: true }
        """

    static func state() -> AppState {
        AppState(catalog: CatalogLoader.load(fileSystem: InMemoryFileSystem(texts: ["pets.yaml": pets]), source: .bundled), size: Size(width: 120, height: 40))
    }

    static func created(mode: RequestMode = .stub) -> Exchange {
        var exchange = TestCatalog.exchange(status: 201, body: #"{"id": 12, "token": "tok-abcdef"}"#)
        exchange.stubBehavior = mode == .stub ? .immediate : .never
        return exchange
    }

    let local = TestCatalog.key("pets", "local")

    @Test func aResponseFillsTheCapturesAndTheNextRequestUsesThem() throws {
        var state = Self.state()
        _ = state.press("Enter")
        let effects = state.finish(ticket: 1, Self.created())
        #expect(state.captured[local]?.stub.mapValues(\.value) == ["petId": "12", "token": "tok-abcdef"])
        #expect(state.captured[local]?.live.isEmpty == true)  // stub and live never share
        #expect(effects.contains(.exchanges(.saveCaptured(state.captured))))
        #expect(state.notice == "Captured petId, token from pets/addPet (Vars tab shows them).")
        let ticket = try #require(state.press("j Enter").sent.first)
        #expect(ticket.call.captured["petId"]?.value == "12")
        // The Vars tab says where the value came from and when; a secret-looking one is masked.
        _ = state.press("Tab 7")
        #expect(state.screen.contains("petId  12  ← captured from pets/addPet at 22:13:20"))
    }

    @Test func aLiveRequestDoesNotSeeWhatAStubCaptured() throws {
        var state = Self.state()
        _ = state.press("Enter")
        _ = state.finish(ticket: 1, Self.created())
        let ticket = try #require(state.press("s j Enter").sent.first)
        #expect(ticket.call.mode == .live && ticket.call.captured.isEmpty)
    }

    @Test func promptsAreAskedInTurnThenTheRequestIsSent() throws {
        var state = Self.state()
        _ = state.press("Enter")
        _ = state.finish(ticket: 1, Self.created())
        #expect(state.press("j j Enter").sent.isEmpty)
        guard case .exchanges(.prompt(let dialog))? = state.overlay else {
            Issue.record("no question asked")
            return
        }
        #expect(dialog.prompts.map(\.name) == ["tag", "note"] && dialog.input.text == "red")
        #expect(state.screen.contains("Which tag?") && state.screen.contains("pick: red  blue"))
        _ = state.press("C-u g r e e n Enter")
        #expect(state.notice == "Answer one of: red, blue (↑/↓ or Tab picks one).")
        _ = state.press("C-u b l u e Enter s e c r e t")
        // A fixed mask: the answer's length is not shown either.
        #expect(state.screen.contains("note: ••••") && !state.screen.contains("note: •••••") && !state.screen.contains("note: secret"))
        let ticket = try #require(state.press("Enter").sent.first)
        #expect(ticket.call.values == ["prompt.tag": "blue", "prompt.note": "secret"])
        #expect(ticket.call.captured["response.addPet $.id"]?.value == "12")
    }

    @Test func escDropsTheRequestWhileAsking() {
        var state = Self.state()
        _ = state.press("j j Enter Esc")
        #expect(state.overlay == nil && state.inFlight.isEmpty)
        #expect(state.notice == "Not sent: prompt.tag was not answered.")
    }

    @Test func aReferenceWithoutItsResponseIsExplainedBeforeSending() {
        var state = Self.state()
        _ = state.press("j j Tab 7")
        #expect(state.screen.contains("response.addPet $.id"))
        #expect(state.screen.contains("no response yet (STUB): send pets/addPet first"))
    }

    /// Issue 49: with a response there, "no response yet" was false; the tab says what is missing.
    @Test func aReferenceWhoseSelectorFindsNothingSaysWhatIsMissing() {
        var state = Self.state()
        _ = state.press("Enter")
        _ = state.finish(ticket: 1, TestCatalog.exchange(status: 201, body: #"{"name": "Rex"}"#))
        _ = state.press("j j Tab 7")
        #expect(state.screen.contains("response.addPet $.id  pets/addPet answered 201 at 22:13:20 with no $.id"))
        #expect(!state.screen.contains("no response yet"))
    }

    @Test func capturedValuesFromEarlierRunsAreMergedUnderThisRunsOwn() {
        var state = Self.state()
        _ = state.press("Enter")
        _ = state.finish(ticket: 1, Self.created())
        var kept = CapturedValues()
        kept.stub = [
            "petId": CapturedValue(value: "1", endpoint: EndpointKey(service: "pets", endpoint: "addPet"), date: .distantPast),
            "old": CapturedValue(value: "x", endpoint: EndpointKey(service: "pets", endpoint: "addPet"), date: .distantPast),
        ]
        _ = AppReducer.reduce(&state, .exchanges(.capturedLoaded([local: kept])))
        #expect(state.captured[local]?.stub.mapValues(\.value) == ["petId": "12", "token": "tok-abcdef", "old": "x"])
    }
}
