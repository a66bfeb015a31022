import CNcursesw
import SystemSupport
import TerminalKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Everything that touches curses, owned by the terminal's one thread and never shared.
///
/// Curses sets the terminal up (modes, alternate screen, keypad), reads keys and restores the
/// terminal; frames are drawn by a `FrameEncoder` and reach the tty in one write each. Curses
/// itself never draws: keys are read from a pad, which `wget_wch` does not refresh. Mouse reports
/// are asked for and read here, not by curses: curses merges a press into the motion that follows
/// it in the same read, and a drag of the border would then never start.
final class CursesSession {
    private unowned let terminal: NcursesTerminal
    private let screen: OpaquePointer
    /// Where keys are read (a 1×1 pad).
    private let input: UnsafeMutablePointer<WINDOW>
    private var keys: CursesKeyDecoder
    /// The start of an escape sequence read so far (a mouse report may arrive in two reads).
    private var prefix = InputPrefix.none
    private var encoder: FrameEncoder
    /// True when the screen no longer shows the last frame (a resize, a suspension).
    private var isScreenStale = false
    /// The last frame presented, redrawn after a resize or a suspension.
    private var lastFrame: Frame?
    private var output: [UInt8] = []
    private(set) var size: Size

    init(terminal: NcursesTerminal) throws(NcursesTerminalError) {
        self.terminal = terminal
        // Only the character set: curses needs it for wide characters, and the other categories
        // (numbers, messages …) are a dozen more files to read at every launch.
        setlocale(LC_CTYPE, "")
        // With no locale set at all (a bare container, a cron job) glibc picks plain ASCII and
        // ncurses would mangle every box line and symbol; C.UTF-8 is built into glibc.
        if let codeset = nl_langinfo(nl_item(CODESET)), String(cString: codeset) == "ANSI_X3.4-1968" {
            setlocale(LC_CTYPE, "C.UTF-8")
        }
        // The tty as the shell left it: what a crash puts back (`CrashRescue`).
        var shellSettings = termios()
        let hasShellSettings = tcgetattr(STDIN_FILENO, &shellSettings) == 0
        // Extended key names (kLFT5 = Ctrl-Left …) are only loaded when asked for before newterm.
        use_extended_names(true)
        guard let screen = newterm(nil, nc_stdout_file(), nc_stdin_file()) else {
            let name = ProcessEnvironment.variables["TERM"] ?? "(unset)"
            throw .initializationFailed("ncurses does not know the terminal type TERM=\(name)")
        }
        set_term(screen)
        guard nc_can_address_cursor() else {
            endwin()
            delscreen(screen)
            let name = ProcessEnvironment.variables["TERM"] ?? "(unset)"
            throw .initializationFailed("the terminal type TERM=\(name) cannot move the cursor")
        }
        guard let input = newpad(1, 1) else {
            endwin()
            delscreen(screen)
            throw .initializationFailed("ncurses did not create a screen")
        }
        self.screen = screen
        self.input = input
        raw()
        noecho()
        nonl()
        keypad(input, true)
        nodelay(input, true)
        intrflush(input, false)
        set_escdelay(Int32(clamping: terminal.options.escapeDelay))
        curs_set(0)
        // Mouse reports come in as plain characters (`ESC [ <` is no key), read by `readInput`.
        keyok(KEY_MOUSE, false)
        let usesColor = terminal.options.usesColor ?? !Self.noColorRequested()
        encoder = FrameEncoder(
            colorCount: usesColor ? Int(max(0, nc_terminal_colors())) : 0,
            terminalWidth: { Int(nc_wcwidth(wchar_t(bitPattern: $0.value))) })
        keys = CursesKeyDecoder()
        size = Size(width: Int(nc_cols()), height: Int(nc_lines()))
        rescue = hasShellSettings ? (shellSettings, Self.leavingSequence(mouse: terminal.options.enablesMouse)) : nil
        setMouseReports(on: true)
        armRescue()
    }

    /// What a crash restores, while curses holds the terminal.
    private let rescue: (settings: termios, leaving: [UInt8])?

    private func armRescue() {
        if let rescue { CrashRescue.arm(settings: rescue.settings, leaving: rescue.leaving) }
    }

