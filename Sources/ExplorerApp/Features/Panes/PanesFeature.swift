import TerminalKit

/// How the panes share the screen: the sidebar's width as the person set it (keys, a drag of the
/// border; kept in the state folder) and whether the focused pane fills the screen.
package struct PanesState: Sendable, Hashable {
    /// The sidebar's width in columns as the person set it; nil: sized to the terminal.
    package fileprivate(set) var listWidth: Int?
    /// Whether the focused pane fills the screen.
    package fileprivate(set) var isZoomed = false
    /// The column a press on the sidebar's border was at, while the button is held (a drag).
    package fileprivate(set) var dragStart: Int?

    /// Columns a width key moves the border by.
    package static let step = 4
}

/// What happens to the panes.
package enum PanesAction: Sendable, Hashable {
    /// The sidebar a step wider (positive) or narrower (negative).
    case widen(by: Int)
    /// The focused pane fills the screen, or the panes come back.
    case toggleZoom
    /// The panes come back (Esc with nothing else to cancel).
    case unzoom
    /// A press on the border between the sidebar and the response pane, at `column`.
    case pressBorder(column: Int)
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
        case .widen(let columns):
            guard !state.isZoomed else {
                shell.notice = "The panes are zoomed: the zoom key or Esc brings them back first."
                return []
            }
            return setWidth(context.sidebarWidth + columns, state: &state, shell: &shell, context: context)
        case .toggleZoom:
            state.isZoomed.toggle()
            state.dragStart = nil
        case .unzoom:
            state.isZoomed = false
        case .pressBorder(let column):
            state.dragStart = column
        case .pressElsewhere:
            state.dragStart = nil
        case .release(let column):
            guard let start = state.dragStart else { return [] }
            state.dragStart = nil
            // A click on the border that did not move leaves the width as it was (sized to the terminal).
            guard column != start else { return [] }
            return setWidth(context.sidebarWidth + column - start, state: &state, shell: &shell, context: context)
        case .loaded(let width):
            shell.pendingLoads.remove(.panes(.load))
            // A width set in this run already wins.
            if state.listWidth == nil, let width { state.listWidth = AppLayout.sidebarWidthLimits.clamped(width) }
        }
        return []
    }

    /// Sets the sidebar's width within what the terminal allows, and keeps it.
    private static func setWidth(_ wanted: Int, state: inout PanesState, shell: inout AppShell, context: Context) -> [AppEffect] {
        let bounds = AppLayout.sidebarWidths(forWidth: context.size.width)
        let width = bounds.clamped(wanted)
        if width != wanted { shell.notice = "The list is \(width) columns wide: \(wanted < width ? "the narrowest" : "the widest") at this terminal width." }
        guard width != context.sidebarWidth || state.listWidth == nil else { return [] }
        state.listWidth = width
        return [.panes(.save(listWidth: width))]
    }
}

extension ClosedRange<Int> {
    /// `value` moved into the range.
    func clamped(_ value: Int) -> Int { Swift.min(Swift.max(value, lowerBound), upperBound) }
}
