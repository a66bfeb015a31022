/// A cell coordinate: column `x`, row `y`, both from zero at the top left.
package struct Position: Hashable, Sendable, CustomStringConvertible {
    /// Column.
    package var x: Int
    /// Row.
    package var y: Int
    /// Creates a position.
    package init(x: Int, y: Int) { self.x = x; self.y = y }
    /// The origin (0, 0).
    package static let zero = Position(x: 0, y: 0)
    /// "(x,y)".
    package var description: String { "(\(x),\(y))" }
}

/// A size in cells.
package struct Size: Hashable, Sendable, CustomStringConvertible {
    /// Columns.
    package var width: Int
    /// Rows.
    package var height: Int
    /// Creates a size; negative values become zero.
    package init(width: Int, height: Int) { self.width = max(0, width); self.height = max(0, height) }
    /// No cells.
    package static let zero = Size(width: 0, height: 0)
    /// Number of cells.
    package var area: Int { width * height }
    /// "WxH".
    package var description: String { "\(width)x\(height)" }
}
