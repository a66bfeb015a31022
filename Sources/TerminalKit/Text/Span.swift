/// A run of text in one style.
package struct Span: Hashable, Sendable, ExpressibleByStringInterpolation {
    /// The text (one line: newlines are drawn as nothing).
    package var text: String
    /// The style laid over the cells the text covers.
    package var style: Style

    /// Creates a span.
    package init(_ text: String, style: Style = .plain) {
        self.text = text
        self.style = style
    }

    /// A plain span from a literal.
    package init(stringLiteral value: String) { self.init(value) }

    /// A plain value from an interpolated literal.
    package init(stringInterpolation: DefaultStringInterpolation) { self.init(String(stringInterpolation: stringInterpolation)) }

    /// Columns the text occupies.
    package var width: Int { text.displayWidth }

    /// A plain span.
    package static func plain(_ text: String) -> Span { Span(text) }
    /// A span in one foreground colour.
    package static func colored(_ text: String, _ color: Color) -> Span { Span(text, style: Style(foreground: color)) }
    /// A bold span.
    package static func bold(_ text: String) -> Span { Span(text, style: Style(modifiers: .bold)) }
    /// A dim span.
    package static func dim(_ text: String) -> Span { Span(text, style: Style(modifiers: .dim)) }
    /// A styled span.
    package static func styled(_ text: String, _ style: Style) -> Span { Span(text, style: style) }
}
