extension StringProtocol {
    /// How many lines the text has (one more than its line breaks), counted without splitting it.
    public var lineCount: Int {
        utf8.reduce(1) { count, byte in byte == UInt8(ascii: "\n") ? count + 1 : count }
    }

    /// The text up to its first line break (all of it when there is none).
    public var firstLine: SubSequence {
        self[..<(firstIndex(of: "\n") ?? endIndex)]
    }
}
