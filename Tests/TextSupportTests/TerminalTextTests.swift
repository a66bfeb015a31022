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
        // C1 controls (CSI as U+009B) are shown by their code point.
        #expect(TerminalText.cleaned("x\u{9B}31my") == "x<U+009B>31my")
        #expect(TerminalText.cleaned("nel\u{85}") == "nel<U+0085>")
    }

    /// Bidirectional controls reorder what is shown (`Bidi \u{202E}gnp.exe` reads `Bidi exe.png`):
    /// each is shown by its code point, in text and in bytes alike.
    @Test func bidiControlsAreShownByTheirCodePoints() {
        for scalar in ["\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}", "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}", "\u{200E}", "\u{200F}", "\u{061C}"] {
            let shown = TerminalText.cleaned("a\(scalar)b")
            #expect(!shown.contains(scalar) && shown.hasPrefix("a<U+") && shown.hasSuffix(">b"), "\(shown)")
            #expect(TerminalText.cleaned(bytes: Array("a\(scalar)b".utf8)) == Array(shown.utf8))
        }
        #expect(TerminalText.cleaned("Bidi \u{202E}gnp.exe") == "Bidi <U+202E>gnp.exe")
        // Neighbours of those code points are text, not controls.
        #expect(TerminalText.cleaned("\u{2018}quoted\u{2019} \u{2065} \u{202F} \u{061B}") == "\u{2018}quoted\u{2019} \u{2065} \u{202F} \u{061B}")
        #expect(TerminalText.escapingInvisibleControls("x\u{202E}y\u{9B}", { "[\($0.value)]" }) == "x[8238]y[155]")
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
