import CNcursesw
import SystemSupport
import TerminalKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Everything that touches curses, owned by the terminal's one thread and never shared.
final class CursesSession {
    private unowned let terminal: NcursesTerminal
    private let screen: OpaquePointer
    private let window: UnsafeMutablePointer<WINDOW>
    private var palette: CursesPalette
    private var keys: CursesKeyDecoder
    /// What the screen shows, to diff the next frame against; nil forces a full redraw.
    private var drawn: Buffer?
    /// The last frame presented, redrawn after a resize or a suspension.
    private var lastFrame: Frame?
    private var cursorVisibility: Int32 = -1
    private var glyph: [wchar_t] = []
    private(set) var size: Size

    init(terminal: NcursesTerminal) throws(NcursesTerminalError) {
        self.terminal = terminal
        setlocale(LC_ALL, "")
        // With no locale set at all (a bare container, a cron job) glibc picks plain ASCII and
        // ncurses would mangle every box line and symbol; C.UTF-8 is built into glibc.
        if let codeset = nl_langinfo(nl_item(CODESET)), String(cString: codeset) == "ANSI_X3.4-1968" {
            setlocale(LC_CTYPE, "C.UTF-8")
        }
        // Extended key names (kLFT5 = Ctrl-Left …) are only loaded when asked for before newterm.
        use_extended_names(true)
        guard let screen = newterm(nil, nc_stdout_file(), nc_stdin_file()) else {
            let name = ProcessEnvironment.variables["TERM"] ?? "(unset)"
            throw .initializationFailed("ncurses does not know the terminal type TERM=\(name)")
        }
        set_term(screen)
        guard let window = nc_stdscr() else {
            endwin()
            delscreen(screen)
            throw .initializationFailed("ncurses did not create a screen")
        }
        self.screen = screen
        self.window = window
        raw()
        noecho()
        nonl()
        keypad(window, true)
        nodelay(window, true)
        intrflush(window, false)
        set_escdelay(Int32(clamping: terminal.options.escapeDelay))
        leaveok(window, true)
        curs_set(0)
        if terminal.options.enablesMouse {
            let clicks = nc_button1_pressed() | nc_button1_released() | nc_button2_pressed() | nc_button2_released()
                | nc_button3_pressed() | nc_button3_released()
            mousemask(clicks | nc_button4_pressed() | nc_button5_pressed(), nil)
            mouseinterval(0)
        }
        palette = CursesPalette(usesColor: terminal.options.usesColor ?? !Self.noColorRequested())
        keys = CursesKeyDecoder()
        glyph.reserveCapacity(Int(CCHARW_MAX) + 1)
        size = Size(width: Int(nc_cols()), height: Int(nc_lines()))
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
            if let frame {
                lastFrame = frame
                draw(frame)
            } else if drawn == nil, let lastFrame {
                draw(lastFrame)
            }
            if !sequences.isEmpty { writeRaw(sequences.joined()) }
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
        var pendingEscape = false
        while true {
            var character: wint_t = 0
            let status = wget_wch(window, &character)
            if status == ERR { break }
            var event: TerminalEvent?
            if status == KEY_CODE_YES {
                switch Int32(character) {
                case KEY_RESIZE: checkSize()
                case KEY_MOUSE: event = readMouse()
                default: event = keys.functionKey(Int32(character)).map(TerminalEvent.key)
                }
            } else if character == 27 && !pendingEscape {
                // Esc followed at once by another key is Alt plus that key.
                pendingEscape = true
                continue
            } else {
                event = keys.character(UInt32(character)).map(TerminalEvent.key)
            }
            if pendingEscape, case .key(var key)? = event {
                key.modifiers.insert(.alt)
                event = .key(key)
            } else if pendingEscape {
                terminal.continuation.yield(.key(KeyEvent(.escape)))
            }
            pendingEscape = false
            if let event { terminal.continuation.yield(event) }
        }
        if pendingEscape { terminal.continuation.yield(.key(KeyEvent(.escape))) }
    }

