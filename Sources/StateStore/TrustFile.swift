import Catalog
import FoundationEssentials
import SystemSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The catalogs the person trusts: the state folder's `trust.json`, the SHA-256 of each trusted
/// catalog file's contents by folder (its canonical path), readable by the owner only. Several
/// processes may trust at once: each change is made under the file's lock, reading it again first.
package struct TrustFile: TrustPersistence {
    private let file: EnvironmentStateFile<[String]>
    private let directoryPath: String

    /// The trust file in the folder at `directoryPath` (the state directory by default).
    package init(directoryPath: String = StateDirectory.path()) {
        self.directoryPath = directoryPath
        file = EnvironmentStateFile(name: "trust.json", directoryPath: directoryPath)
    }

    /// Where trust is kept.
    package var fileURL: URL { file.fileURL }

    package func trust(for folder: URL) -> CatalogTrust {
        CatalogTrust(contentHashes: Set(file.load()[Self.key(for: folder)] ?? []))
    }

    package func trust(_ contentHashes: some Sequence<String> & Sendable, in folder: URL) throws(SystemError) {
        let key = Self.key(for: folder)
        try file.update { folders in
            let kept = Set(folders[key] ?? [])
            folders[key] = kept.union(contentHashes).sorted()
        }
    }

    /// Folders are kept by their canonical path (symbolic links resolved), so every way of naming a
    /// folder finds the same trust. The key is a service/environment pair of the shared file
    /// format: the folder, and `files`.
    static func key(for folder: URL) -> EnvironmentKey {
        let path: String
        if case .resolved(let resolved) = ResolvedPath(folder.path) { path = resolved } else { path = folder.standardizedFileURL.path }
        return EnvironmentKey(service: path, environment: "files")
    }
}

extension CatalogSource {
    /// What the person trusts in this source's folder (everything for the bundled catalogs).
    package func trust(in file: some TrustPersistence = TrustFile()) -> CatalogTrust {
        guard let directory else { return .everything }
        return file.trust(for: directory)
    }
}
