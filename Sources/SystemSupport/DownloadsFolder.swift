import FoundationEssentials

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a catalog's `download:` files go: `$APIEXPLORER_DOWNLOADS` when the person sets it, else
/// the XDG download folder (`$XDG_DOWNLOAD_DIR`, else `XDG_DOWNLOAD_DIR` in
/// `~/.config/user-dirs.dirs`), else `~/Downloads`. A catalog names a file in it, never a path
/// elsewhere: the name is confined to the folder once symbolic links are followed.
package enum DownloadsFolder {
    /// The variable that sets the folder.
    package static let environmentVariable = "APIEXPLORER_DOWNLOADS"

    /// The folder's path for a process environment.
    package static func path(environment: [String: String]) -> String {
        if let folder = environment[environmentVariable], !folder.isEmpty {
            return HomeDirectory.expandingTilde(folder, environment: environment)
        }
        let home = HomeDirectory.path(environment: environment)
        if let folder = environment["XDG_DOWNLOAD_DIR"], folder.hasPrefix("/") { return folder }
        let configuration = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.config"
        if let data = FileContents.read(atPath: configuration + "/user-dirs.dirs", atMost: 64 << 10),
            let folder = userDirectory("XDG_DOWNLOAD_DIR", in: String(decoding: data, as: UTF8.self), home: home)
        {
            return folder
        }
        return home + "/Downloads"
    }

    /// Why a catalog may never write the download `name`, whatever the folder: nil when it may.
    /// The trust question lists only names without a problem, and `file(_:in:)` refuses the others.
    package static func nameProblem(_ name: String) -> String? {
        if name.hasPrefix("/") || name.split(separator: "/").contains(where: { $0 == ".." }) || name.isEmpty || name.hasSuffix("/") {
            return outsideProblem
        }
        // Download names are not templates: `{{x}}` would be written as a file of that name.
        if name.contains("{{") || name.contains("}}") { return "holds a placeholder, and download names are written as they are, not filled in" }
        return nil
    }

    private static let outsideProblem = "names a file outside the downloads folder"

    /// `XDG_DOWNLOAD_DIR="$HOME/Downloads"` in the `user-dirs.dirs` format (the only expansion it allows is `$HOME`).
    static func userDirectory(_ name: String, in text: String, home: String) -> String? {
        for line in text.split(separator: "\n") where line.hasPrefix(name + "=") {
            var value = line.dropFirst(name.count + 1)
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = value.dropFirst().dropLast() }
            let path = value.hasPrefix("$HOME") ? home + value.dropFirst(5) : String(value)
            return path.hasPrefix("/") ? path : nil
        }
        return nil
    }

    /// The file `name` names in `folder` (created when missing), or why it may not be written:
    /// an absolute path, a `..` or a symbolic link leading out of the folder.
    package static func file(_ name: String, in folder: String) -> Result<String, DownloadPathError> {
        if let problem = nameProblem(name) {
            return .failure(DownloadPathError(name: name, reason: problem == outsideProblem ? "\(problem) \(folder)" : problem))
        }
        do throws(SystemError) {
            try AtomicFile.createDirectory(URL(fileURLWithPath: folder), permissions: 0o755)
        } catch {
            return .failure(DownloadPathError(name: name, reason: "cannot be written: \(error)"))
        }
        let path = URL.joinedFilePath(folder, name)
        // Its folder, with every link followed, must be in the downloads folder (also followed).
        let parent = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
        guard case .resolved(let root) = ResolvedPath(folder) else {
            return .failure(DownloadPathError(name: name, reason: "cannot be written: the downloads folder \(folder) cannot be opened"))
        }
        switch ResolvedPath(parent) {
        case .resolved(let resolvedParent) where ResolvedPath.isInside(resolvedParent, folder: root):
            break
        case .resolved(let resolvedParent):
            return .failure(DownloadPathError(name: name, reason: "leads out of the downloads folder (its folder resolves to \(resolvedParent))"))
        default:
            return .failure(DownloadPathError(name: name, reason: "is in a folder that does not exist in the downloads folder \(folder)"))
        }
        // The file itself may be a link to elsewhere: it would be written through.
        var info = stat()
        if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
            return .failure(DownloadPathError(name: name, reason: "is a symbolic link in the downloads folder; it is not written through"))
        }
        return .success(path)
    }
}

/// A download name that may not be written.
package struct DownloadPathError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The name as the catalog wrote it.
    package var name: String
    /// Why not.
    package var reason: String

    package var description: String { "the download '\(name)' \(reason)" }
}
