import FoundationEssentials
import Synchronization
import SystemSupport

/// The catalog a piece of kept state belongs to: tokens, cookies, captured and run-time values,
/// drafts and the responses `{{response.…}}` reads are the catalog's that made them, never another
/// catalog's that happens to declare the same `service:` id.
///
/// A catalog file on disk is known by its canonical path (its folder's symbolic links resolved,
/// then its name), so every way of naming the folder finds the same state, and a file from another
/// folder never does. A bundled catalog is known by its bundled name, a catalog made in memory by
/// its service id. A file that moves or is renamed starts with no state (what was kept stays under
/// the old path, found again if the file comes back).
package struct CatalogID: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// `/home/me/apis/petstore.yaml`, `bundled:petstore.yaml` or `memory:petstore`.
    package let rawValue: String

    /// The id written `rawValue`.
    package init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The catalog file `fileName` of `folder` (nil: the bundled catalogs).
    package init(file fileName: String, in folder: URL?) {
        guard let folder else {
            self.init(rawValue: Self.bundledPrefix + fileName)
            return
        }
        self.init(rawValue: URL.joinedFilePath(Self.canonicalFolder(folder.path), fileName))
    }

    /// A catalog made in memory (by a program or a test) for the service `serviceID`.
    package static func inMemory(_ serviceID: String) -> CatalogID {
        CatalogID(rawValue: memoryPrefix + serviceID)
    }

    static let bundledPrefix = "bundled:"
    static let memoryPrefix = "memory:"

    /// Whether the id names a file on disk (an absolute path).
    package var isFile: Bool { rawValue.hasPrefix("/") }

    package var description: String { rawValue }

    package static func < (lhs: CatalogID, rhs: CatalogID) -> Bool { lhs.rawValue < rhs.rawValue }

    package init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// Folders already resolved: a folder of 10,000 catalog files is resolved once, not per file.
    private static let resolvedFolders = Mutex<[String: String]>([:])

    /// `folder` with its symbolic links resolved (as given when it cannot be).
    static func canonicalFolder(_ folder: String) -> String {
        if let known = resolvedFolders.withLock({ $0[folder] }) { return known }
        let canonical: String
        if case .resolved(let resolved) = ResolvedPath(folder) {
            canonical = resolved
        } else {
            canonical = URL(fileURLWithPath: folder).standardizedFileURL.path
        }
        resolvedFolders.withLock { $0[folder] = canonical }
        return canonical
    }
}
