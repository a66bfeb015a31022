import CNcursesw
@testable import NcursesBackend
import TerminalKit
import Testing
import TestTraits

/// What `wget_wch` returns, read as keys: control bytes in raw mode, the keypad's KEY_ codes.
@Suite(.offPool) struct CursesKeyDecoderTests {
    let decoder = CursesKeyDecoder(extended: [:])

    @Test func controlBytesAreCtrlLettersOrNamedKeys() {
        #expect(decoder.character(1) == KeyEvent(.character("a"), modifiers: .ctrl))
        #expect(decoder.character(19) == KeyEvent(.character("s"), modifiers: .ctrl))
        #expect(decoder.character(9) == KeyEvent(.tab))
        #expect(decoder.character(13) == KeyEvent(.enter) && decoder.character(10) == KeyEvent(.enter))
        #expect(decoder.character(27) == KeyEvent(.escape))
        #expect(decoder.character(127) == KeyEvent(.backspace) && decoder.character(8) == KeyEvent(.backspace))
        #expect(decoder.character(0) == KeyEvent(.character(" "), modifiers: .ctrl))
        #expect(decoder.character(28) == KeyEvent(.character("\\"), modifiers: .ctrl))
    }

    /// `KeyEvent.whyNoTerminalSendsIt` (what the config file refuses) says what this decoder
    /// does: every key a byte gives is one it calls sendable, and every Ctrl-character it calls
    /// sendable is what some byte gives.
    @Test func theKeysCalledSendableAreTheOnesTheBytesGive() {
        let given = (0...127).compactMap { decoder.character(UInt32($0)) }
        for key in given { #expect(key.whyNoTerminalSendsIt == nil, "\(key)") }
        let ctrl = Set(given.filter { $0.modifiers == .ctrl })
        for value in 0x20...0x7E {
            let character = Character(Unicode.Scalar(UInt8(value)))
            let key = KeyEvent(.character(character), modifiers: .ctrl)
            #expect((key.whyNoTerminalSendsIt == nil) == ctrl.contains(key), "\(key)")
        }
        #expect(KeyEvent(.character("ü"), modifiers: .ctrl).whyNoTerminalSendsIt != nil)
    }

    @Test func printableCharactersAreThemselves() {
        #expect(decoder.character(0x61) == KeyEvent(.character("a")))
        #expect(decoder.character(0xFC) == KeyEvent(.character("ü")))
        #expect(decoder.character(0x1F600) == KeyEvent(.character("😀")))
        #expect(decoder.character(0xD800) == nil, "a lone surrogate is no character")
    }

    @Test func keypadCodesAreNamedKeys() {
        #expect(decoder.functionKey(KEY_UP) == KeyEvent(.up))
        #expect(decoder.functionKey(KEY_NPAGE) == KeyEvent(.pageDown))
        #expect(decoder.functionKey(nc_key_f(5)) == KeyEvent(.function(5)))
        let withCtrlUp = CursesKeyDecoder(extended: [600: KeyEvent(.up, modifiers: .ctrl)])
        #expect(withCtrlUp.functionKey(600) == KeyEvent(.up, modifiers: .ctrl), "terminfo's extended names (kUP5 …)")
    }
}
