/// A run of text in one style.
public struct Span: Hashable, Sendable, ExpressibleByStringInterpolation {
    /// The text (one line: newlines are drawn as nothing).
    public var text: String
    /// The style laid over the cells the text covers.
    public var style: Style

    /// Creates a span.
    public init(_ text: String, style: Style = .plain) {
        self.text = text
        self.style = style
    }

    /// A plain span from a literal.
    public init(stringLiteral value: String) { self.init(value) }

    /// A plain value from an interpolated literal.
    public init(stringInterpolation: DefaultStringInterpolation) { self.init(String(stringInterpolation: stringInterpolation)) }

    /// Columns the text occupies.
    public var width: Int { text.displayWidth }

    /// A plain span.
    public static func plain(_ text: String) -> Span { Span(text) }
    /// A span in one foreground colour.
    public static func colored(_ text: String, _ color: Color) -> Span { Span(text, style: Style(foreground: color)) }
    /// A bold span.
    public static func bold(_ text: String) -> Span { Span(text, style: Style(modifiers: .bold)) }
    /// A dim span.
    public static func dim(_ text: String) -> Span { Span(text, style: Style(modifiers: .dim)) }
    /// A styled span.
    public static func styled(_ text: String, _ style: Style) -> Span { Span(text, style: style) }
}
