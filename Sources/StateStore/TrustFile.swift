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
    private let directoryPath: String
    private static let name = "trust.json"

    /// The trust file in the folder at `directoryPath` (the state directory by default).
    package init(directoryPath: String = StateDirectory.path()) {
        self.directoryPath = directoryPath
    }

    /// Where trust is kept.
    package var fileURL: URL { URL(fileURLWithPath: filePath) }
    private var filePath: String { URL.joinedFilePath(directoryPath, Self.name) }

    /// The file's contents: folder → `files` → content hashes (the shape of the first state files).
    private typealias Contents = [String: [String: [String]]]

    package func trust(for folder: URL) -> CatalogTrust {
        CatalogTrust(contentHashes: Set(load()[Self.key(for: folder)]?["files"] ?? []))
    }

    package func trust(_ contentHashes: some Sequence<String> & Sendable, in folder: URL) throws(SystemError) {
        let key = Self.key(for: folder)
        try StateDirectory.create(URL(fileURLWithPath: directoryPath))
        try StateFileLock.holding(Self.name, in: directoryPath) { () throws(SystemError) in
            var folders: Contents
            do throws(FileReadError) {
                folders = try read()
            } catch {
                throw SystemError("\(error); it was left as it is and nothing was written", number: EFBIG)
            }
            let kept = Set(folders[key]?["files"] ?? [])
            folders[key] = ["files": kept.union(contentHashes).sorted()]
            guard let data = try? HistoryStore.encoder.encode(folders) else {
                throw SystemError("cannot encode \(Self.name)", number: EINVAL)
            }
            try AtomicFile.write(data, to: fileURL, permissions: 0o600)
        }
    }

    /// What the file holds; empty when it cannot be read (one too large to read is never written over).
    private func load() -> Contents {
        (try? read()) ?? [:]
    }

    /// What the file holds; empty when it is missing or damaged; throws when it is too large or not a regular file.
    private func read() throws(FileReadError) -> Contents {
        guard let data = try FileContents.contentsIfPresent(atPath: filePath, limit: EnvironmentStateFile<String>.maximumFileSize) else { return [:] }
        return (try? HistoryStore.decoder.decode(Contents.self, from: data)) ?? [:]
    }

    /// Folders are kept by their canonical path (symbolic links resolved), so every way of naming a
    /// folder finds the same trust.
    static func key(for folder: URL) -> String {
        if case .resolved(let resolved) = ResolvedPath(folder.path) { return resolved }
        return folder.standardizedFileURL.path
    }
}

extension CatalogSource {
    /// What the person trusts in this source's folder (everything for the bundled catalogs).
    package func trust(in file: some TrustPersistence = TrustFile()) -> CatalogTrust {
        guard let directory else { return .everything }
        return file.trust(for: directory)
    }
}
