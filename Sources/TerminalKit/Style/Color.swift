/// A terminal colour: the terminal's own default or one of the 256 indexed colours.
package enum Color: Hashable, Sendable {
    /// The terminal's own foreground or background colour.
    case `default`
    /// One of the 256 xterm palette entries (0–15 ANSI, 16–231 colour cube, 232–255 greys).
    case indexed(UInt8)

    /// ANSI black (index 0).
    package static let black = Color.indexed(0)
    /// ANSI red (index 1).
    package static let red = Color.indexed(1)
    /// ANSI green (index 2).
    package static let green = Color.indexed(2)
    /// ANSI yellow (index 3).
    package static let yellow = Color.indexed(3)
    /// ANSI blue (index 4).
    package static let blue = Color.indexed(4)
    /// ANSI magenta (index 5).
    package static let magenta = Color.indexed(5)
    /// ANSI cyan (index 6).
    package static let cyan = Color.indexed(6)
    /// ANSI white, usually light grey (index 7).
    package static let white = Color.indexed(7)
    /// ANSI bright black, usually dark grey (index 8).
    package static let brightBlack = Color.indexed(8)
    /// ANSI bright red (index 9).
    package static let brightRed = Color.indexed(9)
    /// ANSI bright green (index 10).
    package static let brightGreen = Color.indexed(10)
    /// ANSI bright yellow (index 11).
    package static let brightYellow = Color.indexed(11)
    /// ANSI bright blue (index 12).
    package static let brightBlue = Color.indexed(12)
    /// ANSI bright magenta (index 13).
    package static let brightMagenta = Color.indexed(13)
    /// ANSI bright cyan (index 14).
    package static let brightCyan = Color.indexed(14)
    /// ANSI bright white (index 15).
    package static let brightWhite = Color.indexed(15)

    /// The palette entry nearest to a 24-bit colour, chosen from the 6×6×6 cube and the grey ramp.
    package static func rgb(_ red: UInt8, _ green: UInt8, _ blue: UInt8) -> Color {
        .indexed(XtermPalette.nearestIndex(red: red, green: green, blue: blue))
    }

    /// The xterm palette index, or nil for `.default`.
    package var index: UInt8? {
        if case .indexed(let index) = self { return index }
        return nil
    }
}
