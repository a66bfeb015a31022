import Testing
@testable import TerminalKit
import TestTraits

@Suite("Buffer", .offPool)
struct BufferTests {
    @Test("Writes clip at the right edge and report the columns used")
    func rightEdge() {
        var buffer = Buffer(width: 5, height: 1)
        #expect(buffer.write("abcdefg", at: .zero) == 5)
        #expect(buffer.plainText() == "abcde")
        #expect(buffer.write("xyz", at: Position(x: 4, y: 0)) == 1)
        #expect(buffer.plainText() == "abcdx")
    }

    @Test("Writes outside the grid are dropped", arguments: [
        Position(x: -10, y: 0), Position(x: 0, y: -1), Position(x: 0, y: 3), Position(x: 7, y: 1), Position(x: 5, y: 0),
    ])
    func outside(position: Position) {
        var buffer = Buffer(width: 5, height: 3)
        buffer.write("中文abc", at: position)
        #expect(buffer == Buffer(width: 5, height: 3))
    }

    @Test("Left-edge clipping keeps the visible part, a halved wide glyph becomes a space")
    func leftEdge() {
        var buffer = Buffer(width: 4, height: 1)
        #expect(buffer.write("abcdef", at: Position(x: -2, y: 0)) == 6)
        #expect(buffer.plainText() == "cdef")
        var wide = Buffer(width: 4, height: 1)
        wide.write("中文", at: Position(x: -1, y: 0))
        #expect(wide.plainText() == " 文")
        #expect(wide[1, 0].symbol == "文" && wide[2, 0].isContinuation)
    }

    @Test("A wide glyph in the last column is replaced by a space and nothing is corrupted")
    func wideAtLastColumn() {
        var buffer = Buffer(width: 5, height: 2)
        #expect(buffer.write("abcd中", at: .zero) == 5)
        #expect(buffer.plainText(trimmingTrailingSpaces: false) == "abcd \n     ")
        #expect(!buffer[4, 0].isContinuation)
        #expect(buffer.cells.allSatisfy { !$0.isContinuation })
        var exact = Buffer(width: 2, height: 1)
        exact.write("中", at: .zero)
        #expect(exact[0, 0].symbol == "中" && exact[1, 0].isContinuation)
        var one = Buffer(width: 1, height: 1)
        one.write("中", at: .zero)
        #expect(one.plainText(trimmingTrailingSpaces: false) == " ")
        var limited = Buffer(width: 6, height: 1)
        #expect(limited.write("a中b", at: .zero, maxWidth: 2) == 2)
        #expect(limited.plainText() == "a")
    }

    @Test("Overwriting half of a wide glyph clears the other half")
    func overwriteHalves() {
        var buffer = Buffer(width: 6, height: 1)
        buffer.write("中文", at: .zero)
        buffer.write("x", at: Position(x: 1, y: 0))
        #expect(buffer.plainText() == " x文")
        buffer.write("y", at: Position(x: 2, y: 0))
        #expect(buffer.plainText() == " xy")
        #expect(buffer.cells.allSatisfy { !$0.isContinuation })
        buffer.write("日", at: Position(x: 3, y: 0))
        buffer.write("本", at: Position(x: 2, y: 0))
        #expect(buffer.plainText() == " x本")
        #expect(buffer[4, 0].symbol == " " && !buffer[4, 0].isContinuation)
    }

    @Test("ASCII text is written cell for cell as the general path writes it, wide pairs included")
    func asciiRunsMatchTheGeneralPath() {
        var generator = SeededGenerator(seed: 7)
        let glyphs = ["中", "文", "a", " ", "é", "🙂"]
        let pieces = ["a", "b", "xyz", " ", "\t", "\u{1B}", "\u{7F}", "-"]
        for _ in 0..<2_000 {
            var buffer = Buffer(width: 12, height: 2)
            for _ in 0..<6 {
                let glyph = glyphs[Int.random(in: 0..<glyphs.count, using: &generator)]
                buffer.write(glyph, at: Position(x: Int.random(in: 0..<12, using: &generator), y: Int.random(in: 0..<2, using: &generator)))
            }
            let text = (0..<Int.random(in: 0...6, using: &generator)).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &generator)] }.joined()
            let position = Position(x: Int.random(in: -4...13, using: &generator), y: Int.random(in: 0..<2, using: &generator))
            let maxWidth = Bool.random(using: &generator) ? nil : Int.random(in: 0...14, using: &generator)
            var fast = buffer
            var general = buffer
            let style = Style(foreground: .red, modifiers: .bold)
            let fastColumns = fast.write(text, at: position, style: style, maxWidth: maxWidth)
            // A zero-width space sends the text down the general path and draws nothing.
            let generalColumns = general.write(text + "\u{200B}", at: position, style: style, maxWidth: maxWidth)
            #expect(fast == general, "\(text.debugDescription) at \(position), maxWidth \(String(describing: maxWidth))")
            #expect(fastColumns == generalColumns)
        }
    }

    @Test("Control characters are dropped, tabs expand from the write position")
    func controlsAndTabs() {
        var buffer = Buffer(width: 20, height: 1)
        buffer.write("a\u{1B}b\u{7}c\td", at: Position(x: 2, y: 0))
        #expect(buffer.plainText() == "  abc     d")
    }

    @Test("Styles layer: fill then write keeps the background")
    func styleLayering() {
        var buffer = Buffer(width: 3, height: 1)
        buffer.fill(buffer.area, style: Style(background: .blue))
        buffer.write("ab", at: .zero, style: Style(foreground: .red, modifiers: .bold))
        #expect(buffer[0, 0] == Cell("a", foreground: .red, background: .blue, modifiers: .bold))
        #expect(buffer[2, 0] == Cell(" ", background: .blue))
        buffer.setStyle(Style(removing: .bold), in: buffer.area)
        #expect(buffer[1, 0].modifiers == [])
    }

    @Test("Subscript writes keep one grapheme and respect wide pairs")
    func subscriptWrites() {
        var buffer = Buffer(width: 3, height: 1)
        buffer[0, 0] = Cell("中")
        #expect(buffer[1, 0].isContinuation)
        buffer[2, 0] = Cell("中")
        #expect(buffer[2, 0].symbol == " ")
        buffer[1, 0] = Cell("xyz")
        #expect(buffer.plainText() == " x")
        buffer[5, 5] = Cell("q")
        buffer[0, 0] = Cell("\u{1B}")
        #expect(buffer[0, 0].symbol == " ")
    }

    @Test("Lines honour alignment in an area")
    func lineAlignment() {
        expectGrid(grid(10, 3) { buffer, area in
            buffer.write(Line("left"), in: area.row(0))
            buffer.write(Line("mid", alignment: .center), in: area.row(1))
            buffer.write(Line("right", alignment: .right), in: area.row(2))
        }, """
        left
           mid
             right
        """)
    }

    @Test("Zero-sized buffers accept everything without crashing")
    func zeroSize() {
        var buffer = Buffer(width: 0, height: 0)
        buffer.write("abc", at: .zero)
        buffer.fill(Rect(x: 0, y: 0, width: 5, height: 5))
        #expect(buffer.plainText() == "")
        #expect(buffer.diff(from: Buffer(width: 0, height: 0)).isEmpty)
        #expect(buffer.svg().contains("<svg"))
    }

    @Test("Paste copies cells with clipping")
    func paste() {
        var small = Buffer(width: 3, height: 1)
        small.write("a中", at: .zero)
        var big = Buffer(width: 4, height: 2)
        big.paste(small, at: Position(x: 2, y: 1))
        expectGrid(big.plainText(), """

          a
        """)
    }
}
