import Foundation

/// Drives a program in a private tmux server, as a person would: keys in, screen text out.
package final class TmuxSession: @unchecked Sendable {
    /// The private server's socket name.
    package let socket: String
    /// The session's name.
    package let name = "e2e"
    private var isClosed = false

    /// Starts `command` in a detached session of the given size. The pane stays open after the
    /// command ends (so its last output can be read).
    package init(command: String, width: Int = 120, height: Int = 40, environment: [String: String] = [:]) throws {
        socket = "apiexplorer-tmux-\(UUID().uuidString.prefix(8))"
        let exports = environment.map { "export \($0.key)=\(TmuxSession.quote($0.value)); " }.joined()
        let script = "\(exports)\(command); status=$?; echo; echo EXIT=$status; stty -a | tr '\\n' ' ' | sed 's/^/STTY: /'; echo; sleep 600"
        try run([
            "-f", "/dev/null", "new-session", "-d", "-s", name, "-x", "\(width)", "-y", "\(height)",
            "env TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 sh -c \(TmuxSession.quote(script))",
        ])
    }

    deinit { close() }

    /// Ends the tmux server and everything in it.
    package func close() {
        guard !isClosed else { return }
        isClosed = true
        let socketPath = (try? run(["display-message", "-p", "#{socket_path}"]))?.trimmingCharacters(in: .whitespacesAndNewlines)
        _ = try? run(["kill-server"])
        if let socketPath, !socketPath.isEmpty { try? FileManager.default.removeItem(atPath: socketPath) }
    }

    /// The pane's text now.
    package func capture() async throws -> String {
        try await runAway(["capture-pane", "-p", "-J", "-t", name])
    }

    /// The pane's text with everything that scrolled off above it (a crash's whole backtrace).
    package func captureWithHistory() async throws -> String {
        try await runAway(["capture-pane", "-p", "-J", "-S", "-", "-t", name])
    }

    /// Whether the pane's program has ended: the session's script printed its exit status and the
    /// terminal's settings after it, and nothing more will come. (Indented when a crashed program
    /// left the terminal raw: a newline then moves down without returning to the first column.)
    package static func programEnded(_ screen: String) -> Bool {
        screen.split(separator: "\n").contains { $0.drop { $0 == " " }.hasPrefix("STTY: speed ") }
    }

    /// Presses keys (tmux key names: `Enter`, `Down`, `C-c`, `BTab`, or literal characters).
    package func send(_ keys: String...) async throws {
        _ = try await runAway(["send-keys", "-t", name] + keys)
    }

    /// Types raw bytes (`send-keys -H`), such as a terminal's mouse report.
    package func send(bytes: [UInt8]) async throws {
        _ = try await runAway(["send-keys", "-t", name, "-H"] + bytes.map { String($0, radix: 16) })
    }

    /// Replaces the pane's program with `command` (run by `sh -c`, the pane's size kept), as
    /// typing it at a shell in an already running tmux does.
    package func respawn(_ command: String) async throws {
        _ = try await runAway(["respawn-pane", "-k", "-t", name, "env TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 sh -c \(TmuxSession.quote(command))"])
    }

    /// A tmux format expanded for the pane (`#{mouse_button_flag}`: the modes its program set).
    package func format(_ format: String) async throws -> String {
        try await runAway(["display-message", "-p", "-t", name, format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Resizes the window.
    package func resize(width: Int, height: Int) async throws {
        _ = try await runAway(["resize-window", "-t", name, "-x", "\(width)", "-y", "\(height)"])
    }

    /// The process id of the pane's program (the child of its shell).
    package func programPID() async throws -> Int32? {
        let shell = try await runAway(["display-message", "-p", "-t", name, "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let children = try String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)
        return children.split(separator: " ").first.flatMap { Int32($0) }
    }

    /// Polls the pane until `predicate` holds for its text; returns that text, or nil after `timeout`.
    package func waitUntil(timeout: Duration = .seconds(60), interval: Duration = .milliseconds(20), _ predicate: (String) -> Bool) async throws -> String? {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while clock.now < deadline {
            let screen = try await capture()
            if predicate(screen) { return screen }
            try await Task.sleep(for: interval)
        }
        return nil
    }

    /// `run` off the cooperative pool: tmux answers late on a busy machine, and a test waiting
    /// for it must not hold one of the pool's few threads meanwhile.
    private func runAway(_ arguments: [String]) async throws -> String {
        try await offPool { [self] in try run(arguments) }
    }

    @discardableResult
    private func run(_ arguments: [String]) throws -> String {
        try Subprocess.run(["tmux", "-u", "-L", socket] + arguments).output  // -u: UTF-8 whatever the locale
    }

    /// Quotes text for the shell.
    package static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

