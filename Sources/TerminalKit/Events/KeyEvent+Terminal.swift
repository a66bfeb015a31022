/// Which key events a terminal can send: what a terminal writes for a key (a byte, an escape
/// sequence) as `NcursesBackend` reads it back. Ctrl reaches a program only with the letters and
/// a few symbols (a byte below 32); some of those bytes are other keys' (Ctrl-H is Backspace);
/// Shift shows only on keys that are not characters.
extension KeyEvent {
    /// Why no terminal sends this key (it arrives as another key, or not at all), or nil when
    /// terminals do. Keys with Alt are sent with an Esc before them, so Alt changes nothing here.
    package var whyNoTerminalSendsIt: String? {
        let modifiers = self.modifiers.subtracting(.alt)
        switch key {
        case .character(let character):
            if modifiers.contains(.shift) { return "Shift is written as the character it gives (a capital, a symbol), not S-" }
            guard modifiers.contains(.ctrl) else { return nil }
            return Self.whyCtrlIsNotSent(with: character)
        case .enter, .escape, .tab, .backTab, .backspace:
            guard !modifiers.isEmpty else { return nil }
            return "terminals send \(KeyEvent(key).description) the same with Ctrl or Shift held"
        case .function:
            guard !modifiers.isEmpty else { return nil }
            return "terminals send a function key with Ctrl or Shift as another function key (S-F1 is F13)"
        case .up, .down, .left, .right, .home, .end, .pageUp, .pageDown, .delete, .insert:
            // xterm-style terminals send these with any modifiers (kUP5 is Ctrl-Up …).
            return nil
        }
    }

    /// Ctrl with a character is a byte below 32: the letters a–z and @ [ \ ] ^ _ (and Space, as @).
    private static func whyCtrlIsNotSent(with character: Character) -> String? {
        switch character {
        case "h": return "Ctrl-H arrives as Backspace"
        case "i": return "Ctrl-I arrives as Tab"
        case "j", "m": return "Ctrl-\(character.uppercased()) arrives as Enter"
        case "[": return "Ctrl-[ arrives as Esc"
        case "@": return "Ctrl-@ arrives as C-Space"
        case "a"..."z", " ", "\\", "]", "^", "_": return nil
        case "A"..."Z": return "terminals send Ctrl with a capital as with the small letter: write C-\(character.lowercased())"
        default: return "terminals send Ctrl only with a letter a–z, Space, \\ ] ^ or _"
        }
    }
}
