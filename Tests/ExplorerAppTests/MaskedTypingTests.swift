import ExplorerTestSupport
import TerminalKit
import Testing
import TestTraits

@testable import ExplorerApp

/// A secret being typed shows one fixed mask, so neither its value nor its length is on screen
/// (issue 34): prompts, the Vars tab, and a secret header's value in the Edit tab.
@Suite(.offPool) struct MaskedTypingTests {
    @Test func theMaskHasOneWidthWhateverTheLength() {
        let short = MaskedInput.shown(InputState(text: "ab"))
        let long = MaskedInput.shown(InputState(text: "a-much-longer-secret-value"))
        #expect(short.text == "••••" && long.text == "••••")
        #expect(short.cursor == 4 && long.cursor == 4)
        #expect(MaskedInput.shown(InputState(text: "")).text == "", "nothing typed: the placeholder shows")
    }

    @Test func aSecretHeadersValueIsMaskedItsNameAndSchemeAreNot() {
        #expect(MaskedInput.headerRow(InputState(text: "Authorization: Bearer s3cr3t-t0ken")).text == "Authorization: Bearer ••••")
        #expect(MaskedInput.headerRow(InputState(text: "X-API-Key: k")).text == "X-API-Key: ••••")
        #expect(MaskedInput.headerRow(InputState(text: "X-API-Key: a-long-key-value")).text == "X-API-Key: ••••")
        #expect(MaskedInput.headerRow(InputState(text: "Accept: application/json")).text == "Accept: application/json")
        // The cursor in the name stays where it is.
        #expect(MaskedInput.headerRow(InputState(text: "X-API-Key: value", cursor: 2)).cursor == 2)
    }

    @Test func aSecretHeaderTypedInTheEditTabShowsTheFixedMask() {
        var state = TestCatalog.state()
        _ = state.press("j Tab 6")
        let rows = state.editedRequest?.rows ?? []
        guard let header = rows.firstIndex(where: { if case .header = $0 { true } else if case .inheritedHeader = $0 { true } else { false } }) else {
            Issue.record("getItem has no header row: \(rows)")
            return
        }
        for _ in 0..<header { _ = state.press("j") }
        _ = state.press("a X - A p i - K e y : Space t o p s e c r e t 9 9")
        #expect(state.editor.input?.input.text == "X-Api-Key: topsecret99")
        #expect(state.screen.contains("X-Api-Key: ••••"))
        #expect(!state.screen.contains("topsecret") && !state.screen.contains("•••••"))
    }
}
