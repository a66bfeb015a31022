import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Starts a program on a pseudo-terminal of its own and times how long it takes to write markers:
/// launch to first complete frame as the program sees it, with no terminal emulator (and no
/// emulator's polling) in between.
enum PseudoTerminalLaunch {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Linux's TIOCSPTLCK, TIOCGPTN and glibc's POSIX_SPAWN_SETSID (not in Glibc's Swift module).
    private static let setLock: UInt32 = 0x4004_5431
    private static let getNumber: UInt32 = 0x8004_5430
    private static let spawnNewSession: Int16 = 0x80

    /// Milliseconds from `posix_spawn` to every one of `markers` appearing in what the program wrote;
    /// then sends `quit` and waits for the program to exit.
    static func time(_ path: String, arguments: [String] = [], environment: [String: String], size: (columns: Int, rows: Int),
        markers: [String], quit: String = "q") throws -> Double
    {
        // posix_openpt, unlockpt and ptsname, by hand: Glibc's Swift module leaves them out.
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        guard master >= 0 else { throw Failure(description: "cannot open a pseudo-terminal") }
        defer { close(master) }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard ioctl(master, UInt(Self.setLock), &unlock) == 0, ioctl(master, UInt(Self.getNumber), &number) == 0 else {
            throw Failure(description: "cannot unlock the pseudo-terminal")
        }
        let slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        guard slave >= 0 else { throw Failure(description: "cannot open the pseudo-terminal's slave end") }
        var window = winsize(ws_row: UInt16(size.rows), ws_col: UInt16(size.columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(slave, UInt(TIOCSWINSZ), &window)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor: Int32 in [0, 1, 2] { posix_spawn_file_actions_adddup2(&actions, slave, descriptor) }
        posix_spawn_file_actions_addclose(&actions, master)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Self.spawnNewSession)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }

        let started = ContinuousClock.now
        var pid: pid_t = 0
        let status = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        close(slave)
        guard status == 0 else { throw Failure(description: "cannot start \(path): \(String(cString: strerror(status)))") }

        let needles = markers.map { Array($0.utf8) }
        var seen: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var elapsed: Duration?
        let deadline = started + .seconds(10)
        while elapsed == nil, ContinuousClock.now < deadline {
            var poller = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            let count = read(master, &buffer, buffer.count)
            guard count > 0 else { break }
            seen += buffer[0..<count]
            if needles.allSatisfy({ needle in seen.count >= needle.count && seen.indices.dropLast(needle.count - 1).contains { seen[$0..<($0 + needle.count)].elementsEqual(needle) } }) {
                elapsed = ContinuousClock.now - started
            }
        }
        _ = quit.withCString { write(master, $0, strlen($0)) }
        // Keep reading so the program never blocks on a full terminal while it quits.
        var exitStatus: Int32 = 0
        while waitpid(pid, &exitStatus, WNOHANG) == 0 {
            var poller = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, 50) > 0, read(master, &buffer, buffer.count) <= 0 { break }
        }
        if waitpid(pid, &exitStatus, WNOHANG) == 0 {
            kill(pid, SIGKILL)
            waitpid(pid, &exitStatus, 0)
        }
        guard let elapsed else { throw Failure(description: "\(markers) did not all appear") }
        return elapsed.nanoseconds / 1e6
    }
}
