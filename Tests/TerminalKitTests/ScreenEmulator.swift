@testable import TerminalKit

/// A small terminal for encoder tests: it understands what `FrameEncoder` writes (cursor
/// position, erase display, SGR, cursor visibility, UTF-8 text measured with our width table) and
/// records anything else as an error.
struct ScreenEmulator {
    private(set) var screen: Buffer
    private(set) var cursor = Position.zero
    /// Hidden, as curses leaves it before the first frame.
    private(set) var isCursorVisible = false
    private(set) var errors: [String] = []
    private(set) var writes = 0
    private var pen = Cell.blank

    init(size: Size) {
        screen = Buffer(size: size)
    }

    /// Feeds one write's bytes.
    mutating func feed(_ bytes: [UInt8]) {
        writes += 1
        var index = 0
        var text: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == 0x1B else {
                text.append(byte)
                index += 1
                continue
            }
            flush(&text)
            guard index + 1 < bytes.count, bytes[index + 1] == 0x5B else {
                errors.append("ESC not followed by [ at \(index)")
                return
            }
            var end = index + 2
            while end < bytes.count, !(0x40...0x7E).contains(bytes[end]) { end += 1 }
            guard end < bytes.count else {
                errors.append("unterminated control sequence")
                return
            }
            let parameters = String(decoding: bytes[(index + 2)..<end], as: UTF8.self)
            control(parameters, final: Character(Unicode.Scalar(bytes[end])))
            index = end + 1
        }
        flush(&text)
    }

    private mutating func flush(_ text: inout [UInt8]) {
        defer { text.removeAll() }
        guard !text.isEmpty else { return }
        for character in String(decoding: text, as: UTF8.self) {
            let width = max(1, DisplayWidth.of(character))
            guard cursor.y < screen.height, cursor.x + width <= screen.width else {
                errors.append("text \(character) written at \(cursor), outside the screen")
                continue
            }
            var cell = pen
            cell.symbol = String(character)
            screen[cursor.x, cursor.y] = cell
            cursor.x += width
        }
    }

    private mutating func control(_ parameters: String, final: Character) {
        let numbers = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
        switch (final, parameters) {
        case ("H", _):
            let row = numbers.first.flatMap { $0 } ?? 1, column = numbers.count > 1 ? numbers[1] ?? 1 : 1
            cursor = Position(x: column - 1, y: row - 1)
        case ("J", "2"):
            screen = Buffer(size: screen.size)
        case ("h", "?25"):
            isCursorVisible = true
        case ("l", "?25"):
            isCursorVisible = false
        case ("m", _):
            selectGraphicRendition(numbers.map { $0 ?? 0 })
        default:
            errors.append("unexpected control sequence CSI \(parameters) \(final)")
        }
    }

    private mutating func selectGraphicRendition(_ codes: [Int]) {
        var index = 0
        while index < codes.count {
            let code = codes[index]
            switch code {
            case 0: pen = .blank
            case 1: pen.modifiers.insert(.bold)
            case 2: pen.modifiers.insert(.dim)
            case 3: pen.modifiers.insert(.italic)
            case 4: pen.modifiers.insert(.underline)
            case 7: pen.modifiers.insert(.reverse)
            case 30...37: pen.foreground = .indexed(UInt8(code - 30))
            case 39: pen.foreground = .default
            case 40...47: pen.background = .indexed(UInt8(code - 40))
            case 49: pen.background = .default
            case 90...97: pen.foreground = .indexed(UInt8(code - 90 + 8))
            case 100...107: pen.background = .indexed(UInt8(code - 100 + 8))
            case 38, 48:
                guard index + 2 < codes.count, codes[index + 1] == 5 else {
                    errors.append("malformed extended colour in \(codes)")
                    return
                }
                let color = Color.indexed(UInt8(codes[index + 2]))
                if code == 38 { pen.foreground = color } else { pen.background = color }
                index += 2
            default:
                errors.append("unexpected SGR \(code)")
            }
            index += 1
        }
    }
}
