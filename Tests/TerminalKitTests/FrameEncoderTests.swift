import Testing
@testable import TerminalKit
import TestTraits

@Suite("Frame encoder", .offPool)
struct FrameEncoderTests {
    /// The cells' looks and symbols, as `ScreenEmulator` and the frame both hold them.
    private func expectScreen(_ emulator: ScreenEmulator, shows buffer: Buffer, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(emulator.errors.isEmpty, "\(emulator.errors)", sourceLocation: sourceLocation)
        #expect(emulator.screen == buffer, "\n\(emulator.screen.plainText())\n--- wanted ---\n\(buffer.plainText())", sourceLocation: sourceLocation)
    }

    @Test("Random frames, one after another, end up on the screen exactly as drawn")
    func randomFrames() {
        var generator = SeededGenerator(seed: 0xF4A3E)
        let symbols = ["a", "b", "Z", " ", "é", "─", "│", "…", "中", "文", "😀", "✓", "{"]
        let colors: [Color] = [.default, .red, .brightBlue, .indexed(236), .indexed(196), .white]
        let modifiers: [Modifiers] = [[], .bold, .dim, [.bold, .underline], .reverse, .italic]
        for round in 0..<150 {
            let size = Size(width: Int.random(in: 1...24, using: &generator), height: Int.random(in: 1...6, using: &generator))
            // Every other round with a terminal that measures scalars as our table does: the
            // encoder then asks it about each glyph (and remembers the answer for repeats).
            var encoder = round.isMultiple(of: 2) ? FrameEncoder(colorCount: 256) : FrameEncoder(colorCount: 256, terminalWidth: { DisplayWidth.of($0) })
            var emulator = ScreenEmulator(size: size)
            var buffer = Buffer(size: size)
            for _ in 0..<6 {
                for _ in 0..<Int.random(in: 0...(size.width * size.height), using: &generator) {
                    let cell = Cell(
                        symbols.randomElement(using: &generator)!, foreground: colors.randomElement(using: &generator)!,
                        background: colors.randomElement(using: &generator)!, modifiers: modifiers.randomElement(using: &generator)!)
                    buffer[Int.random(in: 0..<size.width, using: &generator), Int.random(in: 0..<size.height, using: &generator)] = cell
                }
                let cursor = Bool.random(using: &generator) ? Position(x: Int.random(in: 0..<size.width, using: &generator), y: 0) : nil
                emulator.feed(encoder.encode(Frame(buffer: buffer, cursor: cursor)))
                expectScreen(emulator, shows: buffer)
                #expect(emulator.isCursorVisible == (cursor != nil))
                if let cursor { #expect(emulator.cursor == cursor) }
            }
        }
    }

    @Test("A frame that changes nothing writes nothing; a change writes only the changed cells")
    func onlyChanges() {
        var encoder = FrameEncoder(colorCount: 256)
        var buffer = Buffer(width: 20, height: 3)
        buffer.write("hello world", at: .zero)
        _ = encoder.encode(Frame(buffer: buffer))
        #expect(encoder.encode(Frame(buffer: buffer)).isEmpty)
        buffer.write("J", at: Position(x: 6, y: 0))
        #expect(String(decoding: encoder.encode(Frame(buffer: buffer)), as: UTF8.self) == "\u{1B}[1;7HJ")
    }

    @Test("The first frame, and the next after invalidate(), clear the screen and draw only what is not blank")
    func fullRedraw() {
        var encoder = FrameEncoder(colorCount: 256)
        var buffer = Buffer(width: 10, height: 2)
        buffer.write("hi", at: Position(x: 3, y: 1))
        let first = String(decoding: encoder.encode(Frame(buffer: buffer)), as: UTF8.self)
        #expect(first == "\u{1B}[0m\u{1B}[H\u{1B}[2J\u{1B}[2;4Hhi")
        encoder.invalidate()
        var emulator = ScreenEmulator(size: buffer.size)
        emulator.feed(Array("garbage".utf8))
        emulator.feed(encoder.encode(Frame(buffer: buffer)))
        expectScreen(emulator, shows: buffer)
    }

    @Test("Colours are fitted to the terminal: 16 and 8 colours, and none at all")
    func colorCounts() {
        var buffer = Buffer(width: 3, height: 1)
        buffer[0, 0] = Cell("a", foreground: .brightRed)
        buffer[1, 0] = Cell("b", foreground: .indexed(196), background: .indexed(236))
        buffer[2, 0] = Cell("c", modifiers: .bold)
        func drawn(colors: Int) -> String {
            var encoder = FrameEncoder(colorCount: colors)
            return String(decoding: encoder.encode(Frame(buffer: buffer)), as: UTF8.self)
        }
        #expect(drawn(colors: 256).hasSuffix("\u{1B}[91ma\u{1B}[38;5;196;48;5;236mb\u{1B}[1;39;49mc"))
        #expect(drawn(colors: 16).hasSuffix("\u{1B}[91ma\u{1B}[40mb\u{1B}[1;39;49mc"))
        #expect(drawn(colors: 8).hasSuffix("\u{1B}[31ma\u{1B}[40mb\u{1B}[1;39;49mc"))
        #expect(drawn(colors: 0).hasSuffix("ab\u{1B}[1mc"))
    }

    @Test("Dropping a modifier resets the attributes and sets the rest again")
    func modifierRemoval() {
        var buffer = Buffer(width: 2, height: 1)
        buffer[0, 0] = Cell("a", foreground: .green, modifiers: [.bold, .underline])
        buffer[1, 0] = Cell("b", foreground: .green, modifiers: .underline)
        var encoder = FrameEncoder(colorCount: 256)
        #expect(String(decoding: encoder.encode(Frame(buffer: buffer)), as: UTF8.self).hasSuffix("\u{1B}[1;4;32ma\u{1B}[0;4;32mb"))
    }

    @Test("A glyph the terminal measures narrower than we do is padded, and the next cell placed again")
    func terminalWidthDisagreement() {
        var buffer = Buffer(width: 4, height: 1)
        buffer.write("❤️x", at: .zero)
        #expect(buffer[0, 0].symbol == "❤️" && buffer[1, 0].isContinuation)
        var encoder = FrameEncoder(colorCount: 256, terminalWidth: { $0.value == 0x2764 ? 1 : 2 })
        let drawn = String(decoding: encoder.encode(Frame(buffer: buffer)), as: UTF8.self)
        #expect(drawn.hasSuffix("\u{1B}[2J❤️ \u{1B}[1;3Hx"))
        var agreeing = FrameEncoder(colorCount: 256, terminalWidth: { _ in 2 })
        #expect(String(decoding: agreeing.encode(Frame(buffer: buffer)), as: UTF8.self).hasSuffix("\u{1B}[2J❤️\u{1B}[1;3Hx"))
        var wide = Buffer(width: 4, height: 1)
        wide.write("中x", at: .zero)
        var trusted = FrameEncoder(colorCount: 256, terminalWidth: { _ in 2 })
        #expect(String(decoding: trusted.encode(Frame(buffer: wide)), as: UTF8.self).hasSuffix("\u{1B}[2J中x"))
    }

    @Test("Cells beyond the terminal's size are left out (a frame drawn for an older size)")
    func clippedToScreen() {
        var buffer = Buffer(width: 8, height: 3)
        buffer.write("abcdefgh", at: .zero)
        buffer.write("12345678", at: Position(x: 0, y: 2))
        var encoder = FrameEncoder(colorCount: 256)
        var emulator = ScreenEmulator(size: Size(width: 5, height: 2))
        emulator.feed(encoder.encode(Frame(buffer: buffer, cursor: Position(x: 6, y: 0)), screenSize: emulator.screen.size))
        #expect(emulator.errors.isEmpty)
        #expect(emulator.screen.plainText() == "abcde\n")
        #expect(!emulator.isCursorVisible)
    }

    @Test("Escape sequences in text never reach the terminal: the buffer drops control characters")
    func noInjectedControls() {
        var buffer = Buffer(width: 30, height: 1)
        buffer.write("a\u{1B}[31mb\u{9B}2Jc\u{7}", at: .zero)
        buffer[20, 0] = Cell("")
        var encoder = FrameEncoder(colorCount: 256)
        var emulator = ScreenEmulator(size: buffer.size)
        let bytes = encoder.encode(Frame(buffer: buffer))
        emulator.feed(bytes)
        #expect(emulator.errors.isEmpty)
        #expect(!bytes.contains(0x07) && !String(decoding: bytes, as: UTF8.self).contains("\u{9B}"))
        #expect(bytes.filter { $0 == 0x1B }.count == 4)  // reset, home, clear, and the move to the last cell
    }
}

/// SplitMix64, as CatalogTests' fuzz tests use it (TestSupport, where one could be shared, would
/// bring SwiftNIO into this small target): the same sequence on every run.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
