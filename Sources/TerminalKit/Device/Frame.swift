/// One complete picture for the terminal: the cells and where the cursor shows, if anywhere.
package struct Frame: Hashable, Sendable {
    /// The cells.
    package var buffer: Buffer
    /// Where to show the terminal cursor; nil hides it.
    package var cursor: Position?

    /// Creates a frame.
    package init(buffer: Buffer, cursor: Position? = nil) {
        self.buffer = buffer
        self.cursor = cursor
    }
}
