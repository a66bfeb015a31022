#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Asks a question on the controlling terminal (`/dev/tty`), so it works while standard input
/// and output are redirected; a secret answer is not echoed.
package enum TerminalQuestion {
    /// Whether a terminal can be asked (the process has a controlling terminal).
    package static var isAvailable: Bool {
        let descriptor = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        close(descriptor)
        return true
    }

    /// Writes `question`, reads one line; nil when there is no terminal or it was closed (Ctrl-D).
    package static func ask(_ question: String, secret: Bool = false) -> String? {
        let descriptor = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        try? FileDescriptor.writeAll(Array(question.utf8), to: descriptor)
        var saved = termios()
        let hidesEcho = secret && tcgetattr(descriptor, &saved) == 0
        if hidesEcho {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(descriptor, TCSAFLUSH, &quiet)
        }
        defer {
            if hidesEcho {
                tcsetattr(descriptor, TCSAFLUSH, &saved)
                try? FileDescriptor.writeAll(Array("\n".utf8), to: descriptor)
            }
        }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = read(descriptor, &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count == 1 else { return line.isEmpty ? nil : String(decoding: line, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") { break }
            if byte != UInt8(ascii: "\r") { line.append(byte) }
        }
        return String(decoding: line, as: UTF8.self)
    }
}
