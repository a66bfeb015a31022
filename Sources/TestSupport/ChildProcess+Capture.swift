import Dispatch
import Foundation
import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

extension ChildProcess {
    /// How a process ended and what it wrote.
    package struct Captured: Sendable {
        /// The exit status, or 128 + the signal that ended it.
        package var status: Int32
        /// Standard output.
        package var stdout: Data
        /// Standard error.
        package var stderr: Data
        /// The child's peak resident memory, in bytes.
        package var peakMemory: Int = 0
        /// Standard output as text.
        package var output: String { String(decoding: stdout, as: UTF8.self) }
        /// Standard error as text.
        package var errors: String { String(decoding: stderr, as: UTF8.self) }
    }

    /// Starts `path` in `directory` with standard input from /dev/null and both outputs captured.
    /// Tests start children this way: Foundation's `Process` lets the child inherit open sockets
    /// (the other tests' servers and clients run in this process), which keeps their connections
    /// from closing while it runs and makes their timing tests fail.
    package convenience init(_ path: String, _ arguments: [String], environment: [String: String], directory: String) throws {
        try self.init(path, arguments, environment: environment, directory: Optional(directory), input: .null, output: .pipe, errors: .pipe)
    }

    /// Reads both outputs to their end and waits for the exit (blocks: call off the test's executor).
    package func collect() -> Captured {
        let group = DispatchGroup()
        nonisolated(unsafe) var errorData = Data()
        let errors = self.errors
        // Serial queues of their own, not the global queue: its few threads can all be blocked in
        // other tests' reads, and this read must not wait for them.
        DispatchQueue(label: "apiexplorer.child-stderr").async(group: group) { errorData = Self.readToEnd(errors) }
        let outputData = Self.readToEnd(output)
        group.wait()
        let (status, peak) = waitMeasuring()
        return Captured(status: status, stdout: outputData, stderr: errorData, peakMemory: peak)
    }

    /// `collect()` on a thread of its own, so an async test's executor is not blocked meanwhile.
    package func finish() async -> Captured {
        await offPool { self.collect() }
    }

    private static func readToEnd(_ descriptor: Int32?) -> Data {
        guard let descriptor else { return Data() }
        defer { close(descriptor) }
        return Data(FileDescriptor.readAll(descriptor))
    }
}
