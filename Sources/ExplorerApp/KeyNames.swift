import TerminalKit

/// The keys in effect as the explorer's texts name them: the key that does a command where the
/// keyboard is now, from the config file's keymap, so a hint never names a key that was moved.
struct KeyNames: Sendable {
    /// The keymap in effect.
    let bindings: [KeyBinding]
    /// Where the keyboard is.
    let context: KeyContext
    /// Where it is once the text typed is accepted or the window closed (C-s accepts a row of the
    /// Edit tab and sends: send's key while typing there is the panes').
    let panes: KeyContext

    /// The key that does `command` here, as help writes it (`Enter`, `C-s`, `x`); "(unbound)" when
    /// the keymap gives it none.
    func callAsFunction(_ command: Command) -> String {
        key(command).map(\.description) ?? "(unbound)"
    }

    /// The key that does `command` here: the first of its keys no binding found before it takes
    /// (on the Edit tab Enter changes a row, so C-s is send's key there); where none does, the
    /// one that does in the panes, else its first key.
    func key(_ command: Command) -> KeyEvent? {
        key(command, in: context) ?? key(command, in: panes) ?? bindings.lazy.filter { $0.command == command }.compactMap(\.firstKey).first
    }

    private func key(_ command: Command, in context: KeyContext) -> KeyEvent? {
        for binding in bindings where binding.command == command {
            for case .key(let key) in binding.triggers where Keymap.command(for: key, in: context, bindings: bindings) == command {
                return key
            }
        }
        return nil
    }
}

extension KeyBinding {
    /// Its first key (nil for typing's any character, or none).
    var firstKey: KeyEvent? {
        for case .key(let key) in triggers { return key }
        return nil
    }
}

extension AppState {
    /// The keys in effect where the keyboard is now.
    var keys: KeyNames { KeyNames(bindings: config.bindings, context: keyContext, panes: panesKeyContext) }
}
