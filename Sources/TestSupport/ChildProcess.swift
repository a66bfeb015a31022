import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A child process started with `posix_spawn`, closing every inherited descriptor above 2.
/// Foundation's `Process` lets the child inherit open sockets (the other tests' servers and
/// clients run in this process), which keeps their connections from closing while it runs and
/// makes their timing tests fail.
public struct ChildProcess: @unchecked Sendable {
    /// The process could not be started.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// How a process ended and what it wrote.
    public struct Result: Sendable {
        /// The exit status, or 128 + the signal that ended it.
        public var status: Int32
        /// Standard output.
        public var stdout: Data
        /// Standard error.
        public var stderr: Data
        /// Standard output as text.
        public var output: String { String(decoding: stdout, as: UTF8.self) }
        /// Standard error as text.
        public var errors: String { String(decoding: stderr, as: UTF8.self) }
    }

    private typealias FileAction = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private typealias ChdirAction = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

    /// The child's process id.
    public let pid: pid_t
    /// The read end of the child's standard output.
    public let output: Int32
    /// The read end of the child's standard error.
    public let errors: Int32

    /// Starts `path` with `arguments`, an environment and a working directory; standard input is
    /// /dev/null, no signal is blocked and every signal has its default action.
    public init(_ path: String, _ arguments: [String], environment: [String: String], directory: String) throws {
        var outputPipe: [Int32] = [0, 0]
        var errorPipe: [Int32] = [0, 0]
        guard pipe(&outputPipe) == 0, pipe(&errorPipe) == 0 else { throw Failure(description: "pipe failed") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errorPipe[1], 2)
        guard let closeFrom = Self.symbol("posix_spawn_file_actions_addclosefrom_np", as: FileAction.self),
            let changeDirectory = Self.symbol("posix_spawn_file_actions_addchdir_np", as: ChdirAction.self)
        else { throw Failure(description: "this C library cannot close inherited descriptors in posix_spawn") }
        _ = directory.withCString { changeDirectory(&actions, $0) }
        _ = closeFrom(&actions, 3)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        Self.resetSignals(&attributes)
        var pid: pid_t = 0
        let status = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        close(outputPipe[1])
        close(errorPipe[1])
        guard status == 0 else {
            close(outputPipe[0])
            close(errorPipe[0])
            throw Failure(description: "cannot start \(path): \(String(cString: strerror(status)))")
        }
        self.pid = pid
        output = outputPipe[0]
        errors = errorPipe[0]
    }

    /// Reads both outputs to their end and waits for the exit (blocks: call off the test's executor).
    public func wait() -> Result {
        let group = DispatchGroup()
        nonisolated(unsafe) var errorData = Data()
        DispatchQueue.global().async(group: group) { errorData = Self.readAll(errors) }
        let outputData = Self.readAll(output)
        group.wait()
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        // Exit status when it exited, else 128 + the signal, as shells report it.
        let code = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return Result(status: code, stdout: outputData, stderr: errorData)
    }

    /// `wait()` on a global queue, so an async test's executor is not blocked meanwhile.
    public func finish() async -> Result {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: self.wait()) }
        }
    }

    /// The test runner blocks some signals; a child must start with none blocked and default
    /// handlers (tmux otherwise never sees its panes exit).
    static func resetSignals(_ attributes: inout posix_spawnattr_t) {
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

    private static func readAll(_ descriptor: Int32) -> Data {
        defer { close(descriptor) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count > 0 {
                data.append(contentsOf: buffer[0..<count])
            } else if count == 0 || errno != EINTR {
                return data
            }
        }
    }

    private static func symbol<T>(_ name: String, as type: T.Type) -> T? {
        guard let pointer = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
        return unsafeBitCast(pointer, to: type)
    }
}
