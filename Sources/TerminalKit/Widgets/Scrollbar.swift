/// A vertical scrollbar drawn in the first column of its area.
package struct Scrollbar: Widget, Hashable, Sendable {
    /// Total rows of content.
    package var contentLength: Int
    /// Rows visible at once.
    package var viewportLength: Int
    /// First visible row.
    package var position: Int
    /// Symbol of the track.
    package var trackSymbol: String
    /// Symbol of the thumb.
    package var thumbSymbol: String
    /// Style of the track.
    package var trackStyle: Style
    /// Style of the thumb.
    package var thumbStyle: Style

    /// Creates a scrollbar.
    package init(
        contentLength: Int, viewportLength: Int, position: Int,
        trackSymbol: String = "│", thumbSymbol: String = "█",
        trackStyle: Style = Style(foreground: .brightBlack), thumbStyle: Style = .plain
    ) {
        self.contentLength = contentLength
        self.viewportLength = viewportLength
        self.position = position
        self.trackSymbol = trackSymbol
        self.thumbSymbol = thumbSymbol
        self.trackStyle = trackStyle
        self.thumbStyle = thumbStyle
    }

    /// True when the content does not fit, so a scrollbar means something.
    package var isNeeded: Bool { contentLength > viewportLength && viewportLength >= 0 }

    /// The rows of a track of `trackLength` covered by the thumb; nil when everything fits.
    /// The thumb touches the top exactly at position 0 and the bottom exactly at the last position.
    package func thumb(trackLength: Int) -> Range<Int>? {
        guard isNeeded, trackLength > 0 else { return nil }
        let viewport = max(0, viewportLength)
        let length = min(trackLength, max(1, (trackLength * viewport + contentLength / 2) / contentLength))
        let maxPosition = contentLength - viewport
        let clamped = min(max(0, position), maxPosition)
        let travel = trackLength - length
        var start = (travel * clamped + maxPosition / 2) / maxPosition
        if clamped > 0 && start == 0 && travel > 0 { start = 1 }
        if clamped < maxPosition && start == travel && travel > 0 { start = travel - 1 }
        return start..<(start + length)
    }

    /// Draws the track and thumb down the first column of `area`; nothing when everything fits.
    package func render(into buffer: inout Buffer, area: Rect) {
        guard let thumb = thumb(trackLength: area.height), area.width > 0 else { return }
        for row in 0..<area.height {
            let onThumb = thumb.contains(row)
            buffer.write(
                onThumb ? thumbSymbol : trackSymbol, at: Position(x: area.x, y: area.y + row),
                style: onThumb ? thumbStyle : trackStyle, maxWidth: 1
            )
        }
    }
}
