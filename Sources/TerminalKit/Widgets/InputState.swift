/// The text and cursor of a one-line input, with readline-style editing.
///
/// The cursor counts grapheme clusters (0 … count), so wide characters and emoji move as one.
/// Word motions stop at the edges of runs of letters and digits; deleting a word backward stops
/// at the previous whitespace, as in a shell. Which keys do what is the app's keymap's business.
package struct InputState: Hashable, Sendable {
    /// The characters, edited in place.
    package private(set) var characters: [Character]
    /// The cursor, between characters: 0 is before the first.
    package private(set) var cursor: Int
    /// The first visible column; kept by `InputLine` so the cursor stays visible.
    package var scrollOffset: Int

    /// Creates a state with the cursor at the end (or at `cursor`).
    package init(text: String = "", cursor: Int? = nil) {
        characters = Array(text)
        self.cursor = min(max(0, cursor ?? characters.count), characters.count)
        scrollOffset = 0
    }

    /// The text.
    package var text: String { String(characters) }

    /// Replaces the text and puts the cursor at the end.
    package mutating func setText(_ text: String) {
        characters = Array(text)
        cursor = characters.count
    }

    /// Columns taken by the characters before the cursor.
    package var cursorColumn: Int { columns(upTo: cursor) }

    /// Inserts text at the cursor; control characters (newlines from a paste …) are dropped.
    package mutating func insert(_ text: String) {
        let clean = text.filter { !DisplayWidth.isControl($0) }
        guard !clean.isEmpty else { return }
        // Rebuild around the cursor so a combining mark joins the character before it.
        let prefix = String(characters[..<cursor]) + clean
        let updated = Array(prefix + String(characters[cursor...]))
        cursor = min(prefix.count, updated.count)
        characters = updated
    }

    /// Deletes the character before the cursor.
    package mutating func backspace() {
        guard cursor > 0 else { return }
        characters.remove(at: cursor - 1)
        cursor -= 1
    }

    /// Deletes the character under the cursor.
    package mutating func deleteForward() {
        guard cursor < characters.count else { return }
        characters.remove(at: cursor)
    }

    /// Moves one character left.
    package mutating func moveLeft() { cursor = max(0, cursor - 1) }
    /// Moves one character right.
    package mutating func moveRight() { cursor = min(characters.count, cursor + 1) }
    /// Moves to the start.
    package mutating func moveHome() { cursor = 0 }
    /// Moves to the end.
    package mutating func moveEnd() { cursor = characters.count }

    /// Moves to the start of the word before the cursor.
    package mutating func moveWordLeft() { cursor = wordStart(before: cursor, isWord: Self.isWordCharacter) }

    /// Moves past the end of the word after the cursor.
    package mutating func moveWordRight() {
        var index = cursor
        while index < characters.count && !Self.isWordCharacter(characters[index]) { index += 1 }
        while index < characters.count && Self.isWordCharacter(characters[index]) { index += 1 }
        cursor = index
    }

    /// Deletes back to the previous whitespace (C-w).
    package mutating func deleteWordBackward() {
        let start = wordStart(before: cursor) { !$0.isWhitespace }
        characters.removeSubrange(start..<cursor)
        cursor = start
    }

    /// Deletes from the start to the cursor (C-u).
    package mutating func killToStart() {
        characters.removeSubrange(0..<cursor)
        cursor = 0
    }

    /// Deletes from the cursor to the end (C-k).
    package mutating func killToEnd() {
        characters.removeSubrange(cursor...)
    }

    /// Applies an edit.
    package mutating func apply(_ edit: InputEdit) {
        switch edit {
        case .insert(let text): insert(text)
        case .backspace: backspace()
        case .deleteForward: deleteForward()
        case .moveLeft: moveLeft()
        case .moveRight: moveRight()
        case .moveHome: moveHome()
        case .moveEnd: moveEnd()
        case .moveWordLeft: moveWordLeft()
        case .moveWordRight: moveWordRight()
        case .deleteWordBackward: deleteWordBackward()
        case .killToStart: killToStart()
        case .killToEnd: killToEnd()
        }
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

/// One editing operation on an input line (what a key does while typing).
package enum InputEdit: Hashable, Sendable {
    /// Type text at the cursor.
    case insert(String)
    /// Delete the character before the cursor.
    case backspace
    /// Delete the character under the cursor.
    case deleteForward
    /// One character left.
    case moveLeft
    /// One character right.
    case moveRight
    /// To the start.
    case moveHome
    /// To the end.
    case moveEnd
    /// To the start of the word before the cursor.
    case moveWordLeft
    /// Past the end of the word after the cursor.
    case moveWordRight
    /// Delete back to the previous whitespace.
    case deleteWordBackward
    /// Delete from the start to the cursor.
    case killToStart
    /// Delete from the cursor to the end.
    case killToEnd
}
