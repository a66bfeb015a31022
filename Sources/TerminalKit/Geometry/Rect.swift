/// A rectangle of cells. Zero-sized rectangles are valid and simply contain nothing.
package struct Rect: Hashable, Sendable, CustomStringConvertible {
    /// Left column.
    package var x: Int
    /// Top row.
    package var y: Int
    /// Columns; never negative.
    package var width: Int
    /// Rows; never negative.
    package var height: Int

    /// Creates a rectangle; negative sizes become zero.
    package init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// A rectangle at the origin.
    package init(size: Size) { self.init(x: 0, y: 0, width: size.width, height: size.height) }

    /// The empty rectangle at the origin.
    package static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    /// One past the last column.
    package var right: Int { x + width }
    /// One past the last row.
    package var bottom: Int { y + height }
    /// Top-left corner.
    package var origin: Position { Position(x: x, y: y) }
    /// Width and height.
    package var size: Size { Size(width: width, height: height) }
    /// Number of cells.
    package var area: Int { width * height }
    /// True when the rectangle holds no cell.
    package var isEmpty: Bool { width == 0 || height == 0 }

    /// True when the cell lies inside.
    package func contains(_ position: Position) -> Bool {
        position.x >= x && position.x < right && position.y >= y && position.y < bottom
    }

    /// Shrinks every side by `amount`, never below zero size.
    package func inset(by amount: Int) -> Rect { inset(top: amount, left: amount, bottom: amount, right: amount) }

    /// Shrinks each side separately, never below zero size (the top-left edge wins when too small).
    package func inset(top: Int = 0, left: Int = 0, bottom: Int = 0, right: Int = 0) -> Rect {
        let newX = x + min(max(0, left), width)
        let newY = y + min(max(0, top), height)
        return Rect(
            x: newX, y: newY,
            width: self.right - newX - max(0, right),
            height: self.bottom - newY - max(0, bottom)
        )
    }

    /// The cells both rectangles share (empty, placed inside self, when they do not overlap).
    package func intersection(_ other: Rect) -> Rect {
        let left = max(x, other.x), top = max(y, other.y)
        let right = min(self.right, other.right), bottom = min(self.bottom, other.bottom)
        if right <= left || bottom <= top {
            return Rect(x: min(max(left, x), self.right), y: min(max(top, y), self.bottom), width: 0, height: 0)
        }
        return Rect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// True when both rectangles share at least one cell.
    package func intersects(_ other: Rect) -> Bool { !intersection(other).isEmpty }

    /// This rectangle moved and shrunk to fit inside `bounds`, keeping its size where possible.
    package func clamped(to bounds: Rect) -> Rect {
        let width = min(self.width, bounds.width), height = min(self.height, bounds.height)
        let newX = min(max(x, bounds.x), bounds.right - width)
        let newY = min(max(y, bounds.y), bounds.bottom - height)
        return Rect(x: newX, y: newY, width: width, height: height)
    }

    /// The single-row rectangle at `offset` rows from the top (empty when out of range).
    package func row(_ offset: Int) -> Rect {
        guard offset >= 0, offset < height else { return Rect(x: x, y: y, width: 0, height: 0) }
        return Rect(x: x, y: y + offset, width: width, height: 1)
    }

    /// "WxH@(x,y)".
    package var description: String { "\(width)x\(height)@(\(x),\(y))" }
}
