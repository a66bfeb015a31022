import FoundationEssentials
import SystemSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How the explorer's panes were last arranged (`panes.json` in the state folder): the sidebar's
/// width the person set. Written under the file's lock, reading it again first, so a setting
/// another explorer wrote meanwhile stays; replaced atomically, never half written.
package struct PanesFile: Sendable {
    /// What the file keeps; a field it does not hold is nil.
    package struct Settings: Codable, Sendable, Equatable {
        /// The sidebar's width in columns.
        package var listWidth: Int?

        /// Makes settings.
        package init(listWidth: Int? = nil) { self.listWidth = listWidth }
    }

    /// The largest file read: a few settings are a few bytes.
    static let maximumSize = 64 * 1024
    static let name = "panes.json"
    private let directoryPath: String

    /// Makes the store for the folder at `directoryPath` (the state directory by default).
    package init(directoryPath: String = StateDirectory.path()) { self.directoryPath = directoryPath }

    private var filePath: String { URL.joinedFilePath(directoryPath, Self.name) }

    /// What the file holds; empty settings when it is missing, too large or damaged.
    package func load() -> Settings {
        // A file too large (or a FIFO) is not read: the settings are one width, and rewriting them loses nothing.
        guard let data = FileContents.read(atPath: filePath, atMost: Self.maximumSize),
            let settings = try? HistoryStore.decoder.decode(Settings.self, from: data)
        else { return Settings() }
        return settings
    }

    /// Changes the settings under the file's lock: `change` sees what the file holds now.
    package func update(_ change: (inout Settings) -> Void) throws(SystemError) {
        try StateDirectory.create(URL(fileURLWithPath: directoryPath))
        try StateFileLock.holding(Self.name, in: directoryPath) { () throws(SystemError) in
            var settings = load()
            change(&settings)
            guard let data = try? HistoryStore.encoder.encode(settings) else { throw SystemError("cannot encode \(Self.name)", number: EINVAL) }
            try AtomicFile.write(data, to: URL(fileURLWithPath: filePath), permissions: 0o600)
        }
    }
}
