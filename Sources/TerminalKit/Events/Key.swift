/// A key on the keyboard, independent of modifiers.
package enum Key: Hashable, Sendable {
    /// A printable character (a space is `.character(" ")`).
    case character(Character)
    /// Return / Enter.
    case enter
    /// Escape.
    case escape
    /// Tab.
    case tab
    /// Shift-Tab.
    case backTab
    /// Backspace.
    case backspace
    /// Delete (forward).
    case delete
    /// Insert.
    case insert
    /// Arrow up.
    case up
    /// Arrow down.
    case down
    /// Arrow left.
    case left
    /// Arrow right.
    case right
    /// Home.
    case home
    /// End.
    case end
    /// Page up.
    case pageUp
    /// Page down.
    case pageDown
    /// Function key F1…F24 (the number).
    case function(Int)
}

/// Modifier keys held with a key.
package struct KeyModifiers: OptionSet, Hashable, Sendable {
    /// The raw bit set.
    package let rawValue: UInt8
    /// Creates a set from raw bits.
    package init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Control.
    package static let ctrl = KeyModifiers(rawValue: 1 << 0)
    /// Alt / Meta (terminals send it as an Esc prefix).
    package static let alt = KeyModifiers(rawValue: 1 << 1)
    /// Shift (only for non-character keys: a shifted letter is its capital).
    package static let shift = KeyModifiers(rawValue: 1 << 2)
}

/// A key press: the key and the modifiers held.
package struct KeyEvent: Hashable, Sendable {
    /// The key.
    package var key: Key
    /// The modifiers.
    package var modifiers: KeyModifiers

    /// Creates a key event.
    package init(_ key: Key, modifiers: KeyModifiers = []) {
        self.key = key
        self.modifiers = modifiers
    }

    /// A plain character key.
    package static func character(_ character: Character) -> KeyEvent { KeyEvent(.character(character)) }
    /// Control plus a character, e.g. `.ctrl("c")`.
    package static func ctrl(_ character: Character) -> KeyEvent { KeyEvent(.character(character), modifiers: .ctrl) }
    /// Alt plus a character.
    package static func alt(_ character: Character) -> KeyEvent { KeyEvent(.character(character), modifiers: .alt) }
}

/// A mouse button.
package enum MouseButton: Hashable, Sendable {
    /// Primary button.
    case left
    /// Middle button / wheel click.
    case middle
    /// Secondary button.
    case right
}

/// A mouse action at a cell.
package struct MouseEvent: Hashable, Sendable {
    /// What happened.
    package enum Kind: Hashable, Sendable {
        /// A button went down.
        case press(MouseButton)
        /// A button went up (terminals do not always say which).
        case release
        /// The pointer moved to another cell while a button is held (a drag).
        case motion
        /// The wheel turned away from the user.
        case wheelUp
        /// The wheel turned towards the user.
        case wheelDown
    }

    /// What happened.
    package var kind: Kind
    /// The cell under the pointer.
    package var position: Position
    /// Modifiers held, where the terminal reports them.
    package var modifiers: KeyModifiers

    /// Creates a mouse event.
    package init(_ kind: Kind, at position: Position, modifiers: KeyModifiers = []) {
        self.kind = kind
        self.position = position
        self.modifiers = modifiers
    }
}

/// Everything a terminal reports to the app.
package enum TerminalEvent: Hashable, Sendable {
    /// A key press.
    case key(KeyEvent)
    /// A mouse action.
    case mouse(MouseEvent)
    /// The terminal has a new size; the next frame must be drawn at that size.
    case resize(Size)
}
