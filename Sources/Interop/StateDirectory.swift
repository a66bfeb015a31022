import Foundation

/// Where apiexplorer keeps what it learns between runs (history, drift results): the XDG state
/// directory, `$XDG_STATE_HOME/apiexplorer`, else `~/.local/state/apiexplorer`.
public enum StateDirectory {
    /// The folder name under the state home.
    public static let folderName = "apiexplorer"

    /// The state directory for a process environment. A relative `$XDG_STATE_HOME` is ignored,
    /// as the XDG specification asks.
    public static func url(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return URL(fileURLWithPath: state).appendingPathComponent(folderName)
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".local/state").appendingPathComponent(folderName)
    }

    /// Creates `directory` (and its parents) when missing, readable by the owner only by default.
    static func create(_ directory: URL, permissions: Int = 0o700) throws(InteropError) {
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: permissions])
        } catch {
            throw InteropError.file("cannot create the folder \(directory.path): \(error.localizedDescription)")
        }
    }
}
