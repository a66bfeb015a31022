import Dispatch
import FoundationEssentials
import Synchronization
import SystemSupport
import TerminalKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why the ncurses terminal could not start.
package enum NcursesTerminalError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Standard input or output is not a terminal (piped or redirected).
    case notATerminal
    /// ncurses refused to start, e.g. because `TERM` is unset or unknown.
    case initializationFailed(String)

    /// A sentence for the user.
    package var description: String {
        switch self {
        case .notATerminal: return "standard input and output must be a terminal (use `snapshot` for headless output)"
        case .initializationFailed(let reason): return "cannot start the terminal interface: \(reason)"
        }
    }
}

/// The real terminal, driven through ncursesw. The only type in the project that calls curses.
///
/// One dedicated thread owns every curses call. It sleeps in `poll()` on standard input and a
/// wake-up pipe with no timeout, so an idle app does no work. `present` only stores the latest
/// frame and writes the pipe; the thread then draws the cells that changed since the last frame
/// it drew (everything after a resize or a suspension).
///
/// Signals: SIGINT, SIGTERM and SIGHUP are caught (`SignalWatcher`). On any of them the thread
/// restores the terminal (`endwin`) and the `events` stream finishes; `terminationSignal` then
/// tells which signal it was (a runtime exits with 128 + signal). Should the program not have
/// ended `terminationGrace` later, it is ended then, with that status. A fatal signal (a crash)
/// restores the terminal before its report is printed (`CrashRescue`).
/// In raw mode Ctrl-C does not raise SIGINT: it arrives as the key event `C-c`.
/// Children started while suspended inherit SIG_IGN for those signals unless their spawner resets
/// them (Foundation's `Process` does).
///
/// Usage (a complete manual demo: draw, echo keys, quit on `q`):
/// ```swift
/// let terminal = try NcursesTerminal()
/// func draw(_ text: String) {
///     var buffer = Buffer(size: terminal.size)
///     Block(title: "demo 中文", isFocused: true).render(into: &buffer, area: buffer.area)
///     buffer.write(text, at: Position(x: 2, y: 1), style: Style(foreground: .green))
///     terminal.present(Frame(buffer: buffer))
/// }
/// draw("press keys, q quits")
/// for await event in terminal.events {
///     if case .key(let key) = event, key == .character("q") { break }
///     draw("\(event)")
/// }
/// terminal.shutdown()
/// ```
///
/// Clipboard: `writeControlSequence` writes OSC 52 as given. Inside tmux it reaches the outer
/// terminal when tmux has `set-clipboard on` (tmux then sets its own buffer and forwards it).
package final class NcursesTerminal: TerminalDevice {
    /// Start-up choices.
    package struct Options: Sendable {
        /// Report mouse clicks, drags and the wheel (terminal text selection then needs Shift-drag).
        package var enablesMouse: Bool
        /// Use colours; nil decides from the environment (`NO_COLOR` set and non-empty → no colours).
        package var usesColor: Bool?
        /// Milliseconds to wait after Esc for the rest of an escape sequence.
        package var escapeDelay: Int

        /// Creates options.
        package init(enablesMouse: Bool = true, usesColor: Bool? = nil, escapeDelay: Int = 25) {
            self.enablesMouse = enablesMouse
            self.usesColor = usesColor
            self.escapeDelay = escapeDelay
        }
    }

    /// State shared between callers and the curses thread.
    struct Shared {
        var size = Size.zero
        var pendingFrame: Frame?
        var controlSequences: [String] = []
        var jobs: [@Sendable () -> Void] = []
        var isShutdownRequested = false
        var isStopped = false
        var isSuspended = false
        var terminationSignal: Int32?
        var ownerThread: pthread_t?
        var startupError: NcursesTerminalError?
    }

    let shared = Mutex(Shared())
    let wakePipe: WakePipe
    let continuation: AsyncStream<TerminalEvent>.Continuation
    let options: Options
    private let stopped = DispatchGroup()
    private let signalWatcher: SignalWatcher

    /// Keys, mouse actions and resizes; finishes after `shutdown()` or a terminating signal.
    package let events: AsyncStream<TerminalEvent>

    /// Takes over the terminal: starts the curses thread and returns at once, so the app can start
    /// (and read its catalogs) while curses sets up the screen; frames presented meanwhile are drawn
    /// when it is ready. If curses cannot start (an unknown `TERM`), `events` finishes and
    /// `startupError` says why.
    package init(options: Options = Options()) throws(NcursesTerminalError) {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { throw .notATerminal }
        guard let pipe = WakePipe() else { throw .initializationFailed("cannot create a wake-up pipe") }
        self.options = options
        wakePipe = pipe
        (events, continuation) = AsyncStream.makeStream(of: TerminalEvent.self, bufferingPolicy: .unbounded)
        signalWatcher = SignalWatcher()
        shared.withLock { $0.size = Self.windowSize() }

        // Watch signals before curses starts, so ncurses leaves SIGWINCH to us.
        signalWatcher.start(
            terminate: { [weak self] signal in self?.handle(terminatingSignal: signal) },
            resize: { [weak self] in self?.wakePipe.wake() }
        )

        stopped.enter()
        let started = PosixThread.start { [self] in
            shared.withLock { $0.ownerThread = pthread_self() }
            do throws(NcursesTerminalError) {
                let session = try CursesSession(terminal: self)
                let guessed = shared.withLock { state in
                    defer { state.size = session.size }
                    return state.size
                }
                if guessed != session.size { continuation.yield(.resize(session.size)) }
                session.run()
            } catch {
                shared.withLock {
                    $0.startupError = error
                    $0.isStopped = true
                }
                signalWatcher.stop()
                continuation.finish()
            }
            stopped.leave()
        }
        guard started else {
            stopped.leave()
            signalWatcher.stop()
            continuation.finish()
            throw .initializationFailed("cannot start the terminal's thread")
        }
    }

    /// Why curses could not start, once it has tried; nil while starting and after a good start.
    package var startupError: NcursesTerminalError? { shared.withLock { $0.startupError } }

    /// The terminal's size as the kernel knows it, before curses starts (80×24 when unknown).
    private static func windowSize() -> Size {
        var window = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 else {
            return Size(width: 80, height: 24)
        }
        return Size(width: Int(window.ws_col), height: Int(window.ws_row))
    }

    deinit {
        wakePipe.close()
    }

    /// The current size in cells.
    package var size: Size { shared.withLock { $0.size } }

    /// The signal that stopped the terminal, if one did.
    package var terminationSignal: Int32? { shared.withLock { $0.terminationSignal } }

    /// Stores the frame as the next one to draw and wakes the curses thread.
    package func present(_ frame: Frame) {
        let accepted = shared.withLock { state -> Bool in
            guard !state.isStopped else { return false }
            state.pendingFrame = frame
            return true
        }
        if accepted { wakePipe.wake() }
    }

    /// Queues raw bytes for the tty; they are written right after the next flush.
    package func writeControlSequence(_ bytes: String) {
        let accepted = shared.withLock { state -> Bool in
            guard !state.isStopped else { return false }
            state.controlSequences.append(bytes)
            return true
        }
        if accepted { wakePipe.wake() }
    }

    /// Leaves curses mode, runs `body` on the curses thread (no input is read meanwhile), then
    /// restores the terminal and redraws everything. After shutdown, `body` simply runs.
    package func suspend<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<Result, any Error>) in
            let job: @Sendable () -> Void = {
                do { waiter.resume(returning: try body()) } catch { waiter.resume(throwing: error) }
            }
            let queued = shared.withLock { state -> Bool in
                guard !state.isStopped else { return false }
                state.jobs.append(job)
                return true
            }
            if queued { wakePipe.wake() } else { job() }
        }
    }

    /// Restores the terminal and finishes `events`; waits until the screen is restored.
    /// Idempotent and safe from any thread, including from inside a `suspend` body.
    package func shutdown() {
        shared.withLock { $0.isShutdownRequested = true }
        wakePipe.wake()
        let owner = shared.withLock { $0.ownerThread }
        if let owner, pthread_equal(owner, pthread_self()) != 0 { return }
        stopped.wait()
        signalWatcher.stop()
    }

    private func handle(terminatingSignal signal: Int32) {
        let first = shared.withLock { state -> Bool? in
            // While a child owns the tty, Ctrl-C is the child's business.
            if signal == SIGINT && state.isSuspended { return nil }
            let first = state.terminationSignal == nil
            if first { state.terminationSignal = signal }
            state.isShutdownRequested = true
            return first
        }
        guard let first else { return }
        wakePipe.wake()
        // The program ends the usual way (the terminal restored, state saved, 128 + signal); if
        // something holds it up beyond the grace, it ends anyway: a closed terminal must never
        // leave a process behind, whatever it was doing.
        if first {
            PosixThread.start {
                var wait = timespec(tv_sec: Int(Self.terminationGrace.components.seconds), tv_nsec: 0)
                var left = timespec()
                while nanosleep(&wait, &left) != 0 && errno == EINTR { wait = left }
                CrashRescue.restoreTerminal()
                _exit(128 + signal)
            }
        }
    }

    /// How long a terminating signal waits for the usual ending before the process is ended.
    static let terminationGrace: Duration = .seconds(1)
}
