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
        // Joined as text: a URL's first `path` costs ~600,000 instructions, which the launch need
        // not wait for (the stores ask for their files' paths when they first read them).
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return URL(fileURLWithPath: URL.joinedFilePath(state, folderName))
        }
        return URL(fileURLWithPath: URL.joinedFilePath(HomeDirectory.path(environment: environment), ".local/state/" + folderName))
    }

    /// Creates `directory` (and its parents) when missing, readable by the owner only.
    static func create(_ directory: URL) throws(SystemError) {
        try AtomicFile.createDirectory(directory, permissions: 0o700)
    }
}
