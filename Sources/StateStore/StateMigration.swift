import Catalog
import DispatcherCore
import FoundationEssentials
import OAuth2
import SystemSupport

/// Moves state kept by service id alone (before it was kept per catalog) to the catalogs that
/// made it, once: an entry goes to the catalog of the folder being loaded that alone declares its
/// service id, when that catalog is trusted (only a trusted catalog could have sent the requests
/// that made it); every other entry is dropped, with a note. A catalog from elsewhere declaring
/// the same id so never inherits a token, a cookie or a captured value.
///
/// Each file is migrated under its lock, reading it again first: of two processes starting at
/// once, the second finds nothing left to migrate.
package enum StateMigration {
    /// What one file's migration did: `service/environment` of the entries kept and dropped.
    package struct Outcome: Sendable, Hashable {
        package var file: String
        package var kept: [String] = []
        package var dropped: [String] = []

        /// `tokens.json: state kept before catalogs had their own: petstore/local kept in its catalog; dropped …`.
        package var note: String {
            var parts: [String] = []
            if !kept.isEmpty { parts.append("kept for \(kept.joined(separator: ", ")) in the catalog declaring it") }
            if !dropped.isEmpty {
                parts.append("dropped \(dropped.joined(separator: ", ")): no trusted catalog of this folder alone declares that service")
            }
            return "\(file): state kept before each catalog had its own: " + parts.joined(separator: "; ")
        }
    }

    /// The file whose presence says the folder's state files were migrated: later starts look for
    /// it alone instead of reading every state file.
    static let doneMarker = ".state-per-catalog"

    /// Migrates every per-service state file of the folder at `path` into `catalog`; one outcome
    /// per file that held entries to migrate. Failing to write leaves that file to the next start.
    package static func migrate(into catalog: CatalogSet, stateFolder path: String = StateDirectory.path()) -> [Outcome] {
        let marker = URL.joinedFilePath(path, doneMarker)
        guard !FileStatus.exists(marker), FileStatus.isDirectory(path) else { return [] }
        var outcomes: [Outcome] = []
        var failed = false
        func run<Value>(_ file: EnvironmentStateFile<Value>) {
            do throws(SystemError) {
                if let outcome = try file.migrateLegacyEntries(into: catalog) { outcomes.append(outcome) }
            } catch {
                failed = true
            }
        }
        run(EnvironmentStateFile<OAuth2Token>(name: TokenFile.fileName, directoryPath: path))
        run(EnvironmentStateFile<[Cookie]>(name: CookieFile.fileName, directoryPath: path))
        run(ExplorerStateFiles.captured(inFolder: path))
        run(ExplorerStateFiles.values(inFolder: path))
        run(ExplorerStateFiles.drafts(inFolder: path))
        if !failed { try? AtomicFile.write(Data(), to: URL(fileURLWithPath: marker), permissions: 0o600) }
        return outcomes
    }

    /// The catalog an entry of service `id` goes to: the one trusted catalog of the folder declaring it.
    static func owner(of id: String, in catalog: CatalogSet) -> Service? {
        guard catalog.declarationCount(of: id) == 1, let service = catalog.service(id), service.isTrusted else { return nil }
        return service
    }
}

extension EnvironmentStateFile {
    /// Gives the file's entries kept by service id to the catalogs of `catalog` that alone declare
    /// them (see `StateMigration`) and drops the others; nil when the file has none. An entry the
    /// catalog already has a newer value for keeps the newer one.
    func migrateLegacyEntries(into catalog: CatalogSet) throws(SystemError) -> StateMigration.Outcome? {
        guard contents().legacy != nil else { return nil }
        var outcome: StateMigration.Outcome?
        try updateContents { contents in
            guard let legacy = contents.legacy else { return }
            var result = StateMigration.Outcome(file: fileName)
            for (serviceID, environments) in legacy.sorted(by: { $0.key < $1.key }) {
                let owner = StateMigration.owner(of: serviceID, in: catalog)
                for (environment, value) in environments.sorted(by: { $0.key < $1.key }) {
                    guard let owner else {
                        result.dropped.append("\(serviceID)/\(environment)")
                        continue
                    }
                    let catalogKey = owner.catalogID.rawValue
                    if contents.catalogs[catalogKey]?[serviceID]?[environment] == nil {
                        contents.catalogs[catalogKey, default: [:]][serviceID, default: [:]][environment] = value
                    }
                    result.kept.append("\(serviceID)/\(environment)")
                }
            }
            contents.legacy = nil
            outcome = result
        }
        return outcome
    }
}