    /// The bytes that undo what curses and this session set: mouse reports off, plain colours, the
    /// cursor shown, keypad mode off and the alternate screen left (terminfo's, else xterm's).
    private static func leavingSequence(mouse: Bool) -> [UInt8] {
        func capability(_ name: String, _ fallback: String) -> String {
            nc_terminfo_string(name).map { String(cString: $0) } ?? fallback
        }
        let text = (mouse ? "\u{1B}[?1006;1002;1000l" : "") + "\u{1B}[0m" + capability("cnorm", "\u{1B}[?25h")
            + capability("rmkx", "") + capability("rmcup", "\u{1B}[?1049l")
        return Array(text.utf8)
    }

    /// Asks the terminal for mouse reports, or stops them: presses, releases and the wheel, and the
    /// motion of a held button (xterm mode 1002, for drags; 1003, every motion, stays off so moving
    /// the pointer over the app sends nothing), in the SGR format (1006: any column, and which
    /// button went up).
    private func setMouseReports(on: Bool) {
        guard terminal.options.enablesMouse else { return }
        output.removeAll(keepingCapacity: true)
        output.append(contentsOf: (on ? "\u{1B}[?1000;1002;1006h" : "\u{1B}[?1006;1002;1000l").utf8)
        writeOutput()
    }

    /// `NO_COLOR` set to anything non-empty (https://no-color.org).
    private static func noColorRequested() -> Bool {
        guard let value = ProcessEnvironment.variables["NO_COLOR"] else { return false }
        return !value.isEmpty
    }

    // MARK: Loop

    /// Serves the terminal until shutdown: apply work, draw, then sleep in poll() with no timeout.
    func run() {
        while true {
            let work = terminal.shared.withLock { state in
                defer {
                    state.pendingFrame = nil
                    state.controlSequences = []
                    state.jobs = []
                }
                return (state.pendingFrame, state.controlSequences, state.jobs, state.isShutdownRequested)
            }
            let (frame, sequences, jobs, isShutdownRequested) = work
            if isShutdownRequested { break }
            for job in jobs { runSuspended(job) }
            checkSize()
            output.removeAll(keepingCapacity: true)
            if let frame {
                lastFrame = frame
                encoder.encode(frame, screenSize: size, into: &output)
            } else if isScreenStale, let lastFrame {
                encoder.encode(lastFrame, screenSize: size, into: &output)
            }
            isScreenStale = false
            for sequence in sequences { output.append(contentsOf: sequence.utf8) }
            writeOutput()
            if !waitForInput() { break }
        }
        tearDown()
    }

