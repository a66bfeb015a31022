/// What a key does in the Body tab (response pane focused, Body tab shown).
package enum BodyCommand: Sendable, Hashable {
    case scrollLeft, scrollRight
    case toggleFold, foldAll, unfoldAll, matchingBracket
    case toggleWrap, toggleLineNumbers
    case search, nextMatch, previousMatch, query, jq
    case copyValue, save, openInPager, openInEditor
}

extension BodyFeature {
    /// Moving (j/k, pages, g/G) uses the `moving` bindings, which move in the body there; `/` here
    /// wins over the endpoint filter's (still one Tab away).
    static let keys: [KeyBinding] = [
        KeyBinding("h Left", .body(.scrollLeft), .bodyTab, label: "h/←", help: "scroll left (wrap off)"),
        KeyBinding("l Right", .body(.scrollRight), .bodyTab, label: "l/→", help: "scroll right (wrap off)"),
        KeyBinding("z", .body(.toggleFold), .bodyTab, help: "fold / unfold at the cursor (a fold shows how many items it hides)"),
        KeyBinding("Z", .body(.foldAll), .bodyTab, help: "fold all"),
        KeyBinding("U", .body(.unfoldAll), .bodyTab, help: "unfold all"),
        KeyBinding("%", .body(.matchingBracket), .bodyTab, help: "jump to the matching bracket"),
        KeyBinding("w", .body(.toggleWrap), .bodyTab, help: "wrap long lines on / off"),
        KeyBinding("#", .body(.toggleLineNumbers), .bodyTab, help: "line numbers on / off"),
        KeyBinding("/", .body(.search), .bodyTab, help: "search the body, with a match count (Esc clears)"),
        KeyBinding("n", .body(.nextMatch), .bodyTab, help: "next match"),
        KeyBinding("N", .body(.previousMatch), .bodyTab, help: "previous match"),
        KeyBinding(":", .body(.query), .bodyTab, help: "JSONPath query (`$.items[?(@.price > 10)].name`): show only the selection"),
        KeyBinding("|", .body(.jq), .bodyTab, help: "pipe the body through a jq filter (when jq is installed)"),
        KeyBinding("y", .body(.copyValue), .bodyTab, help: "copy the value at the cursor (OSC 52)"),
        KeyBinding("S", .body(.save), .bodyTab, help: "save the body to a file (asks before replacing one)"),
        KeyBinding("o", .body(.openInPager), .bodyTab, help: "open in $PAGER (less) and come back to an intact screen"),
        KeyBinding("O", .body(.openInEditor), .bodyTab, help: "open in $EDITOR (vi) and come back to an intact screen"),
    ]
}
