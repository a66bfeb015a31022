/// A cell coordinate: column `x`, row `y`, both from zero at the top left.
public struct Position: Hashable, Sendable, CustomStringConvertible {
    /// Column.
    public var x: Int
    /// Row.
    public var y: Int
    /// Creates a position.
    public init(x: Int, y: Int) { self.x = x; self.y = y }
    /// The origin (0, 0).
    public static let zero = Position(x: 0, y: 0)
    /// "(x,y)".
    public var description: String { "(\(x),\(y))" }
}

/// A size in cells.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    /// Columns.
    public var width: Int
    /// Rows.
    public var height: Int
    /// Creates a size; negative values become zero.
    public init(width: Int, height: Int) { self.width = max(0, width); self.height = max(0, height) }
    /// No cells.
    public static let zero = Size(width: 0, height: 0)
    /// Number of cells.
    public var area: Int { width * height }
    /// "WxH".
    public var description: String { "\(width)x\(height)" }
}
