import Foundation
import Testing

/// Drives a program in a private tmux server, as a person would: keys in, screen text out.
final class TmuxSession: @unchecked Sendable {
    let socket: String
    let name = "e2e"
    private(set) var isClosed = false

    /// Starts `command` in a detached session of the given size. The pane stays open after the
    /// command ends (so its last output can be read).
    init(command: String, width: Int = 120, height: Int = 40, environment: [String: String] = [:]) throws {
        socket = "apiexplorer-e2e-\(UUID().uuidString.prefix(8))"
        let exports = environment.map { "export \($0.key)=\(TmuxSession.quote($0.value)); " }.joined()
        let script = "\(exports)\(command); status=$?; echo; echo EXIT=$status; stty -a | tr '\\n' ' ' | sed 's/^/STTY: /'; echo; sleep 600"
        try run([
            "-f", "/dev/null", "new-session", "-d", "-s", name, "-x", "\(width)", "-y", "\(height)",
            "env TERM=xterm-256color sh -c \(TmuxSession.quote(script))",
        ])
    }

    deinit { close() }

    /// Ends the tmux server and everything in it.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        let socketPath = (try? run(["display-message", "-p", "#{socket_path}"]))?.trimmingCharacters(in: .whitespacesAndNewlines)
        _ = try? run(["kill-server"])
        if let socketPath, !socketPath.isEmpty { try? FileManager.default.removeItem(atPath: socketPath) }
    }

    /// The pane's text now.
    func capture() throws -> String {
        try run(["capture-pane", "-p", "-J", "-t", name])
    }

    /// Presses keys (tmux key names: `Enter`, `Down`, `C-c`, `BTab`, or literal characters).
    func send(_ keys: String...) throws {
        _ = try run(["send-keys", "-t", name] + keys)
    }

    /// Resizes the window.
    func resize(width: Int, height: Int) throws {
        _ = try run(["resize-window", "-t", name, "-x", "\(width)", "-y", "\(height)"])
    }

    /// The process id of the pane's program (the child of its shell).
    func programPID() throws -> Int32? {
        let shell = try run(["display-message", "-p", "-t", name, "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let children = try String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)
        return children.split(separator: " ").first.flatMap { Int32($0) }
    }

    /// Waits until the pane shows `text`; returns the screen, or records an issue with the last screen.
    @discardableResult
    func waitFor(
        _ text: String, timeout: Duration = .seconds(15), sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> String {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var screen = ""
        while clock.now < deadline {
            screen = try capture()
            if screen.contains(text) { return screen }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("'\(text)' did not appear within \(timeout). Screen:\n\(screen)", sourceLocation: sourceLocation)
        return screen
    }

    /// Waits until the pane no longer shows `text`.
    @discardableResult
    func waitForAbsence(_ text: String, timeout: Duration = .seconds(10), sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var screen = ""
        while clock.now < deadline {
            screen = try capture()
            if !screen.contains(text) { return screen }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("'\(text)' did not go away within \(timeout). Screen:\n\(screen)", sourceLocation: sourceLocation)
        return screen
    }

    @discardableResult
    private func run(_ arguments: [String]) throws -> String {
        try Subprocess.run(["tmux", "-L", socket] + arguments).output
    }

    static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

/// Paths of the built products the tests run.
enum Products {
    /// The directory holding the test runner and the executables built with it.
    static var directory: URL {
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = runner.deletingLastPathComponent()
        // Swift Testing may run from inside an .xctest bundle on some platforms.
        while directory.pathExtension == "xctest" || directory.lastPathComponent == "Contents" || directory.lastPathComponent == "MacOS" {
            directory = directory.deletingLastPathComponent()
        }
        return directory
    }

    /// The `apiexplorer` binary.
    static var apiexplorer: URL { directory.appendingPathComponent("apiexplorer") }

    /// Whether tmux is installed (the end-to-end tests need it).
    static var hasTmux: Bool {
        ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"].contains { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
