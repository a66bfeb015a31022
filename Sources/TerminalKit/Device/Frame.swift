/// One complete picture for the terminal: the cells and where the cursor shows, if anywhere.
public struct Frame: Hashable, Sendable {
    /// The cells.
    public var buffer: Buffer
    /// Where to show the terminal cursor; nil hides it.
    public var cursor: Position?

    /// Creates a frame.
    public init(buffer: Buffer, cursor: Position? = nil) {
        self.buffer = buffer
        self.cursor = cursor
    }
}
