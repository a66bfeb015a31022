#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process started with `posix_spawn`: no inherited descriptor above 2 (a child must not
/// keep the parent's sockets open), no blocked signal and every signal at its default action
/// (threads of a Swift program block some, and a pager must see Ctrl-C).
package final class ChildProcess: Sendable {
    /// Where a standard stream of the child goes.
    package enum Stream: Sendable, Hashable {
        /// `/dev/null`.
        case null
        /// A pipe to this process (`input`, `output` or `errors` holds its end).
        case pipe
        /// The same as this process's (the terminal, for a pager or editor).
        case inherit
    }

    /// How a process ended: its exit status, or 128 + the signal that ended it, as shells say.
    package typealias Status = Int32

    private typealias FileAction = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private typealias ChdirAction = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

    /// The child's process id.
    package let pid: pid_t
    /// The write end of the child's standard input, when it is `.pipe`.
    package let input: Int32?
    /// The read end of the child's standard output, when it is `.pipe`.
    package let output: Int32?
    /// The read end of the child's standard error, when it is `.pipe`.
    package let errors: Int32?

    /// Starts `path` with `arguments` and `environment`, in `directory` (nil: this process's); in a
    /// session of its own when `newSession` (no controlling terminal: nothing can ask on it).
    package init(
        _ path: String, _ arguments: [String], environment: [String: String], directory: String? = nil,
        input: Stream = .null, output: Stream = .pipe, errors: Stream = .pipe, newSession: Bool = false
    ) throws(SystemError) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var parentEnds: [Int32?] = [nil, nil, nil]
        var childEnds: [Int32] = []
        for (descriptor, stream) in [(Int32(0), input), (1, output), (2, errors)] {
            switch stream {
            case .inherit:
                continue
            case .null:
                posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
            case .pipe:
                var ends: [Int32] = [-1, -1]
                guard pipe(&ends) == 0 else {
                    (parentEnds.compactMap { $0 } + childEnds).forEach { close($0) }
                    throw SystemError("cannot create a pipe")
                }
                let (parentEnd, childEnd) = descriptor == 0 ? (ends[1], ends[0]) : (ends[0], ends[1])
                _ = fcntl(parentEnd, F_SETFD, FD_CLOEXEC)
                parentEnds[Int(descriptor)] = parentEnd
                childEnds.append(childEnd)
                posix_spawn_file_actions_adddup2(&actions, childEnd, descriptor)
            }
        }
        if let closeFrom = Self.symbol("posix_spawn_file_actions_addclosefrom_np", as: FileAction.self) {
            _ = closeFrom(&actions, 3)
        }
        if let directory, let changeDirectory = Self.symbol("posix_spawn_file_actions_addchdir_np", as: ChdirAction.self) {
            _ = directory.withCString { changeDirectory(&actions, $0) }
        }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        Self.resetSignals(&attributes)
        if newSession {
            var flags: Int16 = 0
            posix_spawnattr_getflags(&attributes, &flags)
            posix_spawnattr_setflags(&attributes, flags | Self.setSessionFlag)
        }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        childEnds.forEach { close($0) }
        guard status == 0 else {
            parentEnds.compactMap { $0 }.forEach { close($0) }
            throw SystemError("cannot start \(path)", number: status)
        }
        self.pid = pid
        self.input = parentEnds[0]
        self.output = parentEnds[1]
        self.errors = parentEnds[2]
    }

    /// Waits for the child to end and reaps it (blocks: call off the cooperative pool).
    package func wait() -> Status {
        waitMeasuring().status
    }

    /// Waits for the child to end and reaps it, with its own peak resident memory in bytes
    /// (`wait4`'s rusage: this child's alone, not the largest of all children).
    package func waitMeasuring() -> (status: Status, peakMemory: Int) {
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0, errno == EINTR {}
        #if canImport(Darwin)
        let peak = Int(usage.ru_maxrss)  // bytes on Darwin
        #else
        let peak = Int(usage.ru_maxrss) * 1024  // kilobytes on Linux
        #endif
        return ((status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F), peak)
    }

    /// Sends `signal` to the child (SIGKILL by default: it cannot be blocked or ignored).
    package func kill(_ signal: Int32 = SIGKILL) {
        sendSignal(signal, to: pid)
    }

    /// Starts the child with the terminal as its standard streams and waits for it: a pager or editor.
    package static func runInTerminal(_ path: String, _ arguments: [String], environment: [String: String]) throws(SystemError) -> Status {
        try ChildProcess(path, arguments, environment: environment, input: .inherit, output: .inherit, errors: .inherit).wait()
    }

    /// `POSIX_SPAWN_SETSID` (glibc defines it only for _GNU_SOURCE, which Swift does not import).
    #if os(Linux)
    private static let setSessionFlag: Int16 = 0x80
    #else
    private static let setSessionFlag = Int16(POSIX_SPAWN_SETSID)
    #endif

    /// A child must start with no signal blocked and default handlers (tmux never sees its panes
    /// exit otherwise, and `less` would ignore Ctrl-C).
    private static func resetSignals(_ attributes: inout posix_spawnattr_t) {
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        sigdelset(&allSignals, SIGKILL)
        sigdelset(&allSignals, SIGSTOP)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    }

    private static func symbol<T>(_ name: String, as type: T.Type) -> T? {
        guard let pointer = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
        return unsafeBitCast(pointer, to: type)
    }
}

/// `kill(2)`, outside `ChildProcess`, whose own `kill` would hide it.
private func sendSignal(_ signal: Int32, to pid: pid_t) {
    _ = kill(pid, signal)
}
