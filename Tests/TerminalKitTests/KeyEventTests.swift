import Testing
@testable import TerminalKit
import TestTraits

@Suite("Key events", .offPool)
struct KeyEventTests {
    @Test("Parsing key descriptions", arguments: [
        ("j", KeyEvent(.character("j"))),
        ("J", KeyEvent(.character("J"))),
        ("Enter", KeyEvent(.enter)),
        ("enter", KeyEvent(.enter)),
        ("Esc", KeyEvent(.escape)),
        ("S-Tab", KeyEvent(.backTab)),
        ("BTab", KeyEvent(.backTab)),
        ("C-c", KeyEvent.ctrl("c")),
        ("M-x", KeyEvent.alt("x")),
        ("A-x", KeyEvent.alt("x")),
        ("C-M-Left", KeyEvent(.left, modifiers: [.ctrl, .alt])),
        ("Up", KeyEvent(.up)),
        ("PageDown", KeyEvent(.pageDown)),
        ("PgUp", KeyEvent(.pageUp)),
        ("F1", KeyEvent(.function(1))),
        ("f12", KeyEvent(.function(12))),
        ("Space", KeyEvent(.character(" "))),
        ("-", KeyEvent(.character("-"))),
        ("C--", KeyEvent(.character("-"), modifiers: .ctrl)),
        ("?", KeyEvent(.character("?"))),
        ("é", KeyEvent(.character("é"))),
        ("Backspace", KeyEvent(.backspace)),
        ("BSpace", KeyEvent(.backspace)),
        ("Del", KeyEvent(.delete)),
        ("S-Up", KeyEvent(.up, modifiers: .shift)),
    ])
    func parse(text: String, expected: KeyEvent) throws {
        #expect(try KeyEvent(parsing: text) == expected)
    }

    @Test("Descriptions read back to the same event")
    func roundTrip() throws {
        let keys: [Key] = [
            .character("a"), .character(" "), .character("中"), .character("-"), .enter, .escape, .tab, .backTab,
            .backspace, .delete, .insert, .up, .down, .left, .right, .home, .end, .pageUp, .pageDown,
            .function(1), .function(24),
        ]
        let modifierSets: [KeyModifiers] = [[], .ctrl, .alt, [.ctrl, .alt], .shift, [.ctrl, .shift]]
        for key in keys {
            for modifiers in modifierSets {
                if (key == .backTab || key == .tab) && modifiers.contains(.shift) { continue }  // S-Tab is backTab
                let event = KeyEvent(key, modifiers: modifiers)
                #expect(try KeyEvent(parsing: event.description) == event, "\(event.description)")
            }
        }
        #expect(KeyEvent.ctrl("c").description == "C-c")
        #expect(KeyEvent(.backTab).description == "S-Tab")
        #expect(KeyEvent(.character(" ")).description == "Space")
        #expect(KeyEvent(.pageDown).description == "PageDown")
    }

    @Test("Bad descriptions are specific errors", arguments: ["", "Nope", "X-a", "F99", "C-", "\u{1B}"])
    func errors(text: String) {
        #expect(throws: KeyParseError.self) { try KeyEvent(parsing: text) }
        #expect(KeyEvent(text) == nil)
    }

    @Test("Sequences split on whitespace")
    func sequence() throws {
        #expect(try KeyEvent.parseSequence("j j  Enter C-c") == [.character("j"), .character("j"), KeyEvent(.enter), .ctrl("c")])
        #expect(try KeyEvent.parseSequence("") == [])
        do {
            _ = try KeyEvent.parseSequence("j Bogus")
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "cannot read key 'Bogus': unknown key name")
        }
    }
}
