import CNcursesw
import TerminalKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns what `wget_wch` returns into key events.
struct CursesKeyDecoder {
    /// Modified cursor keys, which terminfo lists under extended names (kUP5 = Ctrl-Up …).
    private var extended: [Int32: KeyEvent] = [:]

    /// Looks up the extended key names of the current terminal (call after `newterm`, which must
    /// follow `use_extended_names(true)`).
    init() {
        let bases: [(String, Key)] = [
            ("kUP", .up), ("kDN", .down), ("kLFT", .left), ("kRIT", .right), ("kHOM", .home),
            ("kEND", .end), ("kNXT", .pageDown), ("kPRV", .pageUp), ("kDC", .delete), ("kIC", .insert),
        ]
        // xterm's modifier numbering: 2 Shift, 3 Alt, 4 Shift-Alt, 5 Ctrl, 6 Ctrl-Shift, 7 Ctrl-Alt, 8 all.
        let suffixes: [(String, KeyModifiers)] = [
            ("", .shift), ("3", .alt), ("4", [.shift, .alt]), ("5", .ctrl), ("6", [.ctrl, .shift]),
            ("7", [.ctrl, .alt]), ("8", [.ctrl, .alt, .shift]),
        ]
        for (base, key) in bases {
            for (suffix, modifiers) in suffixes {
                let code = nc_key_code_for_capability(base + suffix)
                if code > 0 { extended[code] = KeyEvent(key, modifiers: modifiers) }
            }
        }
    }

    /// A decoder with the extended keys given rather than read from terminfo (tests).
    init(extended: [Int32: KeyEvent]) {
        self.extended = extended
    }

    /// A character read in raw mode: control bytes become Ctrl-letters or named keys.
    func character(_ value: UInt32) -> KeyEvent? {
        switch value {
        case 0: return KeyEvent(.character(" "), modifiers: .ctrl)
        case 9: return KeyEvent(.tab)
        case 10, 13: return KeyEvent(.enter)
        case 27: return KeyEvent(.escape)
        case 8, 127: return KeyEvent(.backspace)
        case 1...26:
            guard let letter = Unicode.Scalar(value + 96) else { return nil }
            return KeyEvent(.character(Character(letter)), modifiers: .ctrl)
        case 28...31:
            guard let symbol = Unicode.Scalar(value + 64) else { return nil }
            return KeyEvent(.character(Character(symbol)), modifiers: .ctrl)
        default:
            guard let scalar = Unicode.Scalar(value), value >= 32 else { return nil }
            return KeyEvent(.character(Character(scalar)))
        }
    }

    /// A key code (KEY_*) read with keypad mode on.
    func functionKey(_ code: Int32) -> KeyEvent? {
        if let event = extended[code] { return event }
        if code >= nc_key_f(1) && code <= nc_key_f(63) { return KeyEvent(.function(Int(code - nc_key_f(0)))) }
        switch code {
        case KEY_UP: return KeyEvent(.up)
        case KEY_DOWN: return KeyEvent(.down)
        case KEY_LEFT: return KeyEvent(.left)
        case KEY_RIGHT: return KeyEvent(.right)
        case KEY_HOME: return KeyEvent(.home)
        case KEY_END: return KeyEvent(.end)
        case KEY_PPAGE: return KeyEvent(.pageUp)
        case KEY_NPAGE: return KeyEvent(.pageDown)
        case KEY_DC: return KeyEvent(.delete)
        case KEY_IC: return KeyEvent(.insert)
        case KEY_BACKSPACE: return KeyEvent(.backspace)
        case KEY_ENTER: return KeyEvent(.enter)
        case KEY_BTAB: return KeyEvent(.backTab)
        case KEY_SR: return KeyEvent(.up, modifiers: .shift)
        case KEY_SF: return KeyEvent(.down, modifiers: .shift)
        case KEY_SLEFT: return KeyEvent(.left, modifiers: .shift)
        case KEY_SRIGHT: return KeyEvent(.right, modifiers: .shift)
        case KEY_SHOME: return KeyEvent(.home, modifiers: .shift)
        case KEY_SEND: return KeyEvent(.end, modifiers: .shift)
        case KEY_SDC: return KeyEvent(.delete, modifiers: .shift)
        default: return nil
        }
    }
}
