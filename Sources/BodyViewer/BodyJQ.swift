import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why running `jq` failed.
public enum BodyJQError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No `jq` executable on PATH.
    case notInstalled
    /// `jq` could not be started.
    case couldNotStart(String)
    /// `jq` exited with `status`; `message` is what it wrote to stderr (the filter's error).
    case failed(status: Int32, message: String)

    /// What went wrong, for the person.
    public var description: String {
        switch self {
        case .notInstalled: "jq is not installed (no jq on PATH)"
        case .couldNotStart(let reason): "jq could not be started: \(reason)"
        case .failed(let status, let message):
            message.isEmpty ? "jq failed with exit status \(status)" : message
        }
    }
}

/// Runs the `jq` command over bodies.
public enum BodyJQ {
    /// The `jq` executable on `PATH`, if any.
    public static func locate(path: String? = ProcessInfo.processInfo.environment["PATH"]) -> URL? {
        for directory in (path ?? "").split(separator: ":") where !directory.isEmpty {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent("jq")
            if access(candidate.path, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Whether `jq` is on PATH.
    public static var isInstalled: Bool { locate() != nil }

    /// Feeds `input` to `jq -c <filter>` and returns its stdout. Uses `executable`, else the `jq` found on
    /// `path`. Terminates jq when the task is cancelled.
    public static func run(_ filter: String, input: Data, executable: URL? = nil,
        path: String? = ProcessInfo.processInfo.environment["PATH"]) async throws -> Data
    {
        guard let executable = executable ?? locate(path: path) else { throw BodyJQError.notInstalled }
        // A broken pipe (jq exiting before reading everything) must be an error, not a fatal signal.
        signal(SIGPIPE, SIG_IGN)
        let process = Process()
        process.executableURL = executable
        // A filter starting with '-' would be read as an option; parentheses keep its meaning.
        process.arguments = ["-c", filter.hasPrefix("-") ? "(\(filter))" : filter]
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        let box = ProcessBox(process)
        return try await withTaskCancellationHandler {
            let exited = AsyncStream<Void>.makeStream()
            process.terminationHandler = { _ in
                exited.continuation.yield()
                exited.continuation.finish()
            }
            do {
                try process.run()
            } catch {
                throw BodyJQError.couldNotStart(error.localizedDescription)
            }
            box.started()
            // Pipes are driven on plain threads: blocking I/O must not hold the cooperative pool.
            DispatchQueue.global().async {
                try? stdin.fileHandleForWriting.write(contentsOf: input)
                try? stdin.fileHandleForWriting.close()
            }
            async let output = readAll(stdout.fileHandleForReading)
            async let errors = readAll(stderr.fileHandleForReading)
            let (result, message) = await (output, errors)
            for await _ in exited.stream {}
            if Task.isCancelled { throw CancellationError() }
            guard process.terminationStatus == 0, process.terminationReason == .exit else {
                let text = String(decoding: message, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                throw BodyJQError.failed(status: process.terminationStatus, message: text)
            }
            return result
        } onCancel: {
            box.terminate()
        }
    }

    private static func readAll(_ handle: FileHandle) async -> Data {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: (try? handle.readToEnd()) ?? Data())
            }
        }
    }
}

/// Lets the cancellation handler stop the process from any thread. Cancellation may come before the
/// process starts (then it is terminated as soon as it has started) or after.
private final class ProcessBox: @unchecked Sendable {
    private let process: Process
    private let lock = NSLock()
    private var hasStarted = false
    private var isCancelled = false

    init(_ process: Process) { self.process = process }

    func started() {
        let cancelled = lock.withLock {
            hasStarted = true
            return isCancelled
        }
        if cancelled { forceStop() }
    }

    func terminate() {
        let running = lock.withLock {
            isCancelled = true
            return hasStarted
        }
        if running { forceStop() }
    }

    /// SIGKILL, not `terminate()`'s SIGTERM: a process spawned from a Swift concurrency thread inherits
    /// that thread's blocked signals, SIGTERM included; SIGKILL cannot be blocked.
    private func forceStop() {
        _ = kill(process.processIdentifier, SIGKILL)
    }
}

extension BodyDocument {
    /// Pipes the raw body through `jq -c <filter>` and lays out its output as a JSON document (several
    /// results become a sequence of values). Throws `BodyJQError` (`.notInstalled`, or `.failed` with jq's
    /// message) and `CancellationError`; cancelling terminates jq.
    public func jq(_ filter: String, executable: URL? = nil) async throws -> BodyDocument {
        let output = try await BodyJQ.run(filter, input: data, executable: executable)
        return try await BodyDocument.build(data: output, contentType: "application/x-ndjson")
    }
}
