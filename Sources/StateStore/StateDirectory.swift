import FoundationEssentials
import SystemSupport

/// Where apiexplorer keeps what it learns between runs (history, drift results): the XDG state
/// directory, `$XDG_STATE_HOME/apiexplorer`, else `~/.local/state/apiexplorer`.
public enum StateDirectory {
    /// The folder name under the state home.
    public static let folderName = "apiexplorer"

    /// The state directory for a process environment. A relative `$XDG_STATE_HOME` is ignored,
    /// as the XDG specification asks.
    public static func url(environment: [String: String] = ProcessEnvironment.variables) -> URL {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return URL(fileURLWithPath: state).appendingPathComponent(folderName)
        }
        return URL(fileURLWithPath: HomeDirectory.path(environment: environment)).appendingPathComponent(".local/state").appendingPathComponent(folderName)
    }

    /// Creates `directory` (and its parents) when missing, readable by the owner only.
    static func create(_ directory: URL) throws(SystemError) {
        try AtomicFile.createDirectory(directory, permissions: 0o700)
    }
}
