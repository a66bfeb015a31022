import FoundationEssentials
import SystemSupport

/// Where apiexplorer keeps what it learns between runs (history, drift results): the XDG state
/// directory, `$XDG_STATE_HOME/apiexplorer`, else `~/.local/state/apiexplorer`.
package enum StateDirectory {
    /// The folder name under the state home.
    package static let folderName = "apiexplorer"

    /// The state directory's path for a process environment. A relative `$XDG_STATE_HOME` is
    /// ignored, as the XDG specification asks.
    ///
    /// The stores keep their folder as this text: a URL's first `path` builds FoundationEssentials'
    /// tables and checks generic conformances, which a launch that only reads a few small files
    /// should not pay for (docs/performance.md, "Start-up rules").
    package static func path(environment: [String: String] = ProcessEnvironment.variables) -> String {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return URL.joinedFilePath(state, folderName)
        }
        return URL.joinedFilePath(HomeDirectory.path(environment: environment), ".local/state/" + folderName)
    }

    /// The state directory for a process environment, as a URL (see `path(environment:)`).
    package static func url(environment: [String: String] = ProcessEnvironment.variables) -> URL {
        URL(fileURLWithPath: path(environment: environment))
    }

    /// Creates `directory` (and its parents) when missing, readable by the owner only.
    static func create(_ directory: URL) throws(SystemError) {
        try AtomicFile.createDirectory(directory, permissions: 0o700)
    }
}
