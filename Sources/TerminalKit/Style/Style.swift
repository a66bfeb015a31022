/// A layer of styling: unset colours let the layer below show through.
package struct Style: Hashable, Sendable {
    /// Foreground colour, or nil to keep the one beneath.
    package var foreground: Color?
    /// Background colour, or nil to keep the one beneath.
    package var background: Color?
    /// Modifiers this layer adds.
    package var modifiers: Modifiers
    /// Modifiers this layer removes from the layers beneath.
    package var removedModifiers: Modifiers

    /// Creates a style layer.
    package init(
        foreground: Color? = nil, background: Color? = nil,
        modifiers: Modifiers = [], removing removedModifiers: Modifiers = []
    ) {
        self.foreground = foreground
        self.background = background
        self.modifiers = modifiers
        self.removedModifiers = removedModifiers
    }

    /// Shorthand for `Style(foreground:background:modifiers:)`.
    package init(fg: Color?, bg: Color? = nil, _ modifiers: Modifiers = []) {
        self.init(foreground: fg, background: bg, modifiers: modifiers)
    }

    /// The empty layer: changes nothing.
    package static let plain = Style()

    /// This style with `other` laid on top: other's colours win where set, modifiers combine.
    package func patched(with other: Style) -> Style {
        Style(
            foreground: other.foreground ?? foreground,
            background: other.background ?? background,
            modifiers: modifiers.subtracting(other.removedModifiers).union(other.modifiers),
            removing: removedModifiers.subtracting(other.modifiers).union(other.removedModifiers)
        )
    }

    /// A copy with a different foreground.
    package func foreground(_ color: Color) -> Style { var copy = self; copy.foreground = color; return copy }
    /// A copy with a different background.
    package func background(_ color: Color) -> Style { var copy = self; copy.background = color; return copy }
    /// A copy with extra modifiers.
    package func adding(_ extra: Modifiers) -> Style {
        var copy = self
        copy.modifiers.formUnion(extra)
        copy.removedModifiers.subtract(extra)
        return copy
    }
    /// A copy that removes modifiers from the layers beneath.
    package func removing(_ gone: Modifiers) -> Style {
        var copy = self
        copy.modifiers.subtract(gone)
        copy.removedModifiers.formUnion(gone)
        return copy
    }
    /// A copy that adds bold.
    package var bold: Style { adding(.bold) }
    /// A copy that adds reverse video.
    package var reversed: Style { adding(.reverse) }
}
