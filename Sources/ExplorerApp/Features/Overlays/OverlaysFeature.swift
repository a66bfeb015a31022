import Catalog
import TerminalKit

/// The window over the panes, which this slice alone sets: a feature asks for its own window with
/// `AppShell.present` and `dismiss`, gets the window's keys and answers as its own actions, and
/// reads the window shown from the shell. The slice's own windows are help, the catalog's
/// problems and the message log, which it scrolls.
package struct OverlaysState: Sendable {
    /// The window shown, if any.
    package fileprivate(set) var window: Dialog?
}

/// What happens to the window over the panes.
package enum OverlaysAction: Sendable {
    /// A feature asked for a window (replacing the one shown).
    case present(Dialog)
    /// The window closes.
    case dismiss
    /// A key while one of the slice's own windows is open.
    case key(Command)
    /// A key of the panes that opens one of them.
    case command(OverlaysCommand)
}

enum OverlaysFeature: AppFeature {
    /// What the windows read of the rest of the app.
    struct Context {
        /// How far the window shown may scroll.
        var maximumScroll: Int
        /// Rows a page key moves by.
        var pageHeight: Int
        /// Whether the catalogs have problems to list, and where they come from.
        var hasDiagnostics: Bool
        var catalogPath: String
    }

    static func context(of app: AppState) -> Context {
        Context(
            maximumScroll: app.overlay.map { OverlayText.maximumScroll($0, state: app) } ?? 0, pageHeight: app.pageHeight,
            hasDiagnostics: !app.catalog.diagnostics.isEmpty, catalogPath: app.catalog.source.displayPath)
    }

    static func reduce(_ state: inout OverlaysState, _ action: OverlaysAction, _ shell: inout AppShell, _ context: Context) -> [AppEffect] {
        switch action {
        case .present(let dialog):
            state.window = dialog
        case .dismiss:
            state.window = nil
        case .command(.help):
            state.window = .help(scroll: 0)
        case .command(.showDiagnostics):
            if context.hasDiagnostics {
                state.window = .diagnostics(scroll: 0)
            } else {
                shell.notice = "The catalog has no problems (\(context.catalogPath))."
            }
        case .key(let command):
            scroll(command, state: &state, context)
        }
        return []
    }

    /// A key in the help, diagnostics or message window: it scrolls, or closes.
    static func scroll(_ command: Command, state: inout OverlaysState, _ context: Context) {
        guard let window = state.window else { return }
        if command == .close {
            state.window = nil
            return
        }
        let scroll: Int
        switch window {
        case .help(let value), .diagnostics(let value), .messages(let value): scroll = value
        default: return
        }
        var newScroll = scroll
        switch command {
        case .moveDown: newScroll += 1
        case .moveUp: newScroll = max(0, scroll - 1)
        case .pageDown: newScroll += context.pageHeight
        case .pageUp: newScroll = max(0, scroll - context.pageHeight)
        case .moveToTop: newScroll = 0
        case .moveToBottom: newScroll = .max
        default: return
        }
        newScroll = min(newScroll, context.maximumScroll)
        switch window {
        case .help: state.window = .help(scroll: newScroll)
        case .messages: state.window = .messages(scroll: newScroll)
        default: state.window = .diagnostics(scroll: newScroll)
        }
    }

    /// What a key does in a window that lists `count` items.
    enum ListKey {
        /// The cursor moved (a line, or to an end).
        case moved(ListState)
        /// Enter on the item at this index.
        case chosen(Int)
        /// The window closes.
        case closed
        /// Nothing.
        case ignored
    }

    /// What `command` does in a window that lists `count` items with `list`'s cursor.
    static func listKey(_ command: Command, _ list: ListState, count: Int) -> ListKey {
        var list = list
        switch command {
        case .moveDown: list.selectNext(itemCount: count)
        case .moveUp: list.selectPrevious(itemCount: count)
        case .moveToTop: list.selectFirst(itemCount: count)
        case .moveToBottom: list.selectLast(itemCount: count)
        case .choose:
            guard let selected = list.selected, (0..<count).contains(selected) else { return .closed }
            return .chosen(selected)
        case .close: return .closed
        default: return .ignored
        }
        return .moved(list)
    }
}

extension AppState {
    /// The window over the panes, if any (kept by the Overlays slice).
    package var overlay: Dialog? { overlays.window }
}
