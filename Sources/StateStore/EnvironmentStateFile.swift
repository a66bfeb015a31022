import Catalog
import FoundationEssentials
import SystemSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small JSON file in the state directory holding one value per service and environment
/// (`{ "petstore": { "local": … } }`), readable by the owner only and replaced atomically on every
/// save, so `kill -9` at any moment leaves the old contents or the new, never half of a file.
/// Drafts, run-time values and captured values are kept this way.
public struct EnvironmentStateFile<Value: Codable & Sendable & Equatable>: Sendable {
    private let directoryPath: String
    private let name: String

    /// Makes a store for the file `name` in the folder at `directoryPath` (the state directory by default).
    public init(name: String, directoryPath: String = StateDirectory.path()) {
        self.directoryPath = directoryPath
        self.name = name
    }

    /// Makes a store for the file `name` in `directory`.
    public init(name: String, directory: URL) {
        self.init(name: name, directoryPath: directory.path)
    }

    /// The file.
    public var fileURL: URL { URL(fileURLWithPath: filePath) }
    private var filePath: String { URL.joinedFilePath(directoryPath, name) }

    /// Every value, by service and environment; empty when the file is missing or unreadable (a
    /// damaged file loses its values, never the explorer).
    public func load() -> [EnvironmentKey: Value] {
        guard let data = FileContents.read(atPath: filePath),
            let contents = try? HistoryStore.decoder.decode([String: [String: Value]].self, from: data)
        else { return [:] }
        var values: [EnvironmentKey: Value] = [:]
        for (service, environments) in contents {
            for (environment, value) in environments { values[EnvironmentKey(service: service, environment: environment)] = value }
        }
        return values
    }

    /// Writes every value (an empty map removes the file).
    public func save(_ values: [EnvironmentKey: Value]) throws(SystemError) {
        guard !values.isEmpty else {
            if unlink(filePath) != 0, errno != ENOENT { throw SystemError("cannot remove \(filePath)") }
            return
        }
        var contents: [String: [String: Value]] = [:]
        for (key, value) in values { contents[key.service, default: [:]][key.environment] = value }
        guard let data = try? HistoryStore.encoder.encode(contents) else {
            throw SystemError("cannot encode \(fileURL.lastPathComponent)", number: EINVAL)
        }
        try StateDirectory.create(fileURL.deletingLastPathComponent())
        try AtomicFile.write(data, to: fileURL, permissions: 0o600)
    }
}

/// The state files of the explorer's edits and values.
public enum ExplorerStateFiles {
    /// Drafts: edits per endpoint id, per service and environment.
    public static func drafts(inFolder directoryPath: String = StateDirectory.path()) -> EnvironmentStateFile<[String: EndpointEdits]> {
        EnvironmentStateFile(name: "drafts.json", directoryPath: directoryPath)
    }

    /// Values captured from responses per service and environment, stub and live apart.
    public static func captured(inFolder directoryPath: String = StateDirectory.path()) -> EnvironmentStateFile<CapturedValues> {
        EnvironmentStateFile(name: "captured.json", directoryPath: directoryPath)
    }

    /// Run-time values (never secrets) per service and environment.
    public static func values(inFolder directoryPath: String = StateDirectory.path()) -> EnvironmentStateFile<[String: String]> {
        EnvironmentStateFile(name: "values.json", directoryPath: directoryPath)
    }

    /// Drafts in `directory`.
    public static func drafts(in directory: URL) -> EnvironmentStateFile<[String: EndpointEdits]> { drafts(inFolder: directory.path) }
    /// Captured values in `directory`.
    public static func captured(in directory: URL) -> EnvironmentStateFile<CapturedValues> { captured(inFolder: directory.path) }
    /// Run-time values in `directory`.
    public static func values(in directory: URL) -> EnvironmentStateFile<[String: String]> { values(inFolder: directory.path) }
}
