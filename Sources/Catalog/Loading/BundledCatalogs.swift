import FoundationEssentials
import SystemSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The catalogs compiled into the binary (from `environments/` in the repository), so an
/// installed `apiexplorer` works from any folder. The files are in
/// `BundledCatalogFiles.generated.swift`, written by `scripts/generate-bundled-catalogs`.
package enum BundledCatalogs {
    /// The bundled files as a catalog folder.
    package static let fileSystem = InMemoryFileSystem(
        files: Dictionary(BundledCatalogFiles.files.map { ($0.path, $0.data) }, uniquingKeysWith: { first, _ in first }),
        materializedIn: privateFolder())

    /// `/tmp/apiexplorer-UID/bundled`, made readable by this user only; nil when it exists but is
    /// not this user's private folder (another user could have planted a CA certificate there).
    static func privateFolder() -> String? {
        let root = URL.joinedFilePath(TemporaryFile.directory, "apiexplorer-\(getuid())")
        mkdir(root, 0o700)
        var status = stat()
        guard lstat(root, &status) == 0, status.st_uid == getuid(), status.st_mode & S_IFMT == S_IFDIR, status.st_mode & 0o077 == 0 else {
            return nil
        }
        return URL.joinedFilePath(root, "bundled")
    }

    /// Loads the bundled catalogs.
    package static func load() -> CatalogSet {
        CatalogLoader.load(fileSystem: fileSystem, source: .bundled)
    }
}
