/// Turns frames into the bytes that draw them on a terminal that speaks ECMA-48 (xterm and its
/// kin, tmux, screen, the Linux console …): the cells that changed since the previous frame, with
/// cursor moves and SGR colours, ready for one `write`.
///
/// One write per frame matters: an emulator such as tmux reads and redraws after every write it
/// gets, and curses flushes at each cursor move (about 50 writes for a first frame).
///
/// The encoder remembers what the screen shows. `invalidate()` forgets it (after a resize, or
/// when another program drew on the terminal), and the next frame clears and redraws everything.
///
/// Text from responses never reaches the terminal as control characters: a `Buffer` keeps none
/// (its cells drop them), so every escape sequence in the output is the encoder's own.
package struct FrameEncoder {
    /// Columns the terminal itself gives a scalar (the C library's `wcwidth`), so a glyph our
    /// table measures differently (an emoji with U+FE0F, an East Asian ambiguous character) does
    /// not shift the rest of its row: the cursor is placed again after it.
    package typealias TerminalWidth = (Unicode.Scalar) -> Int

    private let colorCodes: [Int16]
    private let terminalWidth: TerminalWidth?
    private var drawn: Buffer?
    private var pen: Pen?
    /// Whether the terminal shows its cursor now (set it when something else showed or hid it).
    package var isCursorVisible: Bool

    /// Makes an encoder.
    /// - Parameters:
    ///   - colorCount: colours the terminal has (256, 16, 8, or 0 for none: then only modifiers are drawn).
    ///   - terminalWidth: the terminal's width of a scalar, when it may differ from `DisplayWidth`.
    ///   - isCursorVisible: whether the terminal shows its cursor now.
    package init(colorCount: Int, terminalWidth: TerminalWidth? = nil, isCursorVisible: Bool = false) {
        colorCodes = (0...255).map { index in
            Color.indexed(UInt8(index)).fitted(toColorCount: colorCount).map(Int16.init) ?? -1
        }
        self.terminalWidth = terminalWidth
        self.isCursorVisible = isCursorVisible
    }

    /// Forgets what the screen shows: the next frame clears the screen and draws every cell.
    package mutating func invalidate() {
        drawn = nil
        pen = nil
    }

    /// The bytes that turn the screen into `frame`; empty when nothing changed.
    package mutating func encode(_ frame: Frame, screenSize: Size? = nil) -> [UInt8] {
        var output: [UInt8] = []
        encode(frame, screenSize: screenSize, into: &output)
        return output
    }

    /// Appends the bytes that turn the screen into `frame` to `output`. Cells beyond `screenSize`
    /// (the terminal's size, when a frame drawn for an older size arrives) are left out.
    package mutating func encode(_ frame: Frame, screenSize: Size? = nil, into output: inout [UInt8]) {
        let buffer = frame.buffer
        let screen = screenSize ?? buffer.size
        let runs: [ChangedRun]
        var cursor: Position? = nil
        if let drawn, drawn.size == buffer.size, pen != nil {
            runs = buffer.changedRuns(from: drawn)
        } else {
            // Cleared, the screen is blank cells: only the others are drawn (most of a first frame is blank).
            output.append(contentsOf: Self.clearScreen)
            pen = Pen()
            cursor = .zero
            runs = buffer.changedRuns(from: nil)
        }
        output.reserveCapacity(output.count + runs.reduce(0) { $0 + $1.columns.count * 4 })
        let width = buffer.width
        // The last wider-than-ASCII symbol and how it measures: borders repeat one glyph along a
        // row and down a column, and measuring a symbol costs far more than comparing it.
        var glyph: Glyph? = nil
        buffer.cells.withUnsafeBufferPointer { cells in
            for run in runs where run.y < screen.height {
                let y = run.y
                for x in run.columns {
                    let index = y * width + x
                    if cells[index].isContinuation { continue }
                    let symbol = cells[index].symbol
                    // One ASCII byte is one column and goes out as it is; anything else is measured.
                    let ascii = symbol.utf8.count == 1 ? symbol.utf8.first : nil
                    if ascii == nil, glyph?.symbol != symbol { glyph = Glyph(symbol, terminalWidth: terminalWidth) }
                    guard x + (ascii == nil ? glyph?.columns ?? 1 : 1) <= screen.width else { break }
                    if cursor != Position(x: x, y: y) { Self.appendMove(to: Position(x: x, y: y), into: &output) }
                    setPen(Pen(cells[index], colorCodes: colorCodes), into: &output)
                    if let ascii {
                        output.append(ascii)
                        cursor = Position(x: x + 1, y: y)
                    } else if let glyph {
                        cursor = put(glyph, at: Position(x: x, y: y), into: &output)
                    }
                }
            }
        }
        drawn = buffer
        placeCursor(frame.cursor, screen: screen, cursor: cursor, into: &output)
    }

    /// Columns a symbol takes by our table: 1 or 2.
    private static func columns(of symbol: String) -> Int {
        if symbol.utf8.count == 1 { return 1 }
        let scalars = symbol.unicodeScalars
        guard let first = scalars.first else { return 1 }
        let width = scalars.index(after: scalars.startIndex) == scalars.endIndex ? DisplayWidth.of(first) : symbol.displayWidth
        return min(2, max(1, width))
    }

    /// Writes a symbol that is not a single ASCII byte; returns where the terminal's cursor is
    /// now, nil when unsure.
    private func put(_ glyph: Glyph, at position: Position, into output: inout [UInt8]) -> Position? {
        guard !glyph.symbol.isEmpty else {
            output.append(0x20)
            return Position(x: position.x + 1, y: position.y)
        }
        output.append(contentsOf: glyph.symbol.utf8)
        guard let theirs = glyph.terminalColumns else { return Position(x: position.x + glyph.columns, y: position.y) }
        if theirs == glyph.columns && glyph.isSingleScalar { return Position(x: position.x + glyph.columns, y: position.y) }
        if glyph.columns == 2 && theirs == 1 {
            // The terminal moves one column where we reserved two: blank the second, as the frame has it.
            output.append(0x20)
        }
        return nil
    }

    /// Shows the cursor where the frame wants it, or hides it.
    private mutating func placeCursor(_ wanted: Position?, screen: Size, cursor: Position?, into output: inout [UInt8]) {
        if let wanted, wanted.x >= 0, wanted.y >= 0, wanted.x < screen.width, wanted.y < screen.height {
            if cursor != wanted { Self.appendMove(to: wanted, into: &output) }
            if !isCursorVisible { output.append(contentsOf: Self.showCursor) }
            isCursorVisible = true
        } else if isCursorVisible {
            output.append(contentsOf: Self.hideCursor)
            isCursorVisible = false
        }
    }

    private mutating func setPen(_ wanted: Pen, into output: inout [UInt8]) {
        guard let current = pen, current != wanted else { return }
        output.append(contentsOf: [0x1B, 0x5B])  // CSI
        var first = true
        func parameter(_ value: Int) {
            if !first { output.append(0x3B) }
            first = false
            Self.appendDecimal(value, into: &output)
        }
        let resets = !current.modifiers.subtracting(wanted.modifiers).isEmpty
        if resets { parameter(0) }
        let base = resets ? Pen() : current
        for (modifier, code) in Self.modifierCodes where wanted.modifiers.contains(modifier) && !base.modifiers.contains(modifier) {
            parameter(code)
        }
        // A fitted colour code: -1 the terminal's default (39/49), 0–7 and 8–15 the ANSI colours, else 38;5;n.
        func color(_ code: Int16, base: Int, bright: Int) {
            switch code {
            case ..<0: parameter(base + 9)
            case 0..<8: parameter(base + Int(code))
            case 8..<16: parameter(bright + Int(code) - 8)
            default:
                parameter(base + 8)
                parameter(5)
                parameter(Int(code))
            }
        }
        if wanted.foreground != base.foreground { color(wanted.foreground, base: 30, bright: 90) }
        if wanted.background != base.background { color(wanted.background, base: 40, bright: 100) }
        output.append(0x6D)  // m
        pen = wanted
    }

    private static func appendMove(to position: Position, into output: inout [UInt8]) {
        output.append(contentsOf: [0x1B, 0x5B])
        appendDecimal(position.y + 1, into: &output)
        output.append(0x3B)
        appendDecimal(position.x + 1, into: &output)
        output.append(0x48)  // H
    }

    private static func appendDecimal(_ value: Int, into output: inout [UInt8]) {
        if value >= 10 { appendDecimal(value / 10, into: &output) }
        output.append(UInt8(0x30 + value % 10))
    }

    private static let modifierCodes: [(Modifiers, Int)] = [(.bold, 1), (.dim, 2), (.italic, 3), (.underline, 4), (.reverse, 7)]
    /// Default attributes, cursor home, erase the display.
    private static let clearScreen: [UInt8] = Array("\u{1B}[0m\u{1B}[H\u{1B}[2J".utf8)
    private static let showCursor: [UInt8] = Array("\u{1B}[?25h".utf8)
    private static let hideCursor: [UInt8] = Array("\u{1B}[?25l".utf8)
}

