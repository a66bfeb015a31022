/// What a key does to the panes' sizes.
package enum PanesCommand: Sendable, Hashable {
    /// The sidebar (environments and endpoints) wider.
    case widenList
    /// The sidebar narrower.
    case narrowList
    /// The focused pane fills the screen, or the panes come back.
    case zoom
}

extension PanesFeature {
    static let keys: [KeyBinding] = [
        KeyBinding(">", .panes(.widenList), .panes, help: "the list wider (so does dragging the border with the mouse; kept for the next launch)"),
        KeyBinding("<", .panes(.narrowList), .panes, help: "the list narrower"),
        KeyBinding(".", .panes(.zoom), .panes, help: "zoom: the focused pane fills the screen (. again or Esc brings the panes back)"),
    ]
}
