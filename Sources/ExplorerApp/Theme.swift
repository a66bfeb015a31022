import Catalog
import BodyViewer
import DispatcherCore
import TerminalKit

/// The explorer's colours and styles, in one place.
package enum Theme {
    static let border = Style(foreground: .brightBlack)
    static let focusedBorder = Style(foreground: .cyan, modifiers: .bold)
    static let title = Style(modifiers: .bold)
    static let dim = Style(modifiers: .dim)
    static let heading = Style(modifiers: .bold)
    static let highlight = Style(modifiers: .reverse)
    static let key = Style(foreground: .cyan, modifiers: .bold)
    static let notice = Style(foreground: .yellow)
    static let error = Style(foreground: .red, modifiers: .bold)
    static let secretMask = Style(foreground: .magenta)
    static let origin = Style(foreground: .brightBlack)
    static let statusBar = Style(background: .indexed(236))
    /// The body line under the cursor, while the response pane has focus.
    static let bodyCursorLine = Style(background: .indexed(237))
    /// The Body tab's input line prompt.
    static let prompt = Style(foreground: .cyan, modifiers: .bold)

    /// Body text by what it is: jq-like colours for JSON, a quiet gutter, loud matches.
    static func body(_ role: BodyTextRole) -> Style {
        switch role {
        case .plain: .plain
        case .key: Style(foreground: .brightBlue, modifiers: .bold)
        case .string: Style(foreground: .green)
        case .number: Style(foreground: .cyan)
        case .bool: Style(foreground: .yellow)
        case .null: Style(foreground: .magenta)
        case .punctuation: .plain
        case .lineNumber: Style(foreground: .brightBlack)
        case .foldSummary: Style(foreground: .magenta, modifiers: .dim)
        case .match: Style(foreground: .black, background: .yellow)
        case .currentMatch: Style(foreground: .black, background: .brightMagenta, modifiers: .bold)
        case .hexOffset: Style(foreground: .brightBlack)
        case .hexByte: .plain
        case .hexASCII: Style(foreground: .cyan)
        case .notice: Style(foreground: .yellow)
        }
    }

    /// A method's colour, as API tools conventionally paint them.
    static func method(_ method: HTTPMethod) -> Style {
        switch method {
        case .get: Style(foreground: .green, modifiers: .bold)
        case .post: Style(foreground: .yellow, modifiers: .bold)
        case .put: Style(foreground: .brightBlue, modifiers: .bold)
        case .patch: Style(foreground: .magenta, modifiers: .bold)
        case .delete: Style(foreground: .red, modifiers: .bold)
        case .head: Style(foreground: .cyan, modifiers: .bold)
        case .options: Style(foreground: .brightBlack, modifiers: .bold)
        }
    }

    /// A status's colour: green for success, cyan for redirects, yellow for client errors, red for server errors.
    static func status(_ status: Int?) -> Style {
        switch status ?? 0 {
        case 200..<300: Style(foreground: .green, modifiers: .bold)
        case 300..<400: Style(foreground: .cyan, modifiers: .bold)
        case 400..<500: Style(foreground: .yellow, modifiers: .bold)
        default: Style(foreground: .red, modifiers: .bold)
        }
    }

    /// The badge for an environment type; production stands out in red.
    static func badge(_ type: EnvironmentType) -> Span {
        switch type {
        case .development: Span("dev", style: Style(foreground: .green))
        case .staging: Span("staging", style: Style(foreground: .yellow))
        case .production: Span(" PROD ", style: Style(foreground: .brightWhite, background: .red, modifiers: .bold))
        case .custom(let label): Span(label, style: Style(foreground: .brightBlue))
        }
    }

    /// The STUB / LIVE badge; live in production is red.
    static func modeBadge(_ mode: RequestMode, production: Bool) -> Span {
        switch mode {
        case .stub: Span(" STUB ", style: Style(foreground: .black, background: .yellow, modifiers: .bold))
        case .live:
            Span(" LIVE ", style: Style(foreground: production ? .brightWhite : .black, background: production ? .red : .green, modifiers: .bold))
        }
    }
}