    private func readMouse() -> TerminalEvent? {
        var mouse = MEVENT()
        guard getmouse(&mouse) == OK else { return nil }
        let state = mouse.bstate
        let position = Position(x: Int(mouse.x), y: Int(mouse.y))
        var modifiers: KeyModifiers = []
        if state & nc_button_shift() != 0 { modifiers.insert(.shift) }
        if state & nc_button_ctrl() != 0 { modifiers.insert(.ctrl) }
        if state & nc_button_alt() != 0 { modifiers.insert(.alt) }
        let kind: MouseEvent.Kind
        if state & nc_button4_pressed() != 0 {
            kind = .wheelUp
        } else if state & nc_button5_pressed() != 0 {
            kind = .wheelDown
        } else if state & nc_button1_pressed() != 0 {
            kind = .press(.left)
        } else if state & nc_button2_pressed() != 0 {
            kind = .press(.middle)
        } else if state & nc_button3_pressed() != 0 {
            kind = .press(.right)
        } else if state & (nc_button1_released() | nc_button2_released() | nc_button3_released()) != 0 {
            kind = .release
        } else {
            return nil
        }
        return .mouse(MouseEvent(kind, at: position, modifiers: modifiers))
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
        drawn = nil
        terminal.shared.withLock { $0.size = current }
        terminal.continuation.yield(.resize(current))
    }

    // MARK: Drawing

    private func draw(_ frame: Frame) {
        let buffer = frame.buffer
        let updates: [CellUpdate]
        if let drawn, drawn.size == buffer.size {
            updates = buffer.diff(from: drawn)
        } else {
            // Erased, the window is blank cells: only the others are put (most of a first frame is blank).
            werase(window)
            updates = buffer.diff(from: Buffer(size: buffer.size))
        }
        let rows = Int(nc_lines()), columns = Int(nc_cols())
        for update in updates where update.position.y < rows {
            for (offset, cell) in update.cells.enumerated() where !cell.isContinuation {
                let x = update.position.x + offset
                guard x < columns else { break }
                put(cell, x: x, y: update.position.y, columns: columns)
            }
        }
        drawn = buffer
        if let cursor = frame.cursor, cursor.x >= 0, cursor.y >= 0, cursor.x < columns, cursor.y < rows {
            setCursorVisibility(1)
            leaveok(window, false)
            wmove(window, Int32(cursor.y), Int32(cursor.x))
        } else {
            setCursorVisibility(0)
            leaveok(window, true)
        }
        wnoutrefresh(window)
        doupdate()
    }

    private func put(_ cell: Cell, x: Int, y: Int, columns: Int) {
        let scalars = cell.symbol.unicodeScalars
        guard let first = scalars.first else { return }
        glyph.removeAll(keepingCapacity: true)
        glyph.append(wchar_t(bitPattern: first.value))
        // curses keeps a spacing character plus up to four combining ones; a ZWJ sequence keeps its first emoji.
        for scalar in scalars.dropFirst() {
            if scalar.value == 0x200D || glyph.count == Int(CCHARW_MAX) { break }
            if nc_wcwidth(wchar_t(bitPattern: scalar.value)) != 0 { break }
            glyph.append(wchar_t(bitPattern: scalar.value))
        }
        glyph.append(0)
        let attributes = palette.attributes(for: cell.modifiers)
        let pair = palette.pair(foreground: cell.foreground, background: cell.background)
        var character = cchar_t()
        _ = nc_setcchar(&character, glyph, attributes, pair)
        mvwadd_wchnstr(window, Int32(y), Int32(x), &character, 1)
        // Our table says 2 columns where the C library says 1 (e.g. "❤️"): blank the second column
        // so curses' idea of the screen matches ours.
        if cell.symbol.displayWidth == 2, nc_wcwidth(wchar_t(bitPattern: first.value)) == 1, x + 1 < columns {
            glyph.removeAll(keepingCapacity: true)
            glyph.append(32)
            glyph.append(0)
            _ = nc_setcchar(&character, glyph, attributes, pair)
            mvwadd_wchnstr(window, Int32(y), Int32(x + 1), &character, 1)
        }
    }

    private func setCursorVisibility(_ visibility: Int32) {
        guard visibility != cursorVisibility else { return }
        cursorVisibility = visibility
        curs_set(visibility)
    }

    private func writeRaw(_ bytes: String) {
        var bytes = Array(bytes.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { raw -> Int in
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
        terminal.shared.withLock { $0.isSuspended = true }
        def_prog_mode()
        endwin()
        job()
        reset_prog_mode()
        terminal.shared.withLock { $0.isSuspended = false }
        // The child drew over everything: repaint the whole screen, not just the changes.
        clearok(nc_curscr(), true)
        drawn = nil
        cursorVisibility = -1
    }

    private func tearDown() {
        curs_set(1)
        endwin()
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
