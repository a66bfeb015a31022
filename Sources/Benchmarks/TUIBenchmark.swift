import ArgumentParser
import Catalog
import ExplorerApp
import Foundation
import TerminalKit
import StateStore
import SystemSupport
import TestSupport

/// `apiexplorer-bench tui`: the explorer as a person meets it, in tmux at 120×40 — launch to the
/// first complete frame (with a tmux server started for it, and in one already running), keypress
/// to frame, CPU used while idle — and the in-process cost of one key (reduce, render, diff).
/// Targets: launch ≤ 20 ms median, idle CPU ≈ 0.
struct TUIBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tui",
        abstract: "Launch to first frame and keypress to frame in tmux, idle CPU, and the in-process cost of a key.")

    @Option(help: "Launches and keypresses timed.")
    var runs = 20

    @Option(help: "Seconds of idling whose CPU time is measured.")
    var idleSeconds = 10

    @Option(help: ArgumentHelp("The apiexplorer binary (default: the one built beside this benchmark).", valueName: "PATH"))
    var binary: String?

    @Option(help: "Entries in the full history the second launch measure reads (the history's limit).")
    var historyEntries = HistoryStore.defaultLimit

    @Option(help: ArgumentHelp(
        "A catalog folder (an import of 1,000 endpoints, say) whose launch is timed against the bundled one's, alternating; then the other measures are skipped.",
        valueName: "FOLDER"))
    var catalog: String?

    func run() async throws {
        warnIfDebugBuild()
        let executable = binary ?? URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("apiexplorer").path
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw ValidationError("No apiexplorer binary at \(executable); build it (swift build -c release) or pass --binary.")
        }
        let empty = try TemporaryDirectory(prefix: "bench-cwd")
        let emptyState = try TemporaryDirectory(prefix: "bench-state")
        let fullState = try TemporaryDirectory(prefix: "bench-state")
        try HistoryFiller.fill(HistoryStore(directory: fullState.url.appendingPathComponent("apiexplorer")), entries: historyEntries)
        func launch(state: TemporaryDirectory) -> String {
            "cd \(TmuxSession.quote(empty.path)) && XDG_STATE_HOME=\(TmuxSession.quote(state.path)) \(TmuxSession.quote(executable))"
        }

        if let catalog {
            try await compareLaunch(catalog: catalog, bundled: launch(state: emptyState))
            return
        }
        print("tmux at 120x40, \(runs) runs each, bundled catalogs")
        let baseline = try await timeToScreen(command: "printf READY", markers: ["READY"])
        print("  tmux running printf (reference)   median \(format(baseline.median))  p90 \(format(baseline.percentile(90)))")
        // Alternate the two, so a busy moment of the machine weighs on both alike.
        var emptyHistory = Measurements()
        var fullHistory = Measurements()
        for _ in 0..<runs {
            emptyHistory.add(try await timeToScreen(command: launch(state: emptyState), markers: Self.loadedMarkers, runs: 1).median)
            fullHistory.add(try await timeToScreen(command: launch(state: fullState), markers: Self.loadedMarkers, runs: 1).median)
        }
        print("  launch to first complete frame    median \(format(emptyHistory.median))  p90 \(format(emptyHistory.percentile(90)))  (target ≤ 20 ms)")
        print("    of which apiexplorer itself     median \(format(max(0, emptyHistory.median - baseline.median)))")
        print("    with \(historyEntries) requests in the history  median \(format(fullHistory.median))  p90 \(format(fullHistory.percentile(90)))  (target: within 1 ms)")

        // As a person meets it: a tmux already running, the program started in its pane. The
        // measures above include starting a tmux server for each launch (~10 ms here).
        let running = try TmuxSession(command: "sleep 600", width: 120, height: 40)
        defer { running.close() }
        func timeInRunningTmux(command: String, markers: [String]) async throws -> Double {
            try await running.respawn("sleep 600")
            guard try await running.waitUntil(timeout: .seconds(10), interval: .milliseconds(1), { !markers.contains(where: $0.contains) }) != nil else {
                throw ValidationError("the pane was not cleared")
            }
            let started = ContinuousClock.now
            try await running.respawn(command + "; sleep 600")
            guard try await running.waitUntil(timeout: .seconds(10), interval: .microseconds(500), { screen in markers.allSatisfy(screen.contains) }) != nil else {
                throw ValidationError("\(markers) never all appeared for: \(command)")
            }
            return (ContinuousClock.now - started).nanoseconds / 1e6
        }
        var runningPrintf = Measurements()
        var runningLaunch = Measurements()
        for _ in 0..<runs {
            runningPrintf.add(try await timeInRunningTmux(command: "printf READY", markers: ["READY"]))
            runningLaunch.add(try await timeInRunningTmux(command: launch(state: emptyState), markers: Self.loadedMarkers))
        }
        print("  in a tmux already running: printf \(format(runningPrintf.median)), launch to first complete frame  median \(format(runningLaunch.median))  p90 \(format(runningLaunch.percentile(90)))")

        // The same on a pseudo-terminal of the benchmark's own: no emulator, no polling of one.
        func direct(_ state: TemporaryDirectory) throws -> Double {
            var environment = ProcessInfo.processInfo.environment
            environment["XDG_STATE_HOME"] = state.path
            environment["TERM"] = "xterm-256color"
            environment["APIEXPLORER_CATALOG"] = nil
            return try PseudoTerminalLaunch.time(executable, environment: environment, size: (120, 40), markers: Self.loadedMarkers)
        }
        var directEmpty = Measurements()
        var directFull = Measurements()
        for _ in 0..<runs {
            directEmpty.add(try direct(emptyState))
            directFull.add(try direct(fullState))
        }
        print("  on a pseudo-terminal, no emulator: launch to first complete frame  median \(format(directEmpty.median))  p90 \(format(directEmpty.percentile(90)))")
        print("    with \(historyEntries) requests in the history  median \(format(directFull.median))  p90 \(format(directFull.percentile(90)))")
        var version = Measurements()
        for _ in 0..<(runs * 5) {
            let started = ContinuousClock.now
            _ = try ChildProcess(executable, ["--version"], environment: [:], directory: empty.path).collect()
            version.add((ContinuousClock.now - started).nanoseconds / 1e6)
        }
        print("  apiexplorer --version, whole process  median \(format(version.median))  p90 \(format(version.percentile(90)))  (target ≤ 3 ms)")

        let session = try TmuxSession(command: launch(state: emptyState), width: 120, height: 40)
        defer { session.close() }
        guard try await session.waitUntil(timeout: .seconds(10), interval: .milliseconds(5), { screen in Self.loadedMarkers.allSatisfy(screen.contains) }) != nil else {
            throw ValidationError("apiexplorer did not draw its first frame in tmux")
        }
        let keypress = try await keypressToFrame(session)
        print("  keypress to frame (tmux, j/k)     median \(format(keypress.median))  p90 \(format(keypress.percentile(90)))")

        guard let pid = try await session.programPID() else { throw ValidationError("cannot find apiexplorer's process") }
        try await Task.sleep(for: .seconds(1))
        let before = try cpuTicks(pid)
        try await Task.sleep(for: .seconds(idleSeconds))
        let used = try cpuTicks(pid) - before
        let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
        print("  CPU time while idle for \(idleSeconds) s      \(String(format: "%.0f ms", Double(used) / ticksPerSecond * 1000)) (target ≈ 0)")

        let key = inProcessKeyCost()
        print("in process, one key (reduce + render + diff, 120x40)  median \(formatNanoseconds(key.median))  p99 \(formatNanoseconds(key.percentile(99)))")
    }

    /// Launch to the first complete frame on `folder` and on the bundled catalogs, alternating so a
    /// busy moment of the machine weighs on both alike.
    private func compareLaunch(catalog folder: String, bundled: String) async throws {
        let loaded = CatalogLoader.load(.folder(folder), trust: .everything)
        guard let service = loaded.services.first, let environment = service.environments.first else {
            throw ValidationError("No service in \(folder): \(loaded.summary)")
        }
        // The endpoint pane's title (its count, near the top) and the status bar (the last row).
        let markers = ["  \(loaded.endpointCount)  ", "\(service.id) · \(environment.name)"]
        let command = bundled + " --trust --catalog \(TmuxSession.quote(folder))"
        print("tmux at 120x40, \(runs) runs each, alternating: bundled catalogs, then \(folder) (\(loaded.endpointCount) endpoints in \(loaded.services.count) services)")
        var bundledTimes = Measurements()
        var catalogTimes = Measurements()
        var differences = Measurements()
        for _ in 0..<runs {
            let one = try await timeToScreen(command: bundled, markers: Self.loadedMarkers, runs: 1).median
            let other = try await timeToScreen(command: command, markers: markers, runs: 1).median
            bundledTimes.add(one)
            catalogTimes.add(other)
            differences.add(other - one)
        }
        print("  bundled: launch to first complete frame   median \(format(bundledTimes.median))  p90 \(format(bundledTimes.percentile(90)))")
        print("  catalog: launch to first complete frame   median \(format(catalogTimes.median))  p90 \(format(catalogTimes.percentile(90)))")
        print("  catalog − bundled, pair by pair           median \(format(differences.median))  (target ≤ 10 ms)")
    }

    /// What the screen shows once the catalogs are loaded: the response pane's line for the first
    /// endpoint (near the top) and the status bar's service and environment (the last row). Both, so
    /// the frame is complete: a terminal may get a frame in many writes, top to bottom.
    static let loadedMarkers = ["Not sent yet", "httpbin · local"]

    /// Times from `tmux new-session` to every marker being on screen, in milliseconds.
    private func timeToScreen(command: String, markers: [String], runs: Int? = nil) async throws -> Measurements {
        var times = Measurements()
        for _ in 0..<(runs ?? self.runs) {
            let started = ContinuousClock.now
            let session = try TmuxSession(command: command, width: 120, height: 40)
            let screen = try await session.waitUntil(timeout: .seconds(10), interval: .microseconds(500)) { screen in markers.allSatisfy(screen.contains) }
            let elapsed = ContinuousClock.now - started
            session.close()
            guard screen != nil else { throw ValidationError("\(markers) never all appeared for: \(command)") }
            times.add(elapsed.nanoseconds / 1e6)
        }
        return times
    }

    /// Times from `send-keys` to the changed screen, in milliseconds.
    private func keypressToFrame(_ session: TmuxSession) async throws -> Measurements {
        var times = Measurements()
        var previous = try await session.capture()
        for index in 0..<runs {
            let started = ContinuousClock.now
            try await session.send(index.isMultiple(of: 2) ? "j" : "k")
            guard let screen = try await session.waitUntil(timeout: .seconds(5), interval: .microseconds(500), { $0 != previous }) else {
                throw ValidationError("the screen did not change after a key")
            }
            times.add((ContinuousClock.now - started).nanoseconds / 1e6)
            previous = screen
        }
        return times
    }

    /// utime + stime of a process, in clock ticks.
    private func cpuTicks(_ pid: Int32) throws -> Int {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // Fields after the command name (which may hold spaces) start after the last ')'.
        guard let close = stat.lastIndex(of: ")") else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // utime and stime are fields 14 and 15; fields[0] here is field 3.
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return 0 }
        return user + system
    }

    /// The cost of one key in process: the reducer, the view and the diff against the last frame.
    private func inProcessKeyCost() -> Measurements {
        var state = AppState(catalog: BundledCatalogs.load(), size: Size(width: 120, height: 40))
        var previous = AppView.render(state).buffer
        var times = Measurements()
        let keys: [KeyEvent] = [.character("j"), .character("k")]
        for index in 0..<2_000 {
            let started = ContinuousClock.now
            _ = AppReducer.reduce(&state, .terminal(.key(keys[index % 2])))
            let frame = AppView.render(state)
            let updates = frame.buffer.diff(from: previous)
            times.add((ContinuousClock.now - started).nanoseconds)
            previous = frame.buffer
            precondition(!updates.isEmpty)
        }
        return times
    }

    private func format(_ milliseconds: Double) -> String { String(format: "%.1f ms", milliseconds) }
}
