/// The text and cursor of a one-line input, with readline-style editing.
///
/// The cursor counts grapheme clusters (0 … count), so wide characters and emoji move as one.
/// Word motions (M-b/M-f, C-Left/C-Right) stop at the edges of runs of letters and digits; C-w
/// deletes back to the previous whitespace, as in a shell.
public struct InputState: Hashable, Sendable {
    /// The characters, edited in place.
    public private(set) var characters: [Character]
    /// The cursor, between characters: 0 is before the first.
    public private(set) var cursor: Int
    /// The first visible column; kept by `InputLine` so the cursor stays visible.
    public var scrollOffset: Int

    /// Creates a state with the cursor at the end (or at `cursor`).
    public init(text: String = "", cursor: Int? = nil) {
        characters = Array(text)
        self.cursor = min(max(0, cursor ?? characters.count), characters.count)
        scrollOffset = 0
    }

    /// The text.
    public var text: String { String(characters) }

    /// Replaces the text and puts the cursor at the end.
    public mutating func setText(_ text: String) {
        characters = Array(text)
        cursor = characters.count
    }

    /// Columns taken by the characters before the cursor.
    public var cursorColumn: Int { columns(upTo: cursor) }

    /// Inserts text at the cursor; control characters (newlines from a paste …) are dropped.
    public mutating func insert(_ text: String) {
        let clean = text.filter { !DisplayWidth.isControl($0) }
        guard !clean.isEmpty else { return }
        // Rebuild around the cursor so a combining mark joins the character before it.
        let prefix = String(characters[..<cursor]) + clean
        let updated = Array(prefix + String(characters[cursor...]))
        cursor = min(prefix.count, updated.count)
        characters = updated
    }

    /// Deletes the character before the cursor.
    public mutating func backspace() {
        guard cursor > 0 else { return }
        characters.remove(at: cursor - 1)
        cursor -= 1
    }

    /// Deletes the character under the cursor.
    public mutating func deleteForward() {
        guard cursor < characters.count else { return }
        characters.remove(at: cursor)
    }

    /// Moves one character left.
    public mutating func moveLeft() { cursor = max(0, cursor - 1) }
    /// Moves one character right.
    public mutating func moveRight() { cursor = min(characters.count, cursor + 1) }
    /// Moves to the start.
    public mutating func moveHome() { cursor = 0 }
    /// Moves to the end.
    public mutating func moveEnd() { cursor = characters.count }

    /// Moves to the start of the word before the cursor.
    public mutating func moveWordLeft() { cursor = wordStart(before: cursor, isWord: Self.isWordCharacter) }

    /// Moves past the end of the word after the cursor.
    public mutating func moveWordRight() {
        var index = cursor
        while index < characters.count && !Self.isWordCharacter(characters[index]) { index += 1 }
        while index < characters.count && Self.isWordCharacter(characters[index]) { index += 1 }
        cursor = index
    }

    /// Deletes back to the previous whitespace (C-w).
    public mutating func deleteWordBackward() {
        let start = wordStart(before: cursor) { !$0.isWhitespace }
        characters.removeSubrange(start..<cursor)
        cursor = start
    }

    /// Deletes from the start to the cursor (C-u).
    public mutating func killToStart() {
        characters.removeSubrange(0..<cursor)
        cursor = 0
    }

    /// Deletes from the cursor to the end (C-k).
    public mutating func killToEnd() {
        characters.removeSubrange(cursor...)
    }

    /// Applies a standard editing key. Returns false for keys it does not handle (Enter, Esc, Tab,
    /// arrows up/down …) so the caller can act on them.
    @discardableResult
    public mutating func handle(_ event: KeyEvent) -> Bool {
        let mods = event.modifiers
        switch event.key {
        case .character(let character) where mods.isEmpty || mods == .shift:
            insert(String(character))
        case .character("w") where mods == .ctrl, .backspace where mods == .alt || mods == .ctrl:
            deleteWordBackward()
        case .character("u") where mods == .ctrl: killToStart()
        case .character("k") where mods == .ctrl: killToEnd()
        case .character("a") where mods == .ctrl: moveHome()
        case .character("e") where mods == .ctrl: moveEnd()
        case .character("b") where mods == .ctrl: moveLeft()
        case .character("f") where mods == .ctrl: moveRight()
        case .character("h") where mods == .ctrl: backspace()
        case .character("d") where mods == .ctrl: deleteForward()
        case .character("b") where mods == .alt: moveWordLeft()
        case .character("f") where mods == .alt: moveWordRight()
        case .left where mods.contains(.ctrl) || mods.contains(.alt): moveWordLeft()
        case .right where mods.contains(.ctrl) || mods.contains(.alt): moveWordRight()
        case .left: moveLeft()
        case .right: moveRight()
        case .home: moveHome()
        case .end: moveEnd()
        case .backspace: backspace()
        case .delete: deleteForward()
        default: return false
        }
        return true
    }

    // MARK: Mechanics

    static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_"
    }

    private func wordStart(before index: Int, isWord: (Character) -> Bool) -> Int {
        var index = index
        while index > 0 && !isWord(characters[index - 1]) { index -= 1 }
        while index > 0 && isWord(characters[index - 1]) { index -= 1 }
        return index
    }

    func columns(upTo index: Int) -> Int {
        characters[..<index].reduce(0) { $0 + DisplayWidth.of($1) }
    }
}
