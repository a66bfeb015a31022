import Foundation
import TestSupport

/// The built products the end-to-end tests run.
enum Products {
    /// The `apiexplorer` binary.
    static let apiexplorer = BuiltProducts.executable(named: "apiexplorer")

    /// Whether tmux is installed (the end-to-end tests need it).
    static var hasTmux: Bool {
        ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"].contains { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
