import Testing
@testable import TerminalKit

/// Draws into a fresh buffer and returns its plain-text grid (trailing spaces trimmed).
func grid(_ width: Int, _ height: Int, _ draw: (inout Buffer, Rect) -> Void) -> String {
    var buffer = Buffer(width: width, height: height)
    draw(&buffer, buffer.area)
    return buffer.plainText()
}

/// Compares a rendered grid to an expected picture written as a multi-line literal.
/// Lines of `expected` may end with a `|` marker to make trailing spaces visible in review; it is removed.
func expectGrid(
    _ actual: String, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation
) {
    let cleaned = expected.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
        var line = String(line)
        if line.hasSuffix("|") { line.removeLast() }
        while line.last == " " { line.removeLast() }
        return line
    }.joined(separator: "\n")
    #expect(actual == cleaned, "\n--- actual ---\n\(actual)\n--- expected ---\n\(cleaned)", sourceLocation: sourceLocation)
}
