import TerminalKit

/// What a key does: the app's own commands (the panes' focus, moving, secrets, quitting) and those
/// of windows, questions and typing, and one case per feature for its own type in its folder
/// (`Features/<Name>/<Name>Keys.swift`). Bindings are data, so the help screen, README's key
/// table and `explore --help` are all generated from them.
package enum Command: Sendable, Hashable {
    case focusNext, focusPrevious
    case moveUp, moveDown, pageUp, pageDown, moveToTop, moveToBottom
    /// Show secrets in clear, or mask them again.
    case revealSecrets
    case quit
    /// In a window: send the example or history entry under the cursor.
    case choose
    /// Close the window.
    case close
    /// Answer yes to a question (send to production, overwrite a file).
    case confirm
    /// Answer no.
    case decline
    /// While typing: accept the text (filter, search, query, file name).
    case accept
    /// While typing in the Edit or Vars tab: accept the text and send the request at once.
    case acceptAndSend
    /// While typing a WebSocket message: the endpoint's next named message; a question: the next choice.
    case nextNamedMessage
    /// While typing: drop the text.
    case cancelInput
    /// While typing: edit the text.
    case edit(InputEdit)
    // Features (Features/): one case each, declared in the feature's folder.
    /// Sending requests: send, resend, cancel, the mode, examples, copying, downloading.
    case exchanges(ExchangesCommand)
    /// The environments, the filter and the endpoint tree.
    case navigation(NavigationCommand)
    /// The finder and the command palette.
    case finder(FinderCommand)
    /// The response pane's tabs.
    case response(ResponseCommand)
    /// The panes' sizes.
    case panes(PanesCommand)
    /// Help and the catalog's problems.
    case overlays(OverlaysCommand)
    /// The message log.
    case messages(MessagesCommand)
    /// The request history.
    case history(HistoryCommand)
    /// Cookies and tokens.
    case auth(AuthCommand)
    /// Flows and the Tests tab.
    case checks(ChecksCommand)
    /// Scratch requests.
    case scratch(ScratchCommand)
    /// WebSocket conversations.
    case webSocket(WebSocketCommand)
    /// Keeping edits, and editing from anywhere.
    case editing(EditingCommand)
    /// The Edit tab.
    case editor(EditorCommand)
    /// The Vars tab.
    case variables(VariablesCommand)
    /// The Body tab.
    case body(BodyCommand)
}

/// Where a binding applies; also the help's sections, in this order.
package enum KeyScope: String, Sendable, Hashable, CaseIterable {
    /// Moving in a list, a text tab, a body or a window.
    case moving = "Move"
    /// The panes: requests.
    case requests = "Requests"
    /// The panes: the response pane's tabs.
    case response = "Response"
    /// The panes: their sizes.
    case panes = "Panes"
    /// The panes: everything else.
    case other = "Other"
    /// The response pane on the Body tab (these win over the panes' keys there).
    case bodyTab = "Body tab (response pane)"
    /// The response pane on the Edit tab.
    case editTab = "Edit tab (whatever pane has focus): change the next requests"
    /// The response pane on the Vars tab.
    case variablesTab = "Vars tab (whatever pane has focus): placeholders and their values"
    /// The response pane on the Tests tab.
    case checksTab = "Tests tab (whatever pane has focus): expect: checks and the last flow run"
    /// A window over the panes: examples, history, help, diagnostics.
    case windows = "Windows (examples, history, help, problems)"
    /// A question: send to production, replace a file.
    case questions = "Questions (production send, file replace)"
    /// Typing: the filter, a search, a query, jq, a file name.
    case typing = "Typing (filter, search, query, jq, file name)"
    /// Every screen.
    case anywhere = "Anywhere"
}

/// What the keyboard is doing: which scopes a key is looked up in, in order.
package enum KeyContext: Sendable, Hashable {
    /// The panes, with the own keys of the tab shown (its scope), when it has any.
    case panes(KeyScope?)
    /// A window is open.
    case window
    /// A question waits for y or n.
    case question
    /// Text is being typed (the endpoint filter, an input line of the Body, Edit or Vars tab).
    case typing

    /// The scopes consulted, first match wins.
    var scopes: [KeyScope] {
        switch self {
        case .panes(let tab): return [.anywhere] + (tab.map { [$0] } ?? []) + [.requests, .response, .panes, .other, .moving]
        case .window: return [.anywhere, .windows, .moving]
        case .question: return [.anywhere, .questions]
        case .typing: return [.anywhere, .typing]
        }
    }
}

