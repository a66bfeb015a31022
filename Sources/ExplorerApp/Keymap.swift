import TerminalKit

/// What a key does. Bindings are data so the help screen is generated from them.
public enum Command: Sendable, Hashable {
    case focusNext, focusPrevious
    case moveUp, moveDown, pageUp, pageDown, moveToTop, moveToBottom
    case send, resend, cancelOrClose
    case toggleMode, nextEnvironment, previousEnvironment
    case pickExample, showTab(ResponseTab), nextTab, previousTab
    case filter, copyCurl, revealSecrets, showDiagnostics, showHistory
    case help, quit
    case body(BodyCommand)
}

/// What a key does in the Body tab (response pane focused, Body tab shown).
public enum BodyCommand: Sendable, Hashable {
    case scrollLeft, scrollRight
    case toggleFold, foldAll, unfoldAll, matchingBracket
    case toggleWrap, toggleLineNumbers
    case search, nextMatch, previousMatch, query, jq
    case copyValue, save, openInPager, openInEditor
}

/// Keys bound to a command, with the words the help screen shows.
public struct KeyBinding: Sendable, Hashable {
    /// The keys, the first one shown in help.
    public var keys: [KeyEvent]
    /// What they do.
    public var command: Command
    /// How help names the keys (`j/k`, `1–5`), when not simply the first key.
    public var label: String?
    /// What help says the command does.
    public var help: String
    /// The help section.
    public var section: String

    /// Makes a binding.
    public init(_ keys: [KeyEvent], _ command: Command, label: String? = nil, help: String, section: String) {
        self.keys = keys
        self.command = command
        self.label = label
        self.help = help
        self.section = section
    }

    /// The keys as help shows them.
    public var keyLabel: String { label ?? keys.first.map(\.description) ?? "" }
}

/// The explorer's key bindings.
public enum Keymap {
    private static func key(_ text: String) -> KeyEvent {
        guard let event = KeyEvent(text) else { preconditionFailure("bad key name in the keymap: \(text)") }
        return event
    }

    /// Every binding, in the order help lists them.
    public static let bindings: [KeyBinding] = [
        KeyBinding([key("Tab")], .focusNext, help: "next pane", section: "Move"),
        KeyBinding([key("S-Tab")], .focusPrevious, help: "previous pane", section: "Move"),
        KeyBinding([key("j"), key("Down")], .moveDown, label: "j/↓", help: "down", section: "Move"),
        KeyBinding([key("k"), key("Up")], .moveUp, label: "k/↑", help: "up", section: "Move"),
        KeyBinding([key("PageDown"), key("C-d")], .pageDown, label: "PgDn/C-d", help: "page down", section: "Move"),
        KeyBinding([key("PageUp"), key("C-u")], .pageUp, label: "PgUp/C-u", help: "page up", section: "Move"),
        KeyBinding([key("g"), key("Home")], .moveToTop, label: "g/Home", help: "first", section: "Move"),
        KeyBinding([key("G"), key("End")], .moveToBottom, label: "G/End", help: "last", section: "Move"),
        KeyBinding([key("Enter")], .send, help: "send the endpoint", section: "Requests"),
        KeyBinding([key("r")], .resend, help: "resend the last request as it was sent", section: "Requests"),
        KeyBinding([key("Esc")], .cancelOrClose, help: "cancel a request or formatting / close", section: "Requests"),
        KeyBinding([key("s")], .toggleMode, help: "switch stub / live", section: "Requests"),
        KeyBinding([key("e")], .nextEnvironment, help: "next environment", section: "Requests"),
        KeyBinding([key("E")], .previousEnvironment, help: "previous environment", section: "Requests"),
        KeyBinding([key("x")], .pickExample, help: "pick a named example and send it", section: "Requests"),
        KeyBinding([key("c")], .copyCurl, help: "copy the request as curl (OSC 52)", section: "Requests"),
        KeyBinding([key("/")], .filter, help: "filter endpoints", section: "Requests"),
        KeyBinding(
            [key("1"), key("2"), key("3"), key("4"), key("5")], .showTab(.body), label: "1–5",
            help: "Body, Headers, Errors, Request, Log", section: "Response"),
        KeyBinding([key("]")], .nextTab, help: "next tab", section: "Response"),
        KeyBinding([key("[")], .previousTab, help: "previous tab", section: "Response"),
        KeyBinding([key("v")], .revealSecrets, help: "reveal / mask secrets", section: "Response"),
        KeyBinding([key("D")], .showDiagnostics, help: "catalog diagnostics", section: "Other"),
        KeyBinding([key("H")], .showHistory, help: "history (Enter sends one again)", section: "Other"),
        KeyBinding([key("?")], .help, help: "this help", section: "Other"),
        KeyBinding([key("q"), key("C-c")], .quit, label: "q/C-c", help: "quit", section: "Other"),
    ]

