import Foundation
import SystemSupport

/// Runs a program found on PATH to its end (tmux and other tools in tests and benchmarks).
package enum Subprocess {
    /// Runs `arguments`; returns the exit status and standard output.
    package static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let environment = ProcessInfo.processInfo.environment
        let path = try executable(arguments[0], in: environment["PATH"] ?? "/usr/bin:/bin")
        let result = try ChildProcess(
            path, Array(arguments.dropFirst()), environment: environment,
            directory: FileManager.default.currentDirectoryPath
        ).collect()
        return (result.status, result.output)
    }

    private static func executable(_ name: String, in searchPath: String) throws -> String {
        if name.contains("/") { return name }
        for directory in searchPath.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw SystemError("\(name) is not on PATH", number: ENOENT)
    }
}
