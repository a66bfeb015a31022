/// One terminal cell: a grapheme cluster and its resolved colours and modifiers.
///
/// A 2-wide glyph occupies its cell and the next; the next one is a *continuation* cell with an
/// empty symbol that backends and exports skip.
package struct Cell: Hashable, Sendable {
    /// The grapheme cluster drawn here ("" for a continuation cell).
    package var symbol: String
    /// Foreground colour.
    package var foreground: Color
    /// Background colour.
    package var background: Color
    /// Text attributes.
    package var modifiers: Modifiers
    /// True for the right half of a wide glyph.
    package var isContinuation: Bool

    /// Creates a cell.
    package init(
        _ symbol: String = " ", foreground: Color = .default, background: Color = .default,
        modifiers: Modifiers = [], isContinuation: Bool = false
    ) {
        self.symbol = symbol
        self.foreground = foreground
        self.background = background
        self.modifiers = modifiers
        self.isContinuation = isContinuation
    }

    /// A space in the terminal's default colours.
    package static let blank = Cell()

    /// The cell's look as a style layer.
    package var style: Style {
        Style(foreground: foreground, background: background, modifiers: modifiers)
    }

    /// Lays a style layer over the cell's current look.
    package mutating func apply(_ style: Style) {
        if let foreground = style.foreground { self.foreground = foreground }
        if let background = style.background { self.background = background }
        modifiers = modifiers.subtracting(style.removedModifiers).union(style.modifiers)
    }

    /// Columns the symbol occupies (0 for a continuation cell).
    package var width: Int { isContinuation ? 0 : max(1, symbol.displayWidth) }

    /// True when the cell equals `Cell.blank`, found without a string comparison (comparing two
    /// different strings costs ~90 instructions, and a first frame compares every cell with blank).
    @inlinable
    package var isBlank: Bool {
        !isContinuation && modifiers.isEmpty && foreground == .default && background == .default
            && symbol.utf8.count == 1 && symbol.utf8.first == 0x20
    }

    /// True when both cells look the same apart from their symbol.
    @inlinable
    package func hasSameLook(as other: Cell) -> Bool {
        foreground == other.foreground && background == other.background && modifiers == other.modifiers
    }
}
