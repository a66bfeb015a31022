/// xterm's mouse reports, read from the terminal's input once the app asked for them: SGR
/// (`ESC [ < code ; x ; y M` for a press or motion, `m` for a release; mode 1006) and, from
/// terminals that ignore 1006, the older `ESC [ M` followed by three bytes.
///
/// The code's bits: 0–1 the button (3: none), 4 Shift, 8 Alt, 16 Ctrl, 32 motion, 64 the wheel.
package enum MouseReport {
    /// The longest SGR report's text after `ESC [ <` (three numbers and two separators); anything
    /// longer is not a report.
    package static let maximumLength = 24

    /// The event an SGR report stands for: `parameters` is the text between `ESC [ <` and the
    /// final `M` (`released` false) or `m` (`released` true). Nil for what the app does not use
    /// (horizontal wheel, extra buttons, motion with no button held) and for malformed reports.
    package static func sgr(_ parameters: String, released: Bool) -> MouseEvent? {
        let numbers = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
        guard numbers.count == 3, let code = numbers[0], let x = numbers[1], let y = numbers[2] else { return nil }
        return event(code: code, x: x, y: y, released: released)
    }

    /// The event of an old-style report: the three bytes after `ESC [ M`, each offset by 32.
    package static func x10(_ bytes: [UInt32]) -> MouseEvent? {
        guard bytes.count == 3, bytes.allSatisfy({ $0 >= 32 }) else { return nil }
        let code = Int(bytes[0]) - 32
        // This format says "released" as button 3, without saying which.
        let released = code & 0b110_0011 == 3
        return event(code: released ? code & ~3 : code, x: Int(bytes[1]) - 32, y: Int(bytes[2]) - 32, released: released)
    }

    /// `x` and `y` count from 1.
    private static func event(code: Int, x: Int, y: Int, released: Bool) -> MouseEvent? {
        guard code >= 0, code < 128, x >= 1, y >= 1 else { return nil }
        var modifiers: KeyModifiers = []
        if code & 4 != 0 { modifiers.insert(.shift) }
        if code & 8 != 0 { modifiers.insert(.alt) }
        if code & 16 != 0 { modifiers.insert(.ctrl) }
        let button = code & 3
        let kind: MouseEvent.Kind
        if released {
            kind = .release
        } else if code & 64 != 0 {
            guard button < 2 else { return nil }
            kind = button == 0 ? .wheelUp : .wheelDown
        } else if button == 3 {
            return nil
        } else if code & 32 != 0 {
            kind = .motion
        } else {
            kind = .press([MouseButton.left, .middle, .right][button])
        }
        return MouseEvent(kind, at: Position(x: x - 1, y: y - 1), modifiers: modifiers)
    }
}