/// Keys bound to a command, with the words help shows.
package struct KeyBinding: Sendable, Hashable {
    /// What triggers a binding.
    package enum Trigger: Sendable, Hashable {
        /// This key.
        case key(KeyEvent)
        /// Any character typed without Ctrl or Alt (it is inserted while typing).
        case anyCharacter
    }

    /// The keys, the first one shown in help.
    package var triggers: [Trigger]
    /// What they do.
    package var command: Command
    /// Where it applies.
    package var scope: KeyScope
    /// How help names the keys (`j/↓`, `1–5`), when not simply the first key.
    package var label: String?
    /// What help says the command does; nil for a binding another one's line already covers.
    package var help: String?

    /// Makes a binding of keys.
    package init(_ keys: [KeyEvent], _ command: Command, _ scope: KeyScope, label: String? = nil, help: String?) {
        self.init(triggers: keys.map(Trigger.key), command, scope, label: label, help: help)
    }

    /// Makes a binding of keys named as help names them, space-separated (`"Enter C-s"`).
    init(_ keys: String, _ command: Command, _ scope: KeyScope, label: String? = nil, help: String?) {
        self.init(Keymap.keys(keys), command, scope, label: label, help: help)
    }

    /// Makes a binding of triggers.
    package init(triggers: [Trigger], _ command: Command, _ scope: KeyScope, label: String? = nil, help: String?) {
        self.triggers = triggers
        self.command = command
        self.scope = scope
        self.label = label
        self.help = help
    }

    /// The keys as help shows them.
    package var keyLabel: String {
        if let label { return label }
        switch triggers.first {
        case .key(let event)?: return event.description
        case .anyCharacter?: return "characters"
        case nil: return ""
        }
    }

    /// The command `event` triggers through this binding, if it does.
    func command(for event: KeyEvent) -> Command? {
        for trigger in triggers {
            switch trigger {
            case .key(let key) where key == event:
                return command
            case .anyCharacter:
                guard case .character(let character) = event.key, event.modifiers.isEmpty || event.modifiers == .shift else { continue }
                return .edit(.insert(String(character)))
            default:
                continue
            }
        }
        return nil
    }
}

