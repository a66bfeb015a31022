/// Something that draws itself into a buffer area and nothing else.
package protocol Widget {
    /// Draws into `area` of `buffer`, touching no cell outside it.
    func render(into buffer: inout Buffer, area: Rect)
}

/// A widget whose drawing depends on a state value the caller owns (selection, scroll offset …).
package protocol StatefulWidget {
    /// The state the widget reads and, for scrolling, corrects to keep things visible.
    associatedtype State
    /// Draws into `area`; may adjust `state` (e.g. a scroll offset) so the next frame is stable.
    func render(into buffer: inout Buffer, area: Rect, state: inout State)
}
