import Catalog
import TerminalKit
import YAMLSupport

/// The person's own settings, from `$XDG_CONFIG_HOME/apiexplorer/config.yaml`: keys rebound and a
/// theme (docs/configuration.md). What is wrong in the file is reported with its line and column
/// and left at its default; the rest applies.
package struct ExplorerConfig: Sendable, Hashable {
    /// The keymap in effect: the defaults with the file's rebindings.
    package var bindings: [KeyBinding] = Keymap.bindings {
        didSet { keyNames = KeyNameMemo() }
    }
    /// The key names texts have looked up in this keymap.
    private(set) var keyNames = KeyNameMemo()
    /// The theme in effect.
    package var theme: ThemePalette = .dark
    /// What was wrong in the file (with file:line:column), in the order found.
    package var diagnostics: [Diagnostic] = []

    /// The defaults: no file, or an empty one.
    package static let defaults = ExplorerConfig()

    /// Makes the defaults.
    package init() {}

    /// Reads a config file's text; `file` names it in diagnostics.
    package static func parse(_ text: String, file: String) -> ExplorerConfig {
        var config = ExplorerConfig()
        let root: YAMLNode
        do throws(YAMLSyntaxError) {
            let composition = try YAMLComposer.compose(text)
            for duplicate in composition.duplicates {
                config.report(file, duplicate.line, duplicate.column, duplicate.message)
            }
            guard let document = composition.root else { return config }
            root = document
        } catch {
            config.report(file, error.line, error.column, "\(error.message); the defaults apply")
            return config
        }
        if case .scalar(let scalar) = root.content, scalar.text.isEmpty { return config }
        guard root.isMapping else {
            config.report(file, root.line, root.column, "the config is a mapping (keys:, theme:, themes:); the defaults apply")
            return config
        }
        var themes: [String: ThemePalette] = Dictionary(uniqueKeysWithValues: ThemePalette.builtIn.map { ($0.name, $0) })
        if let defined = root.value("themes") {
            ThemeConfig.define(defined, into: &themes, config: &config, file: file)
        }
        for (key, keyNode, value) in root.entries {
            switch key {
            case "keys":
                KeymapConfig.rebind(value, config: &config, file: file)
            case "theme":
                guard let name = value.scalar?.text, let theme = themes[name] else {
                    let names = themes.keys.sorted().joined(separator: ", ")
                    config.report(file, value.line, value.column, "no theme '\(value.scalar?.text ?? "")': one of \(names); the dark theme applies")
                    continue
                }
                config.theme = theme
            case "themes":
                break
            default:
                config.report(file, keyNode.line, keyNode.column, "unknown key '\(key)': the config has keys:, theme: and themes:", severity: .warning)
            }
        }
        return config
    }

    /// Notes a problem of the file.
    mutating func report(_ file: String, _ line: Int, _ column: Int, _ message: String, severity: Diagnostic.Severity = .error) {
        diagnostics.append(Diagnostic(file: file, line: line, column: column, severity: severity, message: message))
    }

    /// Where the config file is: `$XDG_CONFIG_HOME/apiexplorer/config.yaml`, or
    /// `$HOME/.config/apiexplorer/config.yaml` when `XDG_CONFIG_HOME` is unset, empty or not
    /// absolute (as the XDG Base Directory specification says); nil without either.
    package static func path(environment: [String: String]) -> String? {
        if let home = environment["XDG_CONFIG_HOME"], home.hasPrefix("/") { return home + "/apiexplorer/config.yaml" }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return (home.hasSuffix("/") ? String(home.dropLast()) : home) + "/.config/apiexplorer/config.yaml"
    }
}
