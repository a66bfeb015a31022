import Catalog
import BodyViewer
import DispatcherCore
import TerminalKit

/// A theme: the explorer's styles by role. `dark` is the default; `light` and `high-contrast`
/// are built in, and the config file may pick one or define its own on top of one
/// (docs/configuration.md).
package struct ThemePalette: Sendable, Hashable {
    /// Its name in the config file.
    package var name: String
    /// Pane borders without focus, and the focused pane's.
    package var border, focusedBorder: Style
    /// Pane titles without focus, and the focused pane's: highlighted, not only coloured.
    package var title, focusedTitle: Style
    /// Quiet text, headings, the row under a list's cursor, key names in hints.
    package var dim, heading, highlight, key: Style
    /// The status bar's notice, errors, masked secrets, where a value comes from.
    package var notice, error, secretMask, origin: Style
    /// The status bar's row, the body line under the cursor, an input line's prompt.
    package var statusBar, bodyCursorLine, prompt: Style
    /// JSON in the Body tab.
    package var jsonKey, jsonString, jsonNumber, jsonBool, jsonNull: Style
    /// Search matches in the Body tab.
    package var match, currentMatch: Style

    /// The default: light text on a dark background.
    package static let dark = ThemePalette(
        name: "dark",
        border: Style(foreground: .brightBlack), focusedBorder: Style(foreground: .cyan, modifiers: .bold),
        title: Style(modifiers: .bold), focusedTitle: Style(foreground: .cyan, modifiers: [.bold, .reverse]),
        dim: Style(modifiers: .dim), heading: Style(modifiers: .bold), highlight: Style(modifiers: .reverse),
        key: Style(foreground: .cyan, modifiers: .bold),
        notice: Style(foreground: .yellow), error: Style(foreground: .red, modifiers: .bold), secretMask: Style(foreground: .magenta),
        origin: Style(foreground: .brightBlack),
        statusBar: Style(background: .indexed(236)), bodyCursorLine: Style(background: .indexed(237)),
        prompt: Style(foreground: .cyan, modifiers: .bold),
        jsonKey: Style(foreground: .brightBlue, modifiers: .bold), jsonString: Style(foreground: .green), jsonNumber: Style(foreground: .cyan),
        jsonBool: Style(foreground: .yellow), jsonNull: Style(foreground: .magenta),
        match: Style(foreground: .black, background: .yellow), currentMatch: Style(foreground: .black, background: .brightMagenta, modifiers: .bold))

    /// Dark text on a light background: no yellow or bright text, light greys for the bars.
    package static let light: ThemePalette = {
        var theme = dark
        theme.name = "light"
        theme.border = Style(foreground: .blue)
        theme.focusedBorder = Style(foreground: .magenta, modifiers: .bold)
        theme.focusedTitle = Style(foreground: .magenta, modifiers: [.bold, .reverse])
        theme.key = Style(foreground: .blue, modifiers: .bold)
        theme.notice = Style(foreground: .magenta)
        theme.origin = Style(foreground: .blue)
        theme.statusBar = Style(background: .indexed(253))
        theme.bodyCursorLine = Style(background: .indexed(254))
        theme.prompt = Style(foreground: .blue, modifiers: .bold)
        theme.jsonKey = Style(foreground: .blue, modifiers: .bold)
        theme.jsonNumber = Style(foreground: .magenta)
        theme.jsonBool = Style(foreground: .red)
        theme.jsonNull = Style(foreground: .magenta, modifiers: .italic)
        return theme
    }()

    /// The most contrast: no dim text, white borders, bright keys, reverse video for the bars.
    package static let highContrast: ThemePalette = {
        var theme = dark
        theme.name = "high-contrast"
        theme.border = Style(foreground: .brightWhite)
        theme.focusedBorder = Style(foreground: .brightYellow, modifiers: .bold)
        theme.title = Style(foreground: .brightWhite, modifiers: .bold)
        theme.focusedTitle = Style(foreground: .black, background: .brightYellow, modifiers: .bold)
        theme.dim = .plain
        theme.key = Style(foreground: .brightCyan, modifiers: [.bold, .underline])
        theme.notice = Style(foreground: .brightYellow, modifiers: .bold)
        theme.error = Style(foreground: .brightRed, modifiers: [.bold, .underline])
        theme.origin = Style(foreground: .brightWhite)
        theme.statusBar = Style(modifiers: .reverse)
        theme.bodyCursorLine = Style(modifiers: .underline)
        return theme
    }()

    /// The themes built in, by name.
    package static let builtIn: [ThemePalette] = [dark, light, highContrast]
}

/// The explorer's colours and styles, in one place: the theme's, read while a frame is drawn.
package enum Theme {
    /// The theme frames are drawn with (`AppView.render` sets the state's for the frame).
    @TaskLocal package static var palette = ThemePalette.dark

    static var border: Style { palette.border }
    static var focusedBorder: Style { palette.focusedBorder }
    static var title: Style { palette.title }
    static var focusedTitle: Style { palette.focusedTitle }
    static var dim: Style { palette.dim }
    static var heading: Style { palette.heading }
    static var highlight: Style { palette.highlight }
    static var key: Style { palette.key }
    static var notice: Style { palette.notice }
    static var error: Style { palette.error }
    static var secretMask: Style { palette.secretMask }
    static var origin: Style { palette.origin }
    static var statusBar: Style { palette.statusBar }
    /// The body line under the cursor, while the response pane has focus.
    static var bodyCursorLine: Style { palette.bodyCursorLine }
    /// The Body tab's input line prompt.
    static var prompt: Style { palette.prompt }

    /// Body text by what it is: jq-like colours for JSON, a quiet gutter, loud matches.
    static func body(_ role: BodyTextRole) -> Style {
        switch role {
        case .plain: .plain
        case .key: palette.jsonKey
        case .string: palette.jsonString
        case .number: palette.jsonNumber
        case .bool: palette.jsonBool
        case .null: palette.jsonNull
        case .punctuation: .plain
        case .lineNumber: palette.origin
        case .foldSummary: Style(foreground: .magenta, modifiers: .dim)
        case .match: palette.match
        case .currentMatch: palette.currentMatch
        case .hexOffset: palette.origin
        case .hexByte: .plain
        case .hexASCII: palette.jsonNumber
        case .notice: palette.notice
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
