/// A key on the keyboard, independent of modifiers.
public enum Key: Hashable, Sendable {
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
public struct KeyModifiers: OptionSet, Hashable, Sendable {
    /// The raw bit set.
    public let rawValue: UInt8
    /// Creates a set from raw bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Control.
    public static let ctrl = KeyModifiers(rawValue: 1 << 0)
    /// Alt / Meta (terminals send it as an Esc prefix).
    public static let alt = KeyModifiers(rawValue: 1 << 1)
    /// Shift (only for non-character keys: a shifted letter is its capital).
    public static let shift = KeyModifiers(rawValue: 1 << 2)
}

/// A key press: the key and the modifiers held.
public struct KeyEvent: Hashable, Sendable {
    /// The key.
    public var key: Key
    /// The modifiers.
    public var modifiers: KeyModifiers

    /// Creates a key event.
    public init(_ key: Key, modifiers: KeyModifiers = []) {
        self.key = key
        self.modifiers = modifiers
    }

    /// A plain character key.
    public static func character(_ character: Character) -> KeyEvent { KeyEvent(.character(character)) }
    /// Control plus a character, e.g. `.ctrl("c")`.
    public static func ctrl(_ character: Character) -> KeyEvent { KeyEvent(.character(character), modifiers: .ctrl) }
    /// Alt plus a character.
    public static func alt(_ character: Character) -> KeyEvent { KeyEvent(.character(character), modifiers: .alt) }
}

/// A mouse button.
public enum MouseButton: Hashable, Sendable {
    /// Primary button.
    case left
    /// Middle button / wheel click.
    case middle
    /// Secondary button.
    case right
}

/// A mouse action at a cell.
public struct MouseEvent: Hashable, Sendable {
    /// What happened.
    public enum Kind: Hashable, Sendable {
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
    public var kind: Kind
    /// The cell under the pointer.
    public var position: Position
    /// Modifiers held, where the terminal reports them.
    public var modifiers: KeyModifiers

    /// Creates a mouse event.
    public init(_ kind: Kind, at position: Position, modifiers: KeyModifiers = []) {
        self.kind = kind
        self.position = position
        self.modifiers = modifiers
    }
}

/// Everything a terminal reports to the app.
public enum TerminalEvent: Hashable, Sendable {
    /// A key press.
    case key(KeyEvent)
    /// A mouse action.
    case mouse(MouseEvent)
    /// The terminal has a new size; the next frame must be drawn at that size.
    case resize(Size)
}
