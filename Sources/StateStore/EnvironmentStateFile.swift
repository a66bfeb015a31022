import Catalog
import FoundationEssentials
import SystemSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small JSON file in the state directory holding one value per catalog, service and
/// environment (`{ "format": 2, "catalogs": { "/home/me/apis/petstore.yaml": { "petstore": {
/// "local": … } } } }`), readable by the owner only and replaced atomically on every save, so
/// `kill -9` at any moment leaves the old contents or the new, never half of a file. Drafts,
/// run-time values, captured values, cookies and tokens are kept this way, each under the catalog
/// that made it (`EnvironmentKey.catalog`): another catalog declaring the same service id finds
/// nothing.
///
/// Several processes share the folder (explorers, `call`s in parallel): a change is made under an
/// exclusive lock on the file (`flock` on `.NAME.lock`, released by the system when a process
/// dies), reading the file again first, so what another process wrote meanwhile stays (`update`,
/// `save(_:over:)`).
///
/// A file written before state was kept per catalog (`{ "petstore": { "local": … } }`) is read as
/// `legacy` entries, which no key finds and every write keeps, until `migrateLegacyEntries(into:)`
/// gives them to the catalogs that unambiguously made them (`StateMigration`).
package struct EnvironmentStateFile<Value: Codable & Sendable & Equatable>: Sendable {
    private let directoryPath: String
    private let name: String

    /// Makes a store for the file `name` in the folder at `directoryPath` (the state directory by default).
    package init(name: String, directoryPath: String = StateDirectory.path()) {
        self.directoryPath = directoryPath
        self.name = name
    }

    /// Makes a store for the file `name` in `directory`.
    package init(name: String, directory: URL) {
        self.init(name: name, directoryPath: directory.path)
    }

    /// The file.
    package var fileURL: URL { URL(fileURLWithPath: filePath) }
    private var filePath: String { URL.joinedFilePath(directoryPath, name) }
    /// The file's name in the state folder (`tokens.json`).
    package var fileName: String { name }

    /// The largest state file read: thousands of drafts, values or tokens are a few MiB. A larger
    /// one (or a FIFO, a device) is not read, and never written over (`update` fails naming it).
    package static var maximumFileSize: Int { 32 << 20 }

    /// The file's contents: values by catalog, service and environment, and entries of the format
    /// before catalogs (by service and environment) not yet migrated.
    struct Contents: Codable {
        /// The current format.
        static var currentFormat: Int { 2 }
        var format = Contents.currentFormat
        var catalogs: [String: [String: [String: Value]]] = [:]
        var legacy: [String: [String: Value]]?
    }

    /// What the file holds; empty when it is missing or damaged (a damaged file loses its values,
    /// never the explorer). Throws when the file is too large to read or not a regular file: what
    /// it holds must not be replaced by what a write adds.
    func readContents() throws(FileReadError) -> Contents {
        guard let data = try FileContents.contentsIfPresent(atPath: filePath, limit: Self.maximumFileSize) else { return Contents() }
        if let contents = try? HistoryStore.decoder.decode(Contents.self, from: data), contents.format == Contents.currentFormat {
            return contents
        }
        if let legacy = try? HistoryStore.decoder.decode([String: [String: Value]].self, from: data), !legacy.isEmpty {
            return Contents(legacy: legacy)
        }
        return Contents()
    }

    /// What the file holds; empty when it cannot be read (one too large to read is kept, see `update`).
    func contents() -> Contents {
        (try? readContents()) ?? Contents()
    }

    /// Every value, by catalog, service and environment; empty when the file is missing or unreadable.
    package func load() -> [EnvironmentKey: Value] {
        Self.values(of: contents())
    }

    /// Every value; throws when the file is too large to read or not a regular file.
    package func read() throws(FileReadError) -> [EnvironmentKey: Value] {
        Self.values(of: try readContents())
    }

    static func values(of contents: Contents) -> [EnvironmentKey: Value] {
        var values: [EnvironmentKey: Value] = [:]
        for (catalog, services) in contents.catalogs {
            for (service, environments) in services {
                for (environment, value) in environments {
                    values[EnvironmentKey(catalog: CatalogID(rawValue: catalog), service: service, environment: environment)] = value
                }
            }
        }
        return values
    }

    /// Changes the values under the file's lock: `change` sees what the file holds now.
    package func update(_ change: (inout [EnvironmentKey: Value]) -> Void) throws(SystemError) {
        try updateContents { contents in
            var values = Self.values(of: contents)
            change(&values)
            contents.catalogs = Self.catalogs(of: values)
        }
    }

    /// Changes the whole contents under the file's lock.
    func updateContents(_ change: (inout Contents) -> Void) throws(SystemError) {
        try StateDirectory.create(URL(fileURLWithPath: directoryPath))
        try withLock { () throws(SystemError) in
            var contents: Contents
            do throws(FileReadError) {
                contents = try readContents()
            } catch {
                throw SystemError("\(error); it was left as it is and nothing was written", number: EFBIG)
            }
            change(&contents)
            try write(contents)
        }
    }

    /// Writes what changed from `base` (what this process last read or wrote) to `values` over what
    /// the file holds now: a service and environment this process did not change keeps what
    /// another process wrote, and one both changed is merged entry by entry (`MergeableState`).
    package func save(_ values: [EnvironmentKey: Value], over base: [EnvironmentKey: Value]) throws(SystemError) where Value: MergeableState {
        try update { current in
            for key in Set(values.keys).union(base.keys) where values[key] != base[key] {
                current[key] = Value.merged(base: base[key], mine: values[key], theirs: current[key])
            }
        }
    }

    /// Runs `body` holding the file's lock (blocking until another process lets it go).
    private func withLock<T>(_ body: () throws(SystemError) -> T) throws(SystemError) -> T {
        try StateFileLock.holding(name, in: directoryPath, body)
    }

    /// Writes every value, replacing what the file holds (entries not yet migrated stay): `update`
    /// and `save(_:over:)` keep what other processes wrote.
    package func save(_ values: [EnvironmentKey: Value]) throws(SystemError) {
        try updateContents { $0.catalogs = Self.catalogs(of: values) }
    }

    private static func catalogs(of values: [EnvironmentKey: Value]) -> [String: [String: [String: Value]]] {
        var catalogs: [String: [String: [String: Value]]] = [:]
        for (key, value) in values { catalogs[key.catalog.rawValue, default: [:]][key.service, default: [:]][key.environment] = value }
        return catalogs
    }

    /// Writes `contents` (nothing at all removes the file).
    private func write(_ contents: Contents) throws(SystemError) {
        guard !contents.catalogs.isEmpty || contents.legacy?.isEmpty == false else {
            if unlink(filePath) != 0, errno != ENOENT { throw SystemError("cannot remove \(filePath)") }
            return
        }
        guard let data = try? HistoryStore.encoder.encode(contents) else {
            throw SystemError("cannot encode \(fileURL.lastPathComponent)", number: EINVAL)
        }
        try AtomicFile.write(data, to: fileURL, permissions: 0o600)
    }
}

