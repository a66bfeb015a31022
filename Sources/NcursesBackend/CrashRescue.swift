import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Gives the terminal back before a crash report is printed. While curses holds the terminal
/// (raw mode, the alternate screen, mouse reports), a handler for the fatal signals (SIGSEGV,
/// SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP) writes the bytes that leave the alternate screen and
/// restores the tty's settings as they were before curses, then hands the signal to whatever
/// handled it before (the Swift runtime's backtracer, or the default action): the report lands
/// on the normal screen, readable, in a shell that echoes again.
///
/// Everything the handler does itself is async-signal-safe: it reads a block prepared beforehand
/// through an atomic address, calls `write`, `tcsetattr`, `signal`, `pthread_sigmask` and `raise`.
enum CrashRescue {
    /// What the handler restores: prepared by `arm`, taken once by the handler or `disarm`.
    private struct Block {
        var settings: termios
        var length: Int
        var bytes: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
    }

    static let signals = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP]

    /// The block's address while armed, 0 otherwise (an address: pointers are not `Sendable`).
    private static let armed = Atomic<UInt>(0)
    /// The address of the actions the signals had before ours, by signal number (installed once,
    /// kept for good), 0 before.
    private static let previous = Atomic<UInt>(0)

    /// Arms the rescue: on a fatal signal, `settings` go back on standard input and `leaving`
    /// (at most 128 bytes) is written to standard output. Installs the handlers the first time.
    static func arm(settings: termios, leaving: [UInt8]) {
        let block = UnsafeMutablePointer<Block>.allocate(capacity: 1)
        block.initialize(to: Block(settings: settings, length: 0, bytes: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
        let count = min(leaving.count, MemoryLayout.size(ofValue: block.pointee.bytes))
        withUnsafeMutableBytes(of: &block.pointee.bytes) { raw in raw.copyBytes(from: leaving.prefix(count)) }
        block.pointee.length = count
        installHandlers()
        let earlier = armed.exchange(UInt(bitPattern: block), ordering: .acquiringAndReleasing)
        UnsafeMutablePointer<Block>(bitPattern: earlier)?.deallocate()
    }

    /// Disarms it (the terminal was restored the usual way).
    static func disarm() {
        // Not freed: a handler on another thread may have taken it a moment ago.
        _ = armed.exchange(0, ordering: .acquiringAndReleasing)
    }

    /// Restores the terminal now if armed (async-signal-safe); true when it did.
    @discardableResult
    static func restoreTerminal() -> Bool {
        guard let block = UnsafeMutablePointer<Block>(bitPattern: armed.exchange(0, ordering: .acquiringAndReleasing)) else { return false }
        withUnsafeBytes(of: &block.pointee.bytes) { raw in
            var offset = 0
            while offset < block.pointee.length {
                let written = write(STDOUT_FILENO, raw.baseAddress! + offset, block.pointee.length - offset)
                if written <= 0 { break }
                offset += written
            }
        }
        _ = tcsetattr(STDIN_FILENO, TCSANOW, &block.pointee.settings)
        return true
    }

    private static func installHandlers() {
        guard previous.load(ordering: .acquiring) == 0 else { return }
        let saved = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
        saved.initialize(repeating: sigaction(), count: 65)
        for number in signals { sigaction(number, nil, saved + Int(number)) }
        guard previous.compareExchange(expected: 0, desired: UInt(bitPattern: saved), ordering: .acquiringAndReleasing).exchanged else {
            saved.deallocate()
            return
        }
        var action = sigaction()
        action.__sigaction_handler.sa_sigaction = handleFatalSignal
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_SIGINFO | SA_ONSTACK
        for number in signals { sigaction(number, &action, nil) }
    }

    /// The handler: the terminal first, then the earlier handler (the runtime's backtracer prints
    /// its report, seeing the real place), then the signal's default action, so the process ends
    /// as the signal says (a signal sent with `kill` would otherwise leave it running).
    fileprivate static func handle(_ number: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _ context: UnsafeMutableRawPointer?) {
        restoreTerminal()
        if let saved = UnsafeMutablePointer<sigaction>(bitPattern: previous.load(ordering: .acquiring)) {
            let earlier = saved + Int(number)
            if earlier.pointee.sa_flags & SA_SIGINFO != 0, let handler = earlier.pointee.__sigaction_handler.sa_sigaction {
                handler(number, info, context)
            } else if let handler = earlier.pointee.__sigaction_handler.sa_handler, unsafeBitCast(handler, to: Int.self) > 1 {
                handler(number)  // neither SIG_DFL (0) nor SIG_IGN (1)
            }
        }
        signal(number, SIG_DFL)
        var only = sigset_t()
        sigemptyset(&only)
        sigaddset(&only, number)
        pthread_sigmask(SIG_UNBLOCK, &only, nil)
        raise(number)
        _exit(128 + number)
    }
}

private func handleFatalSignal(_ number: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _ context: UnsafeMutableRawPointer?) {
    CrashRescue.handle(number, info, context)
}
