import TerminalKit

/// How the panes share the screen: the sidebar's width as the person set it (keys, a drag of the
/// border; kept in the state folder) and whether the focused pane fills the screen.
package struct PanesState: Sendable, Hashable {
    /// The sidebar's width in columns as the person set it; nil: sized to the terminal.
    package fileprivate(set) var listWidth: Int?
    /// Whether the focused pane fills the screen.
    package fileprivate(set) var isZoomed = false
    /// The drag of the sidebar's border under way, while the button is held.
    package fileprivate(set) var drag: BorderDrag?

    /// Columns a width key moves the border by.
    package static let step = 4
}

/// A drag of the border between the sidebar and the response pane: the border follows the
/// pointer, and the width is kept when the button goes up.
package struct BorderDrag: Sendable, Hashable {
    /// The column the press was at.
    package var startColumn: Int
    /// The sidebar's width when the button went down.
    package var startWidth: Int
    /// The width set before the drag (nil: sized to the terminal), back if the drag ends where it began.
    package var previousListWidth: Int?

    /// The width the pointer at `column` asks for.
    func wantedWidth(at column: Int) -> Int { startWidth + column - startColumn }
}

/// What happens to the panes.
package enum PanesAction: Sendable, Hashable {
    /// A key: the sidebar a step wider or narrower, or the zoom.
    case command(PanesCommand)
    /// The sidebar a step wider (positive) or narrower (negative).
    case widen(by: Int)
    /// The focused pane fills the screen, or the panes come back.
    case toggleZoom
    /// The panes come back (Esc with nothing else to cancel).
    case unzoom
    /// A press on the border between the sidebar and the response pane, at `column`.
    case pressBorder(column: Int)
    /// The pointer moved to `column` with the button held: the border follows if it is dragged.
    case drag(column: Int)
    /// The button went up at `column`: a drag of the border ends there.
    case release(column: Int)
    /// A press elsewhere: a drag whose release the terminal did not report is over.
    case pressElsewhere
    /// The width kept from earlier runs (nil: none).
    case loaded(listWidth: Int?)
}

/// Work the panes ask of the runtime.
package enum PanesEffect: Sendable, Hashable {
    /// Read the width kept from earlier runs, reporting `.loaded`.
    case load
    /// Keep the sidebar's width in the state folder.
    case save(listWidth: Int)
}

enum PanesFeature: AppFeature {
    /// The terminal's size and the sidebar's width there.
    struct Context {
        var size: Size
        var sidebarWidth: Int
    }

    static func context(of app: AppState) -> Context {
        Context(size: app.size, sidebarWidth: app.layout.sidebarWidth)
    }

    static func reduce(_ state: inout PanesState, _ action: PanesAction, _ shell: inout AppShell, _ context: Context) -> [AppEffect] {
        switch action {
        case .command(.widenList):
            return reduce(&state, .widen(by: PanesState.step), &shell, context)
        case .command(.narrowList):
            return reduce(&state, .widen(by: -PanesState.step), &shell, context)
        case .command(.zoom):
            return reduce(&state, .toggleZoom, &shell, context)
        case .widen(let columns):
            guard !state.isZoomed else {
                shell.notice = "The panes are zoomed: the zoom key or Esc brings them back first."
                return []
            }
            return setWidth(context.sidebarWidth + columns, from: context.sidebarWidth, state: &state, shell: &shell, context: context)
        case .toggleZoom:
            state.isZoomed.toggle()
            // The zoom key in the middle of a drag cancels it.
            if let drag = state.drag { state.listWidth = drag.previousListWidth }
            state.drag = nil
        case .unzoom:
            state.isZoomed = false
        case .pressBorder(let column):
            state.drag = BorderDrag(startColumn: column, startWidth: context.sidebarWidth, previousListWidth: state.listWidth)
        case .drag(let column):
            // Drawn at once, kept only when the button goes up; bounds are met silently on the way.
            guard let drag = state.drag else { return [] }
            state.listWidth = AppLayout.sidebarWidths(forWidth: context.size.width).clamped(drag.wantedWidth(at: column))
        case .pressElsewhere:
            // The release went unreported: the drag ends where it was last drawn.
            guard let drag = state.drag else { return [] }
            state.drag = nil
            guard let width = state.listWidth, width != drag.previousListWidth else { return [] }
            return [.panes(.save(listWidth: width))]
        case .release(let column):
            guard let drag = state.drag else { return [] }
            state.drag = nil
            state.listWidth = drag.previousListWidth
            // A click on the border that did not move leaves the width as it was (sized to the terminal).
            guard column != drag.startColumn else { return [] }
            return setWidth(drag.wantedWidth(at: column), from: drag.startWidth, state: &state, shell: &shell, context: context)
        case .loaded(let width):
            shell.pendingLoads.remove(.panes(.load))
            // A width set in this run already wins.
            if state.listWidth == nil, let width { state.listWidth = AppLayout.sidebarWidthLimits.clamped(width) }
        }
        return []
    }

    /// Sets the sidebar's width (`current` on the screen) within what the terminal allows, and keeps it.
    private static func setWidth(_ wanted: Int, from current: Int, state: inout PanesState, shell: inout AppShell, context: Context) -> [AppEffect] {
        let bounds = AppLayout.sidebarWidths(forWidth: context.size.width)
        let width = bounds.clamped(wanted)
        if width != wanted { shell.notice = "The list is \(width) columns wide: \(wanted < width ? "the narrowest" : "the widest") at this terminal width." }
        guard width != current || state.listWidth == nil else { return [] }
        state.listWidth = width
        return [.panes(.save(listWidth: width))]
    }
}

extension ClosedRange<Int> {
    /// `value` moved into the range.
    func clamped(_ value: Int) -> Int { Swift.min(Swift.max(value, lowerBound), upperBound) }
}
