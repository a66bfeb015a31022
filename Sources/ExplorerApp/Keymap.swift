import TerminalKit

/// What a key does. Bindings are data, so the help screen, README's key table and `explore --help`
/// are all generated from them.
package enum Command: Sendable, Hashable {
    case focusNext, focusPrevious
    case moveUp, moveDown, pageUp, pageDown, moveToTop, moveToBottom
    case send, resend, cancelOrClose
    case toggleMode, nextEnvironment, previousEnvironment
    case pickExample, showTab(ResponseTab), nextTab, previousTab
    case filter, copyCurl, revealSecrets, showDiagnostics, showHistory
    /// Copy the last request as code: a window of formats.
    case copyAs
    /// A scratch request: `METHOD URL` or a curl command, typed or pasted.
    case newRequest
    /// Keep the selected request in a catalog file: its edits, or a scratch request as a new endpoint.
    case saveRequest
    /// Send the selected endpoint with its body written to a file as it arrives (a download).
    case download
    /// The environment's tokens (OAuth 2.0, refreshed), JWT claims decoded; sign out from there.
    case showTokens
    /// The environment's cookie jar, values masked; clear it from there.
    case showCookies
    /// Type a message for the selected endpoint's open WebSocket (its named messages a Tab away).
    case sendMessage
    /// While typing a WebSocket message: the endpoint's next named message.
    case nextNamedMessage
    /// Every notice and error of this run, in full.
    case showMessages
    case help, quit
    case body(BodyCommand)
    case editor(EditorCommand)
    case variables(VariablesCommand)
    /// The finder: any endpoint of any service, by a part of its id, title, path, method or group.
    case findEndpoint
    /// The command palette: every command with its key.
    case commandPalette
    /// Run a flow of the active service (a window lists them when there are several).
    case runFlow
    /// Run every test of the active service (its `expect:` checks and flows).
    case runServiceTests
    /// A key of the Tests tab.
    case tests(TestsCommand)
    /// The endpoint tree: fold, unfold, titles or paths.
    case navigation(NavigationCommand)
    /// The sidebar (environments and endpoints) wider.
    case widenList
    /// The sidebar narrower.
    case narrowList
    /// The focused pane fills the screen, or the panes come back.
    case zoom
    /// In a window: send the example or history entry under the cursor.
    case choose
    /// Close the window.
    case close
    /// In a window: delete the item under the cursor (a cookie).
    case deleteItem
    /// In the token window: sign in again now.
    case signInAgain
    /// Answer yes to a question (send to production, overwrite a file).
    case confirm
    /// Answer no.
    case decline
    /// While typing: accept the text (filter, search, query, file name).
    case accept
    /// While typing in the Edit or Vars tab: accept the text and send the request at once.
    case acceptAndSend
    /// From anywhere: type `name=value` for the selected request's query (the Edit tab shows it).
    case setQueryItem
    /// From anywhere: type `Name: value` for the selected request's headers (the Edit tab shows it).
    case setHeader
    /// While typing: drop the text.
    case cancelInput
    /// While typing: edit the text.
    case edit(InputEdit)
}

/// What a key does in the Body tab (response pane focused, Body tab shown).
package enum BodyCommand: Sendable, Hashable {
    case scrollLeft, scrollRight
    case toggleFold, foldAll, unfoldAll, matchingBracket
    case toggleWrap, toggleLineNumbers
    case search, nextMatch, previousMatch, query, jq
    case copyValue, save, openInPager, openInEditor
}

/// What a key does in the Edit tab (response pane focused, Edit tab shown).
package enum EditorCommand: Sendable, Hashable {
    case change, add, delete, toggle, undo, redo, revert, editBodyExternally, formatBody, writeToCatalog, saveAsNewEndpoint
}

/// What a key does in the Variables tab (response pane focused, Vars tab shown).
package enum VariablesCommand: Sendable, Hashable {
    case change, clear
}

