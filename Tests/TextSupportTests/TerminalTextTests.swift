import TestTraits
import Testing
import TextSupport

/// Text for a terminal: no control character reaches it raw (`cat -v`'s caret notation).
@Suite(.offPool) struct TerminalTextTests {
    @Test func controlCharactersAreShownInCaretNotation() {
        #expect(TerminalText.cleaned("plain text, ü and 🙂") == "plain text, ü and 🙂")
        #expect(TerminalText.cleaned("a\u{1B}]52;c;cHduZWQ=\u{07}b") == "a^[]52;c;cHduZWQ=^Gb")
        #expect(TerminalText.cleaned("\u{1B}[2J\u{1B}]0;title\u{07}") == "^[[2J^[]0;title^G")
        #expect(TerminalText.cleaned("del\u{7F} nul\u{0}") == "del^? nul^@")
        // C1 controls (CSI as U+009B) stand out as U+FFFD.
        #expect(TerminalText.cleaned("x\u{9B}31my") == "x\u{FFFD}31my")
    }

    @Test func lineEndsAndTabsStayButALoneCarriageReturnDoesNot() {
        #expect(TerminalText.cleaned("a\tb\nc\r\nd") == "a\tb\nc\r\nd")
        // A lone CR would move back to overwrite what the line said.
        #expect(TerminalText.cleaned("safe\rEVIL") == "safe^MEVIL")
        #expect(TerminalText.cleaned("end\r") == "end^M")
    }

    @Test func bytesThatAreNotUTF8BecomeReplacementCharacters() {
        #expect(TerminalText.cleaned(bytes: [0x61, 0xFF, 0x1B, 0x62]) == Array("a\u{FFFD}^[b".utf8))
        #expect(TerminalText.cleaned(bytes: Array("clean".utf8)) == Array("clean".utf8))
    }
}