    /// Bindings that apply while the response pane has focus and shows the Body tab. They win over the
    /// global ones there: only `/` is also bound globally (the endpoint filter, still one Tab away).
    /// Moving (j/k, pages, g/G) uses the global bindings, which move in the body there.
    public static let bodyBindings: [KeyBinding] = [
        KeyBinding([key("h"), key("Left")], .body(.scrollLeft), label: "h/←", help: "scroll left (wrap off)", section: bodySection),
        KeyBinding([key("l"), key("Right")], .body(.scrollRight), label: "l/→", help: "scroll right (wrap off)", section: bodySection),
        KeyBinding([key("z")], .body(.toggleFold), help: "fold / unfold at the cursor", section: bodySection),
        KeyBinding([key("Z")], .body(.foldAll), help: "fold all", section: bodySection),
        KeyBinding([key("U")], .body(.unfoldAll), help: "unfold all", section: bodySection),
        KeyBinding([key("%")], .body(.matchingBracket), help: "matching bracket", section: bodySection),
        KeyBinding([key("w")], .body(.toggleWrap), help: "wrap long lines on / off", section: bodySection),
        KeyBinding([key("#")], .body(.toggleLineNumbers), help: "line numbers on / off", section: bodySection),
        KeyBinding([key("/")], .body(.search), help: "search the body (Esc clears)", section: bodySection),
        KeyBinding([key("n")], .body(.nextMatch), help: "next match", section: bodySection),
        KeyBinding([key("N")], .body(.previousMatch), help: "previous match", section: bodySection),
        KeyBinding([key(":")], .body(.query), help: "JSONPath query: show only the selection", section: bodySection),
        KeyBinding([key("|")], .body(.jq), help: "pipe the body through a jq filter", section: bodySection),
        KeyBinding([key("y")], .body(.copyValue), help: "copy the value at the cursor (OSC 52)", section: bodySection),
        KeyBinding([key("S")], .body(.save), help: "save the body to a file", section: bodySection),
        KeyBinding([key("o")], .body(.openInPager), help: "open in $PAGER (less)", section: bodySection),
        KeyBinding([key("O")], .body(.openInEditor), help: "open in $EDITOR (vi)", section: bodySection),
    ]

    /// The help section of the Body tab's bindings.
    static let bodySection = "Body tab (response pane)"

    /// Every binding help lists: the global ones, then the Body tab's.
    public static var allBindings: [KeyBinding] { bindings + bodyBindings }

    /// The command bound to a key; `inBody` when the response pane has focus on the Body tab.
    public static func command(for event: KeyEvent, inBody: Bool = false) -> Command? {
        if inBody, let binding = bodyBindings.first(where: { $0.keys.contains(event) }) { return binding.command }
        if event.modifiers.isEmpty, case .character(let character) = event.key, let digit = character.wholeNumberValue,
            let tab = ResponseTab(rawValue: digit)
        {
            return .showTab(tab)
        }
        return bindings.first { $0.keys.contains(event) }?.command
    }
}