/// What a key does in the Tests tab (whatever pane has focus).
package enum TestsCommand: Sendable, Hashable {
    case toggleFlow, nextStep, previousStep, openStep
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
    case testsTab = "Tests tab (whatever pane has focus): expect: checks and the last flow run"
    /// A window over the panes: examples, history, help, diagnostics.
    case windows = "Windows (examples, history, help, problems)"
    /// A question: send to production, replace a file.
    case questions = "Questions (production send, file replace)"
    /// Typing: the filter, a search, a query, jq, a file name.
    case typing = "Typing (filter, search, query, jq, file name)"
    /// Every screen.
    case anywhere = "Anywhere"
}

/// Which tab's own keys apply in the panes: the response pane's focused tab, when it has keys.
package enum TabKeys: Sendable, Hashable {
    /// None: only the panes' keys.
    case none
    /// The Body tab with a body.
    case body
    /// The Edit tab.
    case edit
    /// The Vars tab.
    case variables
    /// The Tests tab.
    case tests
}

/// What the keyboard is doing: which scopes a key is looked up in, in order.
package enum KeyContext: Sendable, Hashable {
    /// The panes, with the focused tab's own keys.
    case panes(TabKeys)
    /// A window is open.
    case window
    /// A question waits for y or n.
    case question
    /// Text is being typed (the endpoint filter, an input line of the Body, Edit or Vars tab).
    case typing

    /// The scopes consulted, first match wins.
    var scopes: [KeyScope] {
        switch self {
        case .panes(let tab):
            let own: [KeyScope] = switch tab {
            case .none: []
            case .body: [.bodyTab]
            case .edit: [.editTab]
            case .variables: [.variablesTab]
            case .tests: [.testsTab]
            }
            return [.anywhere] + own + [.requests, .response, .panes, .other, .moving]
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

/// The explorer's key bindings: every key the app reacts to is here.
package enum Keymap {
    private static func key(_ text: String) -> KeyEvent {
        guard let event = KeyEvent(text) else { preconditionFailure("bad key name in the keymap: \(text)") }
        return event
    }

    private static func keys(_ texts: String...) -> [KeyEvent] { texts.map(key) }

    /// Every binding, in the order help lists them within a scope.
    package static let bindings: [KeyBinding] =
        moving + requests + response + panes + other + bodyTab + editTab + variablesTab + testsTab + windows + questions + typing + anywhere

    static let moving: [KeyBinding] = [
        KeyBinding(keys("j", "Down"), .moveDown, .moving, label: "j/↓", help: "down"),
        KeyBinding(keys("k", "Up"), .moveUp, .moving, label: "k/↑", help: "up"),
        KeyBinding(keys("PageDown", "C-d"), .pageDown, .moving, label: "PgDn/C-d", help: "page down"),
        KeyBinding(keys("PageUp", "C-u"), .pageUp, .moving, label: "PgUp/C-u", help: "page up"),
        KeyBinding(keys("g", "Home"), .moveToTop, .moving, label: "g/Home", help: "first"),
        KeyBinding(keys("G", "End"), .moveToBottom, .moving, label: "G/End", help: "last"),
    ]

    static let requests: [KeyBinding] = [
        KeyBinding(keys("Tab"), .focusNext, .requests, help: "next pane"),
        KeyBinding(keys("S-Tab"), .focusPrevious, .requests, help: "previous pane"),
        KeyBinding(keys("Enter", "C-s"), .send, .requests, label: "Enter/C-s", help: "send the endpoint (with its edits) to the active environment, in the current mode"),
        KeyBinding(keys("r"), .resend, .requests, help: "resend the last request as it was sent"),
        KeyBinding(keys("Esc"), .cancelOrClose, .requests, help: "cancel the request (close a stream) or the formatting; clear the filter"),
        KeyBinding(keys("d"), .download, .requests, help: "download the body to a file as it arrives (any size), then browse it"),
        KeyBinding(keys("m"), .sendMessage, .requests, help: "WebSocket: type a message and send it (Tab: the catalog's named messages)"),
        KeyBinding(keys("s"), .toggleMode, .requests, help: "switch stub / live"),
        KeyBinding(keys("e"), .nextEnvironment, .requests, help: "next environment"),
        KeyBinding(keys("E"), .previousEnvironment, .requests, help: "previous environment"),
        KeyBinding(keys("x"), .pickExample, .requests, help: "pick a named example and send it"),
        KeyBinding(keys("c"), .copyCurl, .requests, help: "copy the request as curl (OSC 52: works over SSH and in tmux)"),
        KeyBinding(keys("C"), .copyAs, .requests, help: "copy the request as HTTPie, Python requests or JavaScript fetch"),
        KeyBinding(keys("/"), .filter, .requests, help: "filter endpoints as you type, best match first"),
        KeyBinding(keys("C-p"), .findEndpoint, .requests, help: "find an endpoint (id, title, path, method, group) or a past request, in any service"),
        KeyBinding(keys("F1", "C-k"), .commandPalette, .requests, label: "F1/C-k", help: "the command palette: every command with its key, run from a list"),
        KeyBinding(keys("-"), .navigation(.fold), .requests, help: "endpoints: fold the group (Enter on a group folds / unfolds it)"),
        KeyBinding(keys("+", "="), .navigation(.unfold), .requests, label: "+", help: "endpoints: unfold the group"),
        KeyBinding(keys("t"), .navigation(.toggleRowStyle), .requests, help: "endpoints: rows lead with titles or with paths"),
        KeyBinding(keys("C-n"), .newRequest, .requests, help: "a scratch request: type METHOD URL or paste a curl command; sent live at once"),
        KeyBinding(keys("W"), .saveRequest, .requests, help: "write the edits into the catalog file; a scratch request: save it into a service"),
        KeyBinding(keys("P"), .setQueryItem, .requests, help: "set a query item from anywhere: name=value (replaces that name; C-s sends)"),
        KeyBinding(keys("A"), .setHeader, .requests, help: "set a header from anywhere: Name: value (replaces that name; C-s sends)"),
    ]

    static let response: [KeyBinding] = [
        KeyBinding(keys("1"), .showTab(.body), .response, label: "1–8", help: "Body, Headers, Errors, Request, Log, Edit, Vars, Tests tab"),
        KeyBinding(keys("2"), .showTab(.headers), .response, help: nil),
        KeyBinding(keys("3"), .showTab(.errors), .response, help: nil),
        KeyBinding(keys("4"), .showTab(.request), .response, help: nil),
        KeyBinding(keys("5"), .showTab(.log), .response, help: nil),
        KeyBinding(keys("6"), .showTab(.edit), .response, help: nil),
        KeyBinding(keys("7"), .showTab(.variables), .response, help: nil),
        KeyBinding(keys("8"), .showTab(.tests), .response, help: nil),
        KeyBinding(keys("]"), .nextTab, .response, help: "next tab"),
        KeyBinding(keys("["), .previousTab, .response, help: "previous tab"),
        KeyBinding(keys("v"), .revealSecrets, .response, help: "reveal / mask secrets (Authorization, cookies, API keys, tokens)"),
    ]

    static let panes: [KeyBinding] = [
        KeyBinding(keys(">"), .widenList, .panes, help: "the list wider (so does dragging the border with the mouse; kept for the next launch)"),
        KeyBinding(keys("<"), .narrowList, .panes, help: "the list narrower"),
        KeyBinding(keys("."), .zoom, .panes, help: "zoom: the focused pane fills the screen (. again or Esc brings the panes back)"),
    ]

    static let other: [KeyBinding] = [
        KeyBinding(keys("D"), .showDiagnostics, .other, help: "catalog problems, with file:line:column"),
        KeyBinding(keys("M"), .showMessages, .other, help: "messages: every notice and error of this run, in full (the status bar cuts the latest)"),
        KeyBinding(keys("H"), .showHistory, .other, help: "history: requests sent before (Enter sends one again where it went)"),
        KeyBinding(keys("T"), .showTokens, .other, help: "tokens of the environment: expiry, scopes, JWT claims and signature (Enter signs out)"),
        KeyBinding(keys("K"), .showCookies, .other, help: "cookies of the environment, values masked (Enter clears them)"),
        KeyBinding(keys("F"), .runFlow, .other, help: "run a flow of the service (its steps pass or fail in the Tests tab)"),
        KeyBinding(keys("V"), .runServiceTests, .other, help: "run every test of the service: its expect: checks and flows, as `apiexplorer test` does"),
        KeyBinding(keys("?"), .help, .other, help: "this help"),
        KeyBinding(keys("q"), .quit, .other, help: "quit"),
    ]

    /// Moving (j/k, pages, g/G) uses the `moving` bindings, which move in the body there; `/` here
    /// wins over the endpoint filter's (still one Tab away).
    static let bodyTab: [KeyBinding] = [
        KeyBinding(keys("h", "Left"), .body(.scrollLeft), .bodyTab, label: "h/←", help: "scroll left (wrap off)"),
        KeyBinding(keys("l", "Right"), .body(.scrollRight), .bodyTab, label: "l/→", help: "scroll right (wrap off)"),
        KeyBinding(keys("z"), .body(.toggleFold), .bodyTab, help: "fold / unfold at the cursor (a fold shows how many items it hides)"),
        KeyBinding(keys("Z"), .body(.foldAll), .bodyTab, help: "fold all"),
        KeyBinding(keys("U"), .body(.unfoldAll), .bodyTab, help: "unfold all"),
        KeyBinding(keys("%"), .body(.matchingBracket), .bodyTab, help: "jump to the matching bracket"),
        KeyBinding(keys("w"), .body(.toggleWrap), .bodyTab, help: "wrap long lines on / off"),
        KeyBinding(keys("#"), .body(.toggleLineNumbers), .bodyTab, help: "line numbers on / off"),
        KeyBinding(keys("/"), .body(.search), .bodyTab, help: "search the body, with a match count (Esc clears)"),
        KeyBinding(keys("n"), .body(.nextMatch), .bodyTab, help: "next match"),
        KeyBinding(keys("N"), .body(.previousMatch), .bodyTab, help: "previous match"),
        KeyBinding(keys(":"), .body(.query), .bodyTab, help: "JSONPath query (`$.items[?(@.price > 10)].name`): show only the selection"),
        KeyBinding(keys("|"), .body(.jq), .bodyTab, help: "pipe the body through a jq filter (when jq is installed)"),
        KeyBinding(keys("y"), .body(.copyValue), .bodyTab, help: "copy the value at the cursor (OSC 52)"),
        KeyBinding(keys("S"), .body(.save), .bodyTab, help: "save the body to a file (asks before replacing one)"),
        KeyBinding(keys("o"), .body(.openInPager), .bodyTab, help: "open in $PAGER (less) and come back to an intact screen"),
        KeyBinding(keys("O"), .body(.openInEditor), .bodyTab, help: "open in $EDITOR (vi) and come back to an intact screen"),
    ]

    static let editTab: [KeyBinding] = [
        KeyBinding(keys("Enter"), .editor(.change), .editTab, help: "change the row: method, path, a query item, a header, the body"),
        KeyBinding(keys("a"), .editor(.add), .editTab, help: "add a query item, a header or a form field (where the cursor is)"),
        KeyBinding(keys("d", "Delete"), .editor(.delete), .editTab, label: "d/Delete", help: "remove the row (an inherited header: turn it off)"),
        KeyBinding(keys("Space"), .editor(.toggle), .editTab, label: "Space", help: "turn the row off / on"),
        KeyBinding(keys("u"), .editor(.undo), .editTab, help: "undo"),
        KeyBinding(keys("C-r"), .editor(.redo), .editTab, help: "redo"),
        KeyBinding(keys("R"), .editor(.revert), .editTab, help: "back to the catalog's request (u undoes it)"),
        KeyBinding(keys("O"), .editor(.editBodyExternally), .editTab, help: "edit the body in $EDITOR (vi) and come back to an intact screen"),
        KeyBinding(keys("F"), .editor(.formatBody), .editTab, help: "pretty-print a JSON body (u undoes it); bodies are otherwise sent exactly as typed"),
        KeyBinding(keys("W"), .editor(.writeToCatalog), .editTab, help: "write the edits into the catalog file, changing only their lines (asks first; u undoes)"),
        KeyBinding(keys("N"), .editor(.saveAsNewEndpoint), .editTab, help: "save the edited request as a new endpoint of the catalog (asks its id)"),
    ]

    static let variablesTab: [KeyBinding] = [
        KeyBinding(keys("Enter"), .variables(.change), .variablesTab, help: "set a run-time value (kept per environment, never for secrets)"),
        KeyBinding(keys("d", "Delete"), .variables(.clear), .variablesTab, label: "d/Delete", help: "clear the run-time value: back to the catalog's"),
    ]

    static let testsTab: [KeyBinding] = [
        KeyBinding(keys("f"), .tests(.toggleFlow), .testsTab, help: "the last flow run / the selected endpoint's checks"),
        KeyBinding(keys("n"), .tests(.nextStep), .testsTab, help: "flow: next step"),
        KeyBinding(keys("N"), .tests(.previousStep), .testsTab, help: "flow: previous step"),
        KeyBinding(keys("o"), .tests(.openStep), .testsTab, help: "flow: the step's response in the Body tab (after a failure: the failing step's)"),
    ]

    static let windows: [KeyBinding] = [
        KeyBinding(keys("Enter"), .choose, .windows, help: "send the example or history entry under the cursor; run the flow"),
        KeyBinding(keys("d"), .deleteItem, .windows, help: "cookies: delete the cookie under the cursor"),
        KeyBinding(keys("S"), .signInAgain, .windows, help: "tokens: sign in again now"),
        KeyBinding(keys("v"), .revealSecrets, .windows, help: "cookies, tokens: reveal / mask the values"),
        KeyBinding(keys("Esc", "q", "x", "H", "?", "D", "M"), .close, .windows, label: "Esc/q", help: "close (so does the key that opened it)"),
    ]

    static let questions: [KeyBinding] = [
        KeyBinding(keys("y", "Y", "Enter"), .confirm, .questions, label: "y/Enter", help: "yes: send, or replace the file"),
        KeyBinding(keys("n", "N", "Esc", "q"), .decline, .questions, label: "n/Esc", help: "no"),
    ]

    static let typing: [KeyBinding] = [
        KeyBinding(keys("Enter"), .accept, .typing, help: "accept"),
        KeyBinding(keys("C-s"), .acceptAndSend, .typing, help: "Edit and Vars tabs: accept and send at once"),
        KeyBinding(keys("Tab"), .nextNamedMessage, .typing, help: "a WebSocket message: the next named one; a request's question: the next choice"),
        KeyBinding(keys("Esc"), .cancelInput, .typing, help: "cancel (a filter or search is cleared)"),
        KeyBinding(keys("Left", "C-b"), .edit(.moveLeft), .typing, label: "←/C-b", help: "character left"),
        KeyBinding(keys("Right", "C-f"), .edit(.moveRight), .typing, label: "→/C-f", help: "character right"),
        KeyBinding(keys("C-Left", "M-Left", "M-b"), .edit(.moveWordLeft), .typing, label: "C-←/M-b", help: "word left"),
        KeyBinding(keys("C-Right", "M-Right", "M-f"), .edit(.moveWordRight), .typing, label: "C-→/M-f", help: "word right"),
        KeyBinding(keys("Home", "C-a"), .edit(.moveHome), .typing, label: "Home/C-a", help: "start"),
        KeyBinding(keys("End", "C-e"), .edit(.moveEnd), .typing, label: "End/C-e", help: "end"),
        KeyBinding(keys("Backspace", "C-h"), .edit(.backspace), .typing, label: "Backspace", help: "delete the character before the cursor"),
        KeyBinding(keys("Delete", "C-d"), .edit(.deleteForward), .typing, label: "Delete/C-d", help: "delete the character under the cursor"),
        KeyBinding(keys("C-w", "M-Backspace", "C-Backspace"), .edit(.deleteWordBackward), .typing, label: "C-w", help: "delete the word before the cursor"),
        KeyBinding(keys("C-u"), .edit(.killToStart), .typing, help: "delete to the start"),
        KeyBinding(keys("C-k"), .edit(.killToEnd), .typing, help: "delete to the end"),
        KeyBinding(keys("Down"), .moveDown, .typing, label: "↓/↑", help: "move in the endpoint list while filtering; pick a request's question's choice"),
        KeyBinding(keys("Up"), .moveUp, .typing, help: nil),
        KeyBinding(triggers: [.anyCharacter], .edit(.insert("")), .typing, label: "characters", help: "typed at the cursor"),
    ]

    static let anywhere: [KeyBinding] = [
        KeyBinding(keys("C-c"), .quit, .anywhere, help: "quit at once (the terminal is restored on q, Ctrl-C, SIGINT, SIGTERM and SIGHUP)"),
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
