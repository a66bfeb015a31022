import Foundation

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
