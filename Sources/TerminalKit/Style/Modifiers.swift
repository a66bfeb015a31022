/// Text attributes a terminal can apply on top of colours.
package struct Modifiers: OptionSet, Hashable, Sendable {
    /// The raw bit set.
    package let rawValue: UInt8
    /// Creates a set from raw bits.
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Bold or bright text.
    package static let bold = Modifiers(rawValue: 1 << 0)
    /// Faint text.
    package static let dim = Modifiers(rawValue: 1 << 1)
    /// Italic text.
    package static let italic = Modifiers(rawValue: 1 << 2)
    /// Underlined text.
    package static let underline = Modifiers(rawValue: 1 << 3)
    /// Foreground and background swapped.
    package static let reverse = Modifiers(rawValue: 1 << 4)
}
