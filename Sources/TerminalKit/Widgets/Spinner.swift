/// An activity indicator that shows the frame it is told to: no timers inside widgets.
package struct Spinner: Widget, Hashable, Sendable {
    /// The braille dots frames ⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏.
    package static let dots = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
    /// A plain ASCII fallback.
    package static let line = ["-", "\\", "|", "/"]

    /// The frames, cycled through.
    package var frames: [String]
    /// Which frame to show; any integer, taken modulo the frame count.
    package var frameIndex: Int
    /// Text after the glyph, separated by a space.
    package var label: Line?
    /// Style of the glyph.
    package var style: Style

    /// Creates a spinner.
    package init(frameIndex: Int, frames: [String] = Spinner.dots, label: Line? = nil, style: Style = Style(foreground: .cyan)) {
        self.frames = frames
        self.frameIndex = frameIndex
        self.label = label
        self.style = style
    }

    /// The glyph for the current frame ("" without frames).
    package var symbol: String {
        guard !frames.isEmpty else { return "" }
        let count = frames.count
        return frames[((frameIndex % count) + count) % count]
    }

    /// Draws the glyph and label in the first row of `area`.
    package func render(into buffer: inout Buffer, area: Rect) {
        guard !area.isEmpty else { return }
        var used = buffer.write(symbol, at: area.origin, style: style, maxWidth: area.width)
        if let label, label.width > 0, used < area.width {
            used += buffer.write(" ", at: Position(x: area.x + used, y: area.y), maxWidth: area.width - used)
            buffer.write(label.truncated(toWidth: area.width - used), at: Position(x: area.x + used, y: area.y), maxWidth: area.width - used)
        }
    }
}