/// The explorer's key bindings: every key the app reacts to. Each feature declares its own in its
/// folder; this list only puts them together, in the order help lists them (by scope, then as here).
package enum Keymap {
    /// Every binding, in the order help lists them within a scope.
    package static let bindings: [KeyBinding] =
        moving
        // Requests
        + focus + ExchangesFeature.sendKeys + WebSocketFeature.keys + ExchangesFeature.modeKeys + NavigationFeature.environmentKeys
        + ExchangesFeature.exampleKeys + NavigationFeature.filterKeys + FinderFeature.keys + NavigationFeature.treeKeys + ScratchFeature.keys
        + EditingFeature.keys
        // Response, Panes, Other
        + ResponseFeature.keys + secrets + PanesFeature.keys
        + OverlaysFeature.diagnosticsKeys + MessagesFeature.keys + HistoryFeature.keys + AuthFeature.keys + ChecksFeature.runKeys
        + OverlaysFeature.helpKeys + quitting
        // The tabs' own
        + BodyFeature.keys + EditingFeature.editTabKeys + EditingFeature.variablesTabKeys + ChecksFeature.tabKeys
        // Windows, questions, typing
        + windows + questions + typing + anywhere

    /// Key names as help writes them, space-separated (`"Enter C-s"`).
    static func keys(_ names: String) -> [KeyEvent] {
        names.split(separator: " ").map { name in
            guard let event = KeyEvent(String(name)) else { preconditionFailure("bad key name in the keymap: \(name)") }
            return event
        }
    }

    static let moving: [KeyBinding] = [
        KeyBinding("j Down", .moveDown, .moving, label: "j/↓", help: "down"),
        KeyBinding("k Up", .moveUp, .moving, label: "k/↑", help: "up"),
        KeyBinding("PageDown C-d", .pageDown, .moving, label: "PgDn/C-d", help: "page down"),
        KeyBinding("PageUp C-u", .pageUp, .moving, label: "PgUp/C-u", help: "page up"),
        KeyBinding("g Home", .moveToTop, .moving, label: "g/Home", help: "first"),
        KeyBinding("G End", .moveToBottom, .moving, label: "G/End", help: "last"),
    ]

    static let focus: [KeyBinding] = [
        KeyBinding("Tab", .focusNext, .requests, help: "next pane"),
        KeyBinding("S-Tab", .focusPrevious, .requests, help: "previous pane"),
    ]

    static let secrets: [KeyBinding] = [
        KeyBinding("v", .revealSecrets, .response, help: "reveal / mask secrets (Authorization, cookies, API keys, tokens)")
    ]

    static let quitting: [KeyBinding] = [KeyBinding("q", .quit, .other, help: "quit")]

    static let windows: [KeyBinding] =
        [KeyBinding("Enter", .choose, .windows, help: "send the example or history entry under the cursor; run the flow")]
        + AuthFeature.windowKeys + [
            KeyBinding("v", .revealSecrets, .windows, help: "cookies, tokens: reveal / mask the values"),
            KeyBinding("Esc q x H ? D M", .close, .windows, label: "Esc/q", help: "close (so does the key that opened it)"),
        ]

    static let questions: [KeyBinding] = [
        KeyBinding("y Y Enter", .confirm, .questions, label: "y/Enter", help: "yes: send, or replace the file"),
        KeyBinding("n N Esc q", .decline, .questions, label: "n/Esc", help: "no"),
    ]

    static let typing: [KeyBinding] = [
        KeyBinding("Enter", .accept, .typing, help: "accept"),
        KeyBinding("C-s", .acceptAndSend, .typing, help: "Edit and Vars tabs: accept and send at once"),
        KeyBinding("Tab", .nextNamedMessage, .typing, help: "a WebSocket message: the next named one; a request's question: the next choice"),
        KeyBinding("Esc", .cancelInput, .typing, help: "cancel (a filter or search is cleared)"),
        KeyBinding("Left C-b", .edit(.moveLeft), .typing, label: "←/C-b", help: "character left"),
        KeyBinding("Right C-f", .edit(.moveRight), .typing, label: "→/C-f", help: "character right"),
        KeyBinding("C-Left M-Left M-b", .edit(.moveWordLeft), .typing, label: "C-←/M-b", help: "word left"),
        KeyBinding("C-Right M-Right M-f", .edit(.moveWordRight), .typing, label: "C-→/M-f", help: "word right"),
        KeyBinding("Home C-a", .edit(.moveHome), .typing, label: "Home/C-a", help: "start"),
        KeyBinding("End C-e", .edit(.moveEnd), .typing, label: "End/C-e", help: "end"),
        KeyBinding("Backspace", .edit(.backspace), .typing, label: "Backspace", help: "delete the character before the cursor"),
        KeyBinding("Delete C-d", .edit(.deleteForward), .typing, label: "Delete/C-d", help: "delete the character under the cursor"),
        KeyBinding("C-w M-Backspace", .edit(.deleteWordBackward), .typing, label: "C-w", help: "delete the word before the cursor"),
        KeyBinding("C-u", .edit(.killToStart), .typing, help: "delete to the start"),
        KeyBinding("C-k", .edit(.killToEnd), .typing, help: "delete to the end"),
        KeyBinding("Down", .moveDown, .typing, label: "↓/↑", help: "move in the endpoint list while filtering; pick a request's question's choice"),
        KeyBinding("Up", .moveUp, .typing, help: nil),
        KeyBinding(triggers: [.anyCharacter], .edit(.insert("")), .typing, label: "characters", help: "typed at the cursor"),
    ]

    static let anywhere: [KeyBinding] = [
        KeyBinding("C-c", .quit, .anywhere, help: "quit at once (the terminal is restored on q, Ctrl-C, SIGINT, SIGTERM and SIGHUP)")
    ]

    /// The command `event` triggers in `context`, if any: the first binding of the first scope that has one.
    package static func command(for event: KeyEvent, in context: KeyContext, bindings: [KeyBinding] = bindings) -> Command? {
        for scope in context.scopes {
            for binding in bindings where binding.scope == scope {
                if let command = binding.command(for: event) { return command }
            }
        }
        return nil
    }

    /// The bindings help lists (those with help text), by scope, in order.
    package static var sections: [(scope: KeyScope, bindings: [KeyBinding])] { sections(of: bindings) }

    /// The bindings of a keymap (the defaults, or the config file's) help lists, by scope, in order.
    package static func sections(of bindings: [KeyBinding]) -> [(scope: KeyScope, bindings: [KeyBinding])] {
        KeyScope.allCases.compactMap { scope in
            let listed = bindings.filter { $0.scope == scope && $0.help != nil }
            return listed.isEmpty ? nil : (scope, listed)
        }
    }
}
