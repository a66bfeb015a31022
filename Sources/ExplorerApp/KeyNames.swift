import Synchronization
import TerminalKit

/// The keys in effect as the explorer's texts name them: the key that does a command where the
/// keyboard is now, from the config file's keymap, so a hint never names a key that was moved.
struct KeyNames: Sendable {
    /// The keymap in effect.
    let bindings: [KeyBinding]
    /// Where the keyboard is.
    let context: KeyContext
    /// What was looked up already in this keymap.
    let memo: KeyNameMemo
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
        memo.key(for: command, in: context) {
            for binding in bindings where binding.command == command {
                for case .key(let key) in binding.triggers where Keymap.command(for: key, in: context, bindings: bindings) == command {
                    return key
                }
            }
            return nil
        }
    }
}

/// Key names looked up already for one keymap: the status bar names seven keys on every frame,
/// and each lookup walks the keymap (a launch counted 3.5 M instructions for them without it).
final class KeyNameMemo: Sendable, Hashable {
    private struct Query: Hashable {
        var command: Command
        var context: KeyContext
    }

    private let found = Mutex<[Query: KeyEvent?]>([:])

    init() {}

    /// The key `look` finds for `command` in `context`, looked up once.
    func key(for command: Command, in context: KeyContext, look: () -> KeyEvent?) -> KeyEvent? {
        let query = Query(command: command, context: context)
        if let known = found.withLock({ $0[query] }) { return known }
        let key = look()
        found.withLock { $0[query] = key }
        return key
    }

    // A memo holds nothing a keymap differs by: every two are equal.
    static func == (left: KeyNameMemo, right: KeyNameMemo) -> Bool { true }
    func hash(into hasher: inout Hasher) {}
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
    var keys: KeyNames { KeyNames(bindings: config.bindings, context: keyContext, memo: config.keyNames, panes: panesKeyContext) }
}
