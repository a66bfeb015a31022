import Catalog
import ExplorerApp
import FoundationEssentials
import SystemSupport

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
        let data: Data
        do throws(FileReadError) {
            data = try FileContents.contents(atPath: path, limit: maximumSize)
        } catch {
            let problem: String
            switch error {
            case .tooLarge: problem = "the file holds more than the \(FileReadError.limitText(maximumSize)) a config file may hold"
            case .notRegularFile(_, let kind): problem = "the file is not a regular file (it is \(kind))"
            default: problem = "the file cannot be read"
            }
            config.diagnostics = [Diagnostic(file: path, line: 1, column: 1, severity: .error, message: "\(problem); the defaults apply")]
            return config
        }
        return ExplorerConfig.parse(String(decoding: data, as: UTF8.self), file: path)
    }
}