extension FrameEncoder {
    /// A symbol other than one ASCII byte, measured: by our table, and by the terminal's `wcwidth`
    /// (of its first scalar) when the encoder has one.
    fileprivate struct Glyph {
        let symbol: String
        /// Columns by our table: 1 or 2.
        let columns: Int
        /// Columns the terminal gives the first scalar; nil when the encoder has no `terminalWidth`
        /// (or for the empty symbol).
        let terminalColumns: Int?
        let isSingleScalar: Bool

        init(_ symbol: String, terminalWidth: TerminalWidth?) {
            self.symbol = symbol
            columns = FrameEncoder.columns(of: symbol)
            let scalars = symbol.unicodeScalars
            if let first = scalars.first {
                terminalColumns = terminalWidth?(first)
                isSingleScalar = scalars.index(after: scalars.startIndex) == scalars.endIndex
            } else {
                terminalColumns = nil
                isSingleScalar = false
            }
        }
    }

    /// The attributes the terminal draws with: colours as fitted codes (-1 for the default).
    fileprivate struct Pen: Equatable {
        var foreground: Int16 = -1
        var background: Int16 = -1
        var modifiers: Modifiers = []

        init() {}

        init(_ cell: Cell, colorCodes: [Int16]) {
            foreground = cell.foreground.index.map { colorCodes[Int($0)] } ?? -1
            background = cell.background.index.map { colorCodes[Int($0)] } ?? -1
            modifiers = cell.modifiers
        }
    }
}
