import FoundationEssentials
import Synchronization
import SystemSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the signal handler writes: the write end of the watcher's pipe, or -1.
private let signalPipeWriteEnd = Atomic<Int32>(-1)

/// The process-wide handler: writes the signal number to the pipe and nothing else (all it does
/// is async-signal-safe).
private func forwardSignal(_ number: Int32) {
    let savedErrno = errno
    var byte = UInt8(truncatingIfNeeded: number)
    let descriptor = signalPipeWriteEnd.load(ordering: .relaxed)
    if descriptor >= 0 { _ = write(descriptor, &byte, 1) }
    errno = savedErrno
}

/// Turns SIGINT, SIGTERM, SIGHUP and SIGWINCH into calls on a private thread.
///
/// A real `sigaction` handler feeds a pipe (the self-pipe trick). Dispatch signal sources were
/// not used: on Linux they only see a signal when every thread blocks it, and a process-directed
/// SIGTERM could land on a thread that did not and be lost. Installing the handlers before curses
/// starts also keeps ncurses from adding its own.
final class SignalWatcher: Sendable {
    private static let terminating = [SIGINT, SIGTERM, SIGHUP]

    /// Starts watching; `terminate` gets SIGINT/SIGTERM/SIGHUP, `resize` gets SIGWINCH.
    func start(terminate: @escaping @Sendable (Int32) -> Void, resize: @escaping @Sendable () -> Void) {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else { return }
        _ = fcntl(descriptors[1], F_SETFL, fcntl(descriptors[1], F_GETFL) | O_NONBLOCK)
        _ = fcntl(descriptors[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(descriptors[1], F_SETFD, FD_CLOEXEC)
        signalPipeWriteEnd.store(descriptors[1], ordering: .relaxed)

        let input = descriptors[0]
        PosixThread.start {
            var bytes = [UInt8](repeating: 0, count: 64)
            while true {
                let count = read(input, &bytes, bytes.count)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                for byte in bytes[0..<count] {
                    let number = Int32(byte)
                    if number == SIGWINCH { resize() } else { terminate(number) }
                }
            }
            close(input)
        }

        for number in Self.terminating + [SIGWINCH] { install(number, handler: forwardSignal) }
    }

    /// Stops watching and gives the signals back their default actions (call once the terminal is restored).
    func stop() {
        let writeEnd = signalPipeWriteEnd.exchange(-1, ordering: .relaxed)
        guard writeEnd >= 0 else { return }
        for number in Self.terminating + [SIGWINCH] { signal(number, SIG_DFL) }
        close(writeEnd)  // the reader sees end of file and closes its end
    }

    private func install(_ number: Int32, handler: @escaping @convention(c) (Int32) -> Void) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        sigaction(number, &action, nil)
    }
}
