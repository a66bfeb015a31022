import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A program started on a pseudo-terminal of its own (its standard input, output and error, in a
/// session of its own with the terminal as its controlling one): what it writes is read from the
/// terminal's other end, exactly as a terminal emulator would receive it.
package final class PseudoTerminal {
    /// A failure to open the terminal or start the program.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// Linux's TIOCSPTLCK, TIOCGPTN and glibc's POSIX_SPAWN_SETSID (not in Glibc's Swift module).
    private static let setLock: UInt32 = 0x4004_5431
    private static let getNumber: UInt32 = 0x8004_5430
    private static let spawnNewSession: Int16 = 0x80

    /// The terminal's end this process reads and writes.
    package let master: Int32
    /// The program's process id.
    package let pid: pid_t
    /// When the program was started.
    package let started: ContinuousClock.Instant

    /// Starts `path` with `arguments` on a new terminal of `size`.
    package init(_ path: String, arguments: [String] = [], environment: [String: String], size: (columns: Int, rows: Int) = (120, 40)) throws {
        // posix_openpt, unlockpt and ptsname, by hand: Glibc's Swift module leaves them out.
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard master >= 0 else { throw Failure(description: "cannot open a pseudo-terminal") }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard ioctl(master, UInt(Self.setLock), &unlock) == 0, ioctl(master, UInt(Self.getNumber), &number) == 0 else {
            close(master)
            throw Failure(description: "cannot unlock the pseudo-terminal")
        }
        let slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        guard slave >= 0 else {
            close(master)
            throw Failure(description: "cannot open the pseudo-terminal's slave end")
        }
        var window = winsize(ws_row: UInt16(size.rows), ws_col: UInt16(size.columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(slave, UInt(TIOCSWINSZ), &window)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor: Int32 in [0, 1, 2] { posix_spawn_file_actions_adddup2(&actions, slave, descriptor) }
        posix_spawn_file_actions_addclose(&actions, slave)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Self.spawnNewSession)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }

        started = ContinuousClock.now
        var pid: pid_t = 0
        let status = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        close(slave)
        guard status == 0 else {
            close(master)
            throw Failure(description: "cannot start \(path): \(String(cString: strerror(status)))")
        }
        self.master = master
        self.pid = pid
    }

    deinit {
        close(master)
    }

    /// Reads what the program writes until it exits (or `timeout` passes: then it is killed), and
    /// returns its exit status (128 + the signal that ended it) and every byte it wrote.
    package func finish(timeout: Duration = .seconds(60)) -> (status: Int32, output: [UInt8]) {
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let deadline = ContinuousClock.now + timeout
        var exitStatus: Int32 = 0
        var exited = false
        while ContinuousClock.now < deadline {
            var poller = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, 50) > 0 {
                let count = read(master, &buffer, buffer.count)
                if count > 0 {
                    output += buffer[0..<count]
                    continue
                }
                // EIO: every slave end is closed, the program is gone.
                break
            }
            if !exited, waitpid(pid, &exitStatus, WNOHANG) == pid { exited = true }
            if exited {
                // What is still in the terminal's buffer is read before giving up.
                var last = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
                if poll(&last, 1, 0) <= 0 { break }
            }
        }
        if !exited {
            if waitpid(pid, &exitStatus, WNOHANG) == 0 {
                kill(pid, SIGKILL)
                waitpid(pid, &exitStatus, 0)
            }
        }
        let status: Int32 = (exitStatus & 0x7F) == 0 ? (exitStatus >> 8) & 0xFF : 128 + (exitStatus & 0x7F)
        return (status, output)
    }

    /// Reads what the program writes until `marker` has appeared (true), it exits or `timeout`
    /// passes (false). What was read is in `received`.
    package func waitForOutput(containing marker: String, timeout: Duration = .seconds(60)) -> Bool {
        let needle = Array(marker.utf8)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if received.count >= needle.count, received.indices.dropLast(needle.count - 1).contains(where: { received[$0..<($0 + needle.count)].elementsEqual(needle) }) {
                return true
            }
            var poller = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            let count = read(master, &buffer, buffer.count)
            guard count > 0 else { return false }
            received += buffer[0..<count]
        }
        return false
    }

    /// What `waitForOutput` read.
    package private(set) var received: [UInt8] = []

    /// Writes `text` to the program as typed.
    package func type(_ text: String) {
        _ = text.withCString { write(master, $0, strlen($0)) }
    }
}