    /// Blocks until input or a wake-up; false when the tty is gone.
    private func waitForInput() -> Bool {
        var descriptors = [
            pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
            pollfd(fd: terminal.wakePipe.readDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        let ready = poll(&descriptors, 2, -1)
        if ready < 0 { return errno == EINTR }
        if descriptors[1].revents != 0 { terminal.wakePipe.drain() }
        let input = descriptors[0].revents
        if input & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
            // The tty is gone (checked first: a hung-up tty also polls readable and would spin).
            terminal.shared.withLock { state in
                if state.terminationSignal == nil { state.terminationSignal = SIGHUP }
            }
            return false
        }
        if input & Int16(POLLIN) != 0 { readInput() }
        return true
    }

    private func readInput() {
        while true {
            var character: wint_t = 0
            let status = wget_wch(input, &character)
            if status == ERR { break }
            if status == KEY_CODE_YES {
                let code = Int32(character)
                if code == KEY_RESIZE {
                    endSequence()
                    checkSize()
                } else {
                    let event = keys.functionKey(code)
                    endSequence(before: event)
                }
            } else {
                read(UInt32(character))
            }
        }
        // Esc alone, or Alt-[ alone: curses waited for the rest already. A mouse report cut
        // between two reads goes on with the next.
        switch prefix {
        case .escape, .bracket: endSequence()
        case .none, .sgr, .x10: break
        }
    }

    /// One character: a key, or part of an escape sequence.
    private func read(_ character: UInt32) {
        switch prefix {
        case .none:
            if character == 27 {
                prefix = .escape
                return
            }
        case .escape:
            if character == 0x5B {  // [
                prefix = .bracket
                return
            }
        case .bracket:
            if character == 0x3C {  // <
                prefix = .sgr("")
                return
            }
            if character == 0x4D {  // M
                prefix = .x10([])
                return
            }
        case .sgr(var text):
            prefix = .none
            if let scalar = Unicode.Scalar(character), scalar == ";" || ("0"..."9").contains(scalar), text.count < MouseReport.maximumLength {
                text.unicodeScalars.append(scalar)
                prefix = .sgr(text)
            } else if character == 0x4D || character == 0x6D {  // M, m
                if let event = MouseReport.sgr(text, released: character == 0x6D) { terminal.continuation.yield(.mouse(event)) }
            }
            // Anything else ends a malformed report, and is dropped with it.
            return
        case .x10(var bytes):
            bytes.append(character)
            if bytes.count < 3 {
                prefix = .x10(bytes)
            } else {
                prefix = .none
                if let event = MouseReport.x10(bytes) { terminal.continuation.yield(.mouse(event)) }
            }
            return
        }
        endSequence(before: keys.character(character))
    }

    /// Ends what `prefix` held before `key` (nil: nothing follows): Esc then a key is Alt plus
    /// that key, `ESC [` not followed by a mouse report is Alt-[; a cut report is dropped.
    private func endSequence(before key: KeyEvent? = nil) {
        var key = key
        switch prefix {
        case .none, .sgr, .x10:
            break
        case .escape:
            if key != nil {
                key?.modifiers.insert(.alt)
            } else {
                terminal.continuation.yield(.key(KeyEvent(.escape)))
            }
        case .bracket:
            terminal.continuation.yield(.key(KeyEvent(.character("["), modifiers: .alt)))
        }
        prefix = .none
        if let key { terminal.continuation.yield(.key(key)) }
    }

    // MARK: Size

    /// Follows the tty's real size (SIGWINCH only wakes us) and reports changes once.
    private func checkSize() {
        var rows: Int32 = 0, columns: Int32 = 0
        if nc_tty_size(STDOUT_FILENO, &rows, &columns) == 0, rows > 0, columns > 0,
            rows != nc_lines() || columns != nc_cols() {
            resizeterm(rows, columns)
        }
        let current = Size(width: Int(nc_cols()), height: Int(nc_lines()))
        guard current != size else { return }
        size = current
        encoder.invalidate()
        isScreenStale = true
        terminal.shared.withLock { $0.size = current }
        terminal.continuation.yield(.resize(current))
    }

    // MARK: Output

    /// Writes `output` to the tty in one go (more only if the tty takes part of it).
    private func writeOutput() {
        var offset = 0
        while offset < output.count {
            let written = output.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return Glibc.write(STDOUT_FILENO, base + offset, raw.count - offset)
            }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { break }
            offset += written
        }
    }

    // MARK: Suspension and teardown

    private func runSuspended(_ job: @Sendable () -> Void) {
        // The child owns the terminal meanwhile: a crash must not write over it.
        CrashRescue.disarm()
        defer { armRescue() }
        terminal.shared.withLock { $0.isSuspended = true }
        setMouseReports(on: false)
        def_prog_mode()
        endwin()
        job()
        reset_prog_mode()
        // Curses takes the terminal back (alternate screen, keypad, mouse, hidden cursor) on its
        // first update after endwin; the screen it updates is blank.
        doupdate()
        setMouseReports(on: true)
        terminal.shared.withLock { $0.isSuspended = false }
        // The child drew over everything: repaint the whole screen, not just the changes.
        encoder.invalidate()
        encoder.isCursorVisible = false
        isScreenStale = true
    }

    private func tearDown() {
        CrashRescue.disarm()
        setMouseReports(on: false)
        output.removeAll(keepingCapacity: true)
        output.append(contentsOf: "\u{1B}[0m".utf8)
        writeOutput()
        curs_set(1)
        endwin()
        delwin(input)
        delscreen(screen)
        let orphans = terminal.shared.withLock { state in
            defer {
                state.isStopped = true
                state.pendingFrame = nil
                state.controlSequences = []
                state.jobs = []
            }
            return state.jobs
        }
        for job in orphans { job() }
        terminal.continuation.finish()
    }
}

/// What `CursesSession` has read of an escape sequence curses passed on as characters.
private enum InputPrefix {
    case none
    /// Esc.
    case escape
    /// `ESC [`.
    case bracket
    /// `ESC [ <` and the report's text so far.
    case sgr(String)
    /// `ESC [ M` and the report's bytes so far.
    case x10([UInt32])
}
