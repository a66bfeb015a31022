/// A layer of styling: unset colours let the layer below show through.
public struct Style: Hashable, Sendable {
    /// Foreground colour, or nil to keep the one beneath.
    public var foreground: Color?
    /// Background colour, or nil to keep the one beneath.
    public var background: Color?
    /// Modifiers this layer adds.
    public var modifiers: Modifiers
    /// Modifiers this layer removes from the layers beneath.
    public var removedModifiers: Modifiers

    /// Creates a style layer.
    public init(
        foreground: Color? = nil, background: Color? = nil,
        modifiers: Modifiers = [], removing removedModifiers: Modifiers = []
    ) {
        self.foreground = foreground
        self.background = background
        self.modifiers = modifiers
        self.removedModifiers = removedModifiers
    }

    /// Shorthand for `Style(foreground:background:modifiers:)`.
    public init(fg: Color?, bg: Color? = nil, _ modifiers: Modifiers = []) {
        self.init(foreground: fg, background: bg, modifiers: modifiers)
    }

    /// The empty layer: changes nothing.
    public static let plain = Style()

    /// This style with `other` laid on top: other's colours win where set, modifiers combine.
    public func patched(with other: Style) -> Style {
        Style(
            foreground: other.foreground ?? foreground,
            background: other.background ?? background,
            modifiers: modifiers.subtracting(other.removedModifiers).union(other.modifiers),
            removing: removedModifiers.subtracting(other.modifiers).union(other.removedModifiers)
        )
    }

    /// A copy with a different foreground.
    public func foreground(_ color: Color) -> Style { var copy = self; copy.foreground = color; return copy }
    /// A copy with a different background.
    public func background(_ color: Color) -> Style { var copy = self; copy.background = color; return copy }
    /// A copy with extra modifiers.
    public func adding(_ extra: Modifiers) -> Style {
        var copy = self
        copy.modifiers.formUnion(extra)
        copy.removedModifiers.subtract(extra)
        return copy
    }
    /// A copy that removes modifiers from the layers beneath.
    public func removing(_ gone: Modifiers) -> Style {
        var copy = self
        copy.modifiers.subtract(gone)
        copy.removedModifiers.formUnion(gone)
        return copy
    }
    /// A copy that adds bold.
    public var bold: Style { adding(.bold) }
    /// A copy that adds reverse video.
    public var reversed: Style { adding(.reverse) }
}