/// A value two processes may both have changed since they read it: `merged` keeps both changes
/// where it can (a dictionary entry by entry), and `mine` where both changed the same thing.
package protocol MergeableState: Equatable {
    /// The three-way merge of `mine` and `theirs`, both changed from `base`; nil removes the value.
    static func merged(base: Self?, mine: Self?, theirs: Self?) -> Self?
}

extension MergeableState {
    /// By default mine wins where I changed it.
    package static func merged(base: Self?, mine: Self?, theirs: Self?) -> Self? { mine != base ? mine : theirs }
}

extension Dictionary: MergeableState where Key == String, Value: Equatable {
    /// Entry by entry: the ones I changed (or removed) are mine, the others theirs.
    package static func merged(base: Self?, mine: Self?, theirs: Self?) -> Self? {
        let base = base ?? [:], mine = mine ?? [:]
        var result = theirs ?? [:]
        for key in Set(base.keys).union(mine.keys) where base[key] != mine[key] { result[key] = mine[key] }
        return result.isEmpty ? nil : result
    }
}

extension CapturedValues: MergeableState {
    /// Stub and live values, each entry by entry.
    package static func merged(base: CapturedValues?, mine: CapturedValues?, theirs: CapturedValues?) -> CapturedValues? {
        var result = CapturedValues()
        result.stub = [String: CapturedValue].merged(base: base?.stub, mine: mine?.stub, theirs: theirs?.stub) ?? [:]
        result.live = [String: CapturedValue].merged(base: base?.live, mine: mine?.live, theirs: theirs?.live) ?? [:]
        return result.stub.isEmpty && result.live.isEmpty ? nil : result
    }
}

/// The state files of the explorer's edits and values.
package enum ExplorerStateFiles {
    /// Drafts: edits per endpoint id, per service and environment.
    package static func drafts(inFolder directoryPath: String = StateDirectory.path()) -> EnvironmentStateFile<[String: EndpointEdits]> {
        EnvironmentStateFile(name: "drafts.json", directoryPath: directoryPath)
    }

    /// Values captured from responses per service and environment, stub and live apart.
    package static func captured(inFolder directoryPath: String = StateDirectory.path()) -> EnvironmentStateFile<CapturedValues> {
        EnvironmentStateFile(name: "captured.json", directoryPath: directoryPath)
    }

    /// Run-time values (never secrets) per service and environment.
    package static func values(inFolder directoryPath: String = StateDirectory.path()) -> EnvironmentStateFile<[String: String]> {
        EnvironmentStateFile(name: "values.json", directoryPath: directoryPath)
    }

    /// Drafts in `directory`.
    package static func drafts(in directory: URL) -> EnvironmentStateFile<[String: EndpointEdits]> { drafts(inFolder: directory.path) }
    /// Captured values in `directory`.
    package static func captured(in directory: URL) -> EnvironmentStateFile<CapturedValues> { captured(inFolder: directory.path) }
    /// Run-time values in `directory`.
    package static func values(in directory: URL) -> EnvironmentStateFile<[String: String]> { values(inFolder: directory.path) }
}
