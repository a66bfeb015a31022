import Catalog
import TerminalKit
import YAMLSupport

/// `themes:` of the config file: `NAME: {base: THEME, ROLE: STYLE, …}`, a theme made of another
/// with some roles restyled. A style is words: a colour for the text, `on COLOUR` for the
/// background, and `bold`, `dim`, `italic`, `underline`, `reverse`; a colour is a name (`red`,
/// `bright-black`, `default`) or a number 0–255.
enum ThemeConfig {
    /// The roles a theme styles, by their name in the config file.
    static var roles: [(name: String, path: WritableKeyPath<ThemePalette, Style>)] { [
        ("border", \.border), ("focusedBorder", \.focusedBorder), ("title", \.title), ("focusedTitle", \.focusedTitle),
        ("dim", \.dim), ("heading", \.heading), ("highlight", \.highlight), ("key", \.key), ("notice", \.notice), ("error", \.error),
        ("secretMask", \.secretMask), ("origin", \.origin), ("statusBar", \.statusBar), ("bodyCursorLine", \.bodyCursorLine),
        ("prompt", \.prompt), ("jsonKey", \.jsonKey), ("jsonString", \.jsonString), ("jsonNumber", \.jsonNumber), ("jsonBool", \.jsonBool),
        ("jsonNull", \.jsonNull), ("match", \.match), ("currentMatch", \.currentMatch),
    ] }

    /// Adds the themes `node` defines to `themes` (in order: a theme may be based on one above it).
    static func define(_ node: YAMLNode, into themes: inout [String: ThemePalette], config: inout ExplorerConfig, file: String) {
        guard node.isMapping else {
            config.report(file, node.line, node.column, "themes: is a mapping of theme names to their styles")
            return
        }
        for (name, _, definition) in node.entries {
            guard definition.isMapping else {
                config.report(file, definition.line, definition.column, "theme '\(name)': a mapping of roles to styles (base: dark, key: yellow bold …)")
                continue
            }
            var theme = ThemePalette.dark
            if let base = definition.entry("base") {
                if let text = base.value.scalar?.text, let found = themes[text] {
                    theme = found
                } else {
                    config.report(file, base.value.line, base.value.column, "no theme '\(base.value.scalar?.text ?? "")' to base '\(name)' on; dark is used")
                }
            }
            theme.name = name
            for (role, roleNode, value) in definition.entries where role != "base" {
                guard let path = roles.first(where: { $0.name == role })?.path else {
                    config.report(
                        file, roleNode.line, roleNode.column,
                        "unknown role '\(role)': one of base, \(roles.map(\.name).joined(separator: ", "))", severity: .warning)
                    continue
                }
                switch style(value.scalar?.text ?? "") {
                case .success(let style): theme[keyPath: path] = style
                case .failure(let problem): config.report(file, value.line, value.column, "\(role): \(problem.message); the base theme's style applies")
                }
            }
            themes[name] = theme
        }
    }

    /// Why a style could not be read.
    struct StyleProblem: Error {
        var message: String
    }

    /// Reads a style: `yellow bold`, `black on yellow`, `on 236`, `reverse`.
    static func style(_ text: String) -> Result<Style, StyleProblem> {
        var style = Style()
        var words = text.split(separator: " ").map { $0.lowercased() }[...]
        guard !words.isEmpty else { return .failure(StyleProblem(message: "an empty style (write `default` for the terminal's own)")) }
        var sawForeground = false
        while let word = words.popFirst() {
            if let modifier = modifiers[word] {
                style.modifiers.insert(modifier)
            } else if word == "on" {
                guard let name = words.popFirst(), let colour = colour(name) else {
                    return .failure(StyleProblem(message: "`on` needs a colour after it"))
                }
                style.background = colour
            } else if let colour = colour(word), !sawForeground {
                style.foreground = colour
                sawForeground = true
            } else {
                return .failure(StyleProblem(message: "'\(word)' is not a colour (red, bright-blue, 0–255, default) or bold, dim, italic, underline, reverse"))
            }
        }
        return .success(style)
    }

    private static let modifiers: [String: Modifiers] = ["bold": .bold, "dim": .dim, "italic": .italic, "underline": .underline, "reverse": .reverse]

    private static let colourNames = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"]

    /// A colour by name or number.
    static func colour(_ word: String) -> Color? {
        if word == "default" { return .default }
        if let number = Int(word), (0...255).contains(number) { return .indexed(UInt8(number)) }
        let bright = word.hasPrefix("bright-")
        guard let index = colourNames.firstIndex(of: bright ? String(word.dropFirst(7)) : word) else { return nil }
        return .indexed(UInt8(index + (bright ? 8 : 0)))
    }
}
