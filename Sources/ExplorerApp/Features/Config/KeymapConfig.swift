import Catalog
import TerminalKit
import YAMLSupport

/// `keys:` of the config file: `COMMAND: KEY` or `COMMAND: [KEY, …]` (`[]` unbinds). A command's
/// name is the one `apiexplorer explore --help` and docs/configuration.md list (`send`,
/// `showMessages`, `body.search`, `tab.edit` …); where a command is bound in several places the
/// later ones are named with their place first (`typing.moveDown`).
enum KeymapConfig {
    /// Applies the rebindings of `node` to `config.bindings`; a rebinding that is wrong, or whose
    /// key another command has where both apply, is reported and left at its default.
    static func rebind(_ node: YAMLNode, config: inout ExplorerConfig, file: String) {
        guard node.isMapping else {
            config.report(file, node.line, node.column, "keys: is a mapping of command names to keys; the default keys apply")
            return
        }
        let names = Keymap.configNames(of: config.bindings)
        var rebound: [(index: Int, node: YAMLNode, previous: KeyBinding)] = []
        for (written, keyNode, value) in node.entries {
            var name = written
            // A name an earlier version listed still works, with a word about the new one.
            if let current = Keymap.formerConfigNames[written] {
                config.report(file, keyNode.line, keyNode.column, "'\(written)' is now called '\(current)' (the old name still works)", severity: .warning)
                name = current
            }
            guard let index = names.firstIndex(of: name) else {
                config.report(file, keyNode.line, keyNode.column, "no command '\(name)' in the keymap (docs/configuration.md lists them)")
                continue
            }
            guard let keys = keys(value, name: name, config: &config, file: file) else { continue }
            let previous = config.bindings[index]
            config.bindings[index].triggers = keys.map(KeyBinding.Trigger.key)
            config.bindings[index].label = keys.isEmpty ? "(unbound)" : keys.map(\.description).joined(separator: "/")
            rebound.append((index, keyNode, previous))
        }
        // Conflicts are looked for once everything is rebound, so two commands may swap keys.
        // Each round puts back the latest rebinding in a conflict, until none is left.
        while let conflict = firstConflict(in: config.bindings, rebound: rebound.map(\.index)) {
            guard let position = rebound.lastIndex(where: { $0.index == conflict.rebound }) else { break }
            let undone = rebound.remove(at: position)
            config.bindings[undone.index] = undone.previous
            let other = config.bindings[conflict.other]
            let does = other.help.map { " (\($0))" } ?? ""
            config.report(
                file, undone.node.line, undone.node.column,
                "\(conflict.key) is already the key of \(names[conflict.other])\(does) where \(names[undone.index]) applies too; "
                    + "\(names[undone.index]) keeps its default keys (\(undone.previous.keyLabel))")
        }
    }

    /// The keys of one rebinding, or nil (reported) when one is not a key.
    private static func keys(_ node: YAMLNode, name: String, config: inout ExplorerConfig, file: String) -> [KeyEvent]? {
        let nodes: [YAMLNode]
        switch node.content {
        case .scalar: nodes = [node]
        case .sequence(let items): nodes = Array(items)
        case .mapping:
            config.report(file, node.line, node.column, "\(name): a key (`C-s`) or a list of keys (`[Enter, C-s]`)")
            return nil
        }
        var keys: [KeyEvent] = []
        for item in nodes {
            guard let text = item.scalar?.text, let key = KeyEvent(text) else {
                config.report(
                    file, item.line, item.column,
                    "'\(item.scalar?.text ?? "…")' is not a key: a character, C-x, M-x, S-Tab, Enter, Esc, Tab, Space, Backspace, Delete, arrows, Home, End, PageUp, PageDown, F1–F12; \(name) keeps its default keys")
                return nil
            }
            // A key no terminal sends would leave the command with no key at all.
            if let why = key.whyNoTerminalSendsIt {
                config.report(file, item.line, item.column, "'\(text)' is a key no terminal sends: \(why); \(name) keeps its default keys")
                return nil
            }
            keys.append(key)
        }
        return keys
    }

    /// A key two different commands have where both apply, one of them rebound by the file.
    private static func firstConflict(in bindings: [KeyBinding], rebound: [Int]) -> (key: String, rebound: Int, other: Int)? {
        for index in rebound.reversed() {
            for case .key(let key) in bindings[index].triggers {
                for other in bindings.indices where other != index && bindings[other].command != bindings[index].command {
                    guard Keymap.applyTogether(bindings[index].scope, bindings[other].scope) else { continue }
                    if bindings[other].triggers.contains(.key(key)) { return (key.description, index, other) }
                }
            }
        }
        return nil
    }
}

extension Keymap {
    /// Each binding's name in the config file, in the order of `bindings`: the command's name, with
    /// its scope first when an earlier binding has the command already.
    package static func configNames(of bindings: [KeyBinding]) -> [String] {
        var seen: Set<String> = []
        return bindings.map { binding in
            let name = configName(of: binding.command)
            return seen.insert(name).inserted ? name : configName(of: binding.scope) + "." + name
        }
    }

    /// A command's name in the config file: its own name, with the tab's first for a tab's keys
    /// (`body.search`, `editor.undo`, `tests.nextStep`, `tab.vars`) and `typing.` for the line editor's.
    package static func configName(of command: Command) -> String {
        switch command {
        case .exchanges(let command): "\(command)"
        case .navigation(let command): "\(command)"
        case .finder(let command): "\(command)"
        case .response(.showTab(let tab)): "tab." + tab.title.lowercased()
        case .response(let command): "\(command)"
        case .panes(let command): "\(command)"
        case .overlays(let command): "\(command)"
        case .messages(let command): "\(command)"
        case .history(let command): "\(command)"
        case .auth(let command): "\(command)"
        case .checks(let command): command.isTabKey ? "tests.\(command)" : "\(command)"
        case .scratch(let command): "\(command)"
        case .webSocket(let command): "\(command)"
        case .editing(let command): "\(command)"
        case .body(let command): "body.\(command)"
        case .editor(let command): "editor.\(command)"
        case .variables(let command): "vars.\(command)"
        case .edit(.insert): "typing.insert"
        case .edit(let edit): "typing.\(edit)"
        default: "\(command)"
        }
    }

    /// A scope's name in the config file.
    package static func configName(of scope: KeyScope) -> String { "\(scope)" }

    /// Names earlier versions gave commands, and the names they have now: a config file written
    /// then keeps working (with a warning).
    static let formerConfigNames: [String: String] = [
        "navigation(ExplorerApp.NavigationCommand.fold)": "fold",
        "navigation(ExplorerApp.NavigationCommand.unfold)": "unfold",
        "navigation(ExplorerApp.NavigationCommand.toggleRowStyle)": "toggleRowStyle",
    ]

    /// Whether a key looked up in one scope may be found in the other first (or instead): they
    /// are consulted together and neither is meant to win. A tab's own keys win over the panes'
    /// on purpose, so those pairs are not a conflict.
    static func applyTogether(_ one: KeyScope, _ other: KeyScope) -> Bool {
        if one == other { return true }
        let pair: Set<KeyScope> = [one, other]
        let contexts: [KeyContext] = [.panes(nil), .window, .question, .typing]
        return contexts.contains { pair.isSubset(of: Set($0.scopes)) }
    }
}
