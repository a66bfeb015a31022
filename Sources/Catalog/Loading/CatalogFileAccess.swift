import FoundationEssentials
import SystemSupport

/// Whether a file a catalog names (a `bodyFile`, a certificate) may be read, and if not, why.
package enum CatalogFileAccess: Sendable, Hashable {
    /// A regular file inside the catalog folder (or allowed outside it) of `size` bytes, nil when unknown.
    case readable(size: Int?)
    /// Nothing at the path.
    case missing
    /// The path leaves the catalog folder (`..`, an absolute path or a symbolic link), resolving to `resolved`.
    case outside(resolved: String)
    /// A folder, not a file.
    case directory
    /// A device, a pipe or a socket.
    case notRegularFile
    /// The file or a folder on its way may not be read.
    case permissionDenied
    /// Symbolic links that point at each other, as followed (`a.json → b.json → a.json`).
    case symbolicLinkLoop([String])
    /// Another failure.
    case unreadable(String)

    /// Why the file cannot be used, for a diagnostic ending `: '<path>'`; nil when it can.
    package var problem: String? {
        switch self {
        case .readable: nil
        case .missing: "does not exist"
        case .outside(let resolved):
            "is outside the catalog folder (it resolves to '\(resolved)'); catalogs read only files in their folder "
                + "unless the catalog says 'allowOutsidePaths: true'"
        case .directory: "is a folder, not a file"
        case .notRegularFile: "is not a regular file (a device, a pipe or a socket)"
        case .permissionDenied: "cannot be read (permission denied)"
        case .symbolicLinkLoop(let chain): "is a symbolic link loop (\(chain.joined(separator: " → ")))"
        case .unreadable(let reason): "cannot be read (\(reason))"
        }
    }
}

extension CatalogFileSystem {
    /// By default a file exists or not (an in-memory folder cannot be left: `..` stays inside).
    package func access(_ path: String, allowingOutside: Bool) -> CatalogFileAccess {
        fileExists(path) ? .readable(size: nil) : .missing
    }
}

extension DiskFileSystem {
    /// Resolves `path` with every symbolic link (realpath) and checks that it stays in the catalog
    /// folder unless `allowingOutside`, and that it is a regular file this process may read.
    package func access(_ path: String, allowingOutside: Bool) -> CatalogFileAccess {
        resolve(path, allowingOutside: allowingOutside).access
    }

    /// `access(_:allowingOutside:)`, with the file's canonical path when it may be read: what is
    /// opened, so a link changed after the check cannot lead elsewhere.
    package func resolve(_ path: String, allowingOutside: Bool) -> (access: CatalogFileAccess, resolved: String?) {
        guard let url = fileURL(for: path) else { return (.missing, nil) }
        let resolved: String
        switch ResolvedPath(url.path) {
        case .resolved(let path): resolved = path
        case .missing: return (.missing, nil)
        case .loop: return (.symbolicLinkLoop([path] + ResolvedPath.linkChain(from: url.path).dropFirst()), nil)
        case .permissionDenied: return (.permissionDenied, nil)
        case .failed(let code): return (.unreadable("error \(code)"), nil)
        }
        if !allowingOutside {
            guard case .resolved(let folder) = ResolvedPath(root.path), ResolvedPath.isInside(resolved, folder: folder) else {
                return (.outside(resolved: resolved), nil)
            }
        }
        switch FileStatus(path: resolved) {
        case .missing: return (.missing, nil)
        case .directory: return (.directory, nil)
        case .other: return (.notRegularFile, nil)
        case .file(let size): return FileStatus.isReadable(resolved) ? (.readable(size: size), resolved) : (.permissionDenied, nil)
        }
    }
}
