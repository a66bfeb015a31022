import Catalog
import ExplorerApp
import FoundationEssentials

/// Reads the person's config file (`ExplorerConfig.path`) once, before the explorer starts (its
/// keys and theme apply from the first frame) and for `explore --help` (which lists the keys in
/// effect).
package enum ExplorerConfigFile {
    /// The largest config file read: a keymap and a few themes are a few kilobytes.
    static let maximumSize = 1 << 20

    /// The config in effect: the file's, or the defaults when there is none.
    package static func read(environment: [String: String]) -> ExplorerConfig {
        guard let path = ExplorerConfig.path(environment: environment), FileManager.default.fileExists(atPath: path) else { return .defaults }
        var config = ExplorerConfig.defaults
        guard let data = FileManager.default.contents(atPath: path) else {
            config.diagnostics = [Diagnostic(file: path, line: 1, column: 1, severity: .error, message: "the file cannot be read; the defaults apply")]
            return config
        }
        guard data.count <= maximumSize else {
            config.diagnostics = [
                Diagnostic(file: path, line: 1, column: 1, severity: .error, message: "the file is larger than 1 MB; the defaults apply")
            ]
            return config
        }
        return ExplorerConfig.parse(String(decoding: data, as: UTF8.self), file: path)
    }
}
