import FoundationEssentials
import SystemSupport
import TextSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why running `jq` failed.
package enum BodyJQError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No `jq` executable on PATH.
    case notInstalled
    /// `jq` could not be started.
    case couldNotStart(String)
    /// `jq` exited with `status`; `message` is what it wrote to stderr (the filter's error).
    case failed(status: Int32, message: String)

    /// What went wrong, for the person.
    package var description: String {
        switch self {
        case .notInstalled: "jq is not installed (no jq on PATH)"
        case .couldNotStart(let reason): "jq could not be started: \(reason)"
        case .failed(let status, let message):
            message.isEmpty ? "jq failed with exit status \(status)" : message
        }
    }
}

/// Runs the `jq` command over bodies.
package enum BodyJQ {
    /// The `jq` executable on `PATH`, if any.
    package static func locate(path: String? = ProcessInfo.processInfo.environment["PATH"]) -> URL? {
        ExecutableSearch.locate("jq", searchPath: path).map { URL(fileURLWithPath: $0) }
    }

    /// Whether `jq` is on PATH.
    package static var isInstalled: Bool { locate() != nil }

    /// Feeds `input` to `jq -c <filter>` and returns its stdout. Uses `executable`, else the `jq` found on
    /// `path`. Kills jq when the task is cancelled.
    package static func run(_ filter: String, input: Data, executable: URL? = nil,
        path: String? = ProcessInfo.processInfo.environment["PATH"]) async throws -> Data
    {
        guard let executable = executable ?? locate(path: path) else { throw BodyJQError.notInstalled }
        // A broken pipe (jq exiting before reading everything) must be an error, not a fatal signal.
        signal(SIGPIPE, SIG_IGN)
        // A filter starting with '-' would be read as an option; parentheses keep its meaning.
        let arguments = ["-c", filter.hasPrefix("-") ? "(\(filter))" : filter]
        let process: ChildProcess
        do {
            process = try ChildProcess(
                executable.path, arguments, environment: ProcessInfo.processInfo.environment, input: .pipe, output: .pipe, errors: .pipe)
        } catch {
            throw BodyJQError.couldNotStart(error.reason)
        }
        return try await withTaskCancellationHandler {
            // Pipes are driven on plain threads: blocking I/O must not hold the cooperative pool.
            async let written: Void = onThread {
                if let descriptor = process.input {
                    try? FileDescriptor.writeAll(input, to: descriptor)
                    close(descriptor)
                }
            }
            async let output = onThread { readToEnd(process.output) }
            async let errors = onThread { readToEnd(process.errors) }
            let (_, result, message) = await (written, output, errors)
            let status = await onThread { process.wait() }
            if Task.isCancelled { throw CancellationError() }
            guard status == 0 else {
                throw BodyJQError.failed(status: status, message: String(decoding: message, as: UTF8.self).trimmed)
            }
            return Data(result)
        } onCancel: {
            process.kill()
        }
    }

    /// Everything on a pipe, which is then closed.
    private static func readToEnd(_ descriptor: Int32?) -> [UInt8] {
        guard let descriptor else { return [] }
        defer { close(descriptor) }
        return FileDescriptor.readAll(descriptor)
    }

    /// Runs blocking work on a thread of its own and returns its result.
    private static func onThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            PosixThread.start { continuation.resume(returning: work()) }
        }
    }
}

extension BodyDocument {
    /// Pipes the raw body through `jq -c <filter>` and lays out its output as a JSON document (several
    /// results become a sequence of values). Throws `BodyJQError` (`.notInstalled`, or `.failed` with jq's
    /// message) and `CancellationError`; cancelling terminates jq.
    package func jq(_ filter: String, executable: URL? = nil) async throws -> BodyDocument {
        let output = try await BodyJQ.run(filter, input: data, executable: executable)
        return try await BodyDocument.build(data: output, contentType: "application/x-ndjson")
    }
}
