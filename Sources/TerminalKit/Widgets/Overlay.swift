/// A box drawn over whatever is beneath (help, pickers): its area is cleared first.
package struct Overlay: Widget, Sendable {
    /// One dimension of the overlay.
    package enum Dimension: Hashable, Sendable {
        /// A fixed number of cells (shrunk to fit the screen).
        case cells(Int)
        /// A percentage of the screen.
        case percent(Int)

        func resolve(_ available: Int) -> Int {
            switch self {
            case .cells(let n): return min(max(0, n), available)
            case .percent(let p): return available * min(max(0, p), 100) / 100
            }
        }
    }

    /// The border and titles.
    package var block: Block
    /// Width of the box.
    package var width: Dimension
    /// Height of the box.
    package var height: Dimension
    /// Style the cleared area gets (e.g. a background).
    package var style: Style

    /// Creates an overlay.
    package init(block: Block, width: Dimension, height: Dimension, style: Style = .plain) {
        self.block = block
        self.width = width
        self.height = height
        self.style = style
    }

    /// The box's rectangle, centred in `screen`.
    package func area(in screen: Rect) -> Rect {
        Layout.centered(width: width.resolve(screen.width), height: height.resolve(screen.height), in: screen)
    }

    /// Where the content goes: inside the border of the box.
    package func inner(in screen: Rect) -> Rect { block.inner(area(in: screen)) }

    /// Clears the box and draws its border; `area` is the whole screen (or region) to centre in.
    package func render(into buffer: inout Buffer, area screen: Rect) {
        let box = area(in: screen)
        buffer.fill(box, style: style)
        block.render(into: &buffer, area: box)
    }
}
